/**
 * Running the built `skillport` binary: a server (`skillport serve --port 0`) and one-shot commands.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './corpus.js';

/** The built CLI entry point. */
export const CLI_BIN = path.join(REPO_ROOT, 'packages/cli/dist/bin.js');

/** Fails loudly when the packages were not built (the root `pnpm test` builds before running vitest). */
export function requireBuild(): void {
  const needed = [
    CLI_BIN,
    path.join(REPO_ROOT, 'packages/sdk-node/dist/sync/worker.js'),
    path.join(REPO_ROOT, 'packages/sdk-browser/dist/index.js'),
    path.join(REPO_ROOT, 'apps/server/dist/index.js'),
    path.join(REPO_ROOT, 'packages/core/dist/index.js'),
  ];
  const missing = needed.filter((file) => !existsSync(file));
  if (missing.length > 0) {
    throw new Error(
      `built packages missing (${missing.map((m) => path.relative(REPO_ROOT, m)).join(', ')}): run \`pnpm build\` first`,
    );
  }
}

/** An environment without the developer's Skillport settings. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('SKILLPORT_')) env[key] = value;
  delete env.CI;
  // Servers started by these tests rank lexically unless a test asks for embeddings.
  return { ...env, SKILLPORT_EMBEDDINGS: 'off', ...extra };
}

export interface RunningCliServer {
  url: string;
  dataDir: string;
  configHome: string;
  stop(): Promise<void>;
}

/**
 * Starts `skillport serve --port 0 -o json` on a fresh temp data folder and waits for its URL.
 * @param env - extra environment (e.g. `SKILLPORT_CORS_ORIGINS`).
 */
export async function startCliServer(env: Record<string, string> = {}): Promise<RunningCliServer> {
  requireBuild();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'skillport-e2e-'));
  const configHome = mkdtempSync(path.join(os.tmpdir(), 'skillport-cfg-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [CLI_BIN, 'serve', '--port', '0', '--data-dir', dataDir, '-o', 'json'],
    { env: cleanEnv({ XDG_CONFIG_HOME: configHome, ...env }), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in 30 s: ${stderr}`));
    }, 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n').find((l) => l.trim().startsWith('{') && l.trim().endsWith('}'));
      if (line) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { url: string }).url);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`skillport serve exited with ${code}: ${stderr}`));
    });
  });
  return {
    url,
    dataDir,
    configHome,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(configHome, { recursive: true, force: true });
    },
  };
}

export interface CliRun {
  code: number;
  stdout: Buffer;
  stderr: string;
  /** stdout parsed as JSON (throws with the output when it is not JSON). */
  json<T = unknown>(): T;
}

/** Runs the built CLI with `args` against `server`, optionally feeding `input` on stdin. */
export function runBin(
  server: Pick<RunningCliServer, 'url' | 'configHome'>,
  args: string[],
  options: { input?: string | Uint8Array; env?: Record<string, string>; cwd?: string } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], {
      env: cleanEnv({ SKILLPORT_URL: server.url, XDG_CONFIG_HOME: server.configHome, ...options.env }),
      cwd: options.cwd ?? REPO_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const stdout = Buffer.concat(out);
      resolve({
        code: code ?? -1,
        stdout,
        stderr: err,
        json<T>() {
          try {
            return JSON.parse(stdout.toString('utf8')) as T;
          } catch {
            throw new Error(
              `not JSON (exit ${code}): ${stdout.toString('utf8').slice(0, 500)} ${err.slice(0, 500)}`,
            );
          }
        },
      });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Maps `items` through `fn` with at most `limit` in flight, keeping order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T);
    }
  });
  await Promise.all(workers);
  return results;
}
