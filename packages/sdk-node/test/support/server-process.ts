/**
 * A real Skillport server in a child process (the built `@skillport/server`, SQLite in a temp folder,
 * port 0). A separate process matters for `SyncHTTPClient`, which blocks the calling thread.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const BOOT = `
const { startServer } = await import('@skillport/server');
const server = await startServer({ port: 0, dataDir: process.env.DATA_DIR, logger: false, embeddings: 'off',
  corsOrigins: (process.env.CORS || '').split(',').filter(Boolean),
  ...(process.env.ROOT_KEY ? { rootApiKey: process.env.ROOT_KEY } : {}),
  ...JSON.parse(process.env.SERVER_OPTIONS || '{}') });
process.stdout.write(JSON.stringify({ url: server.url }) + '\\n');
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
`;

export interface ServerProcess {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the built server (`pnpm build` first) and resolves with its URL.
 * @param corsOrigins - origins allowed by CORS (browser tests).
 * @param rootApiKey - a root key; when given the server is not in dev mode.
 * @param serverOptions - more options of `startServer` (JSON), e.g. `{accountQuotaMb: 1}`.
 */
export async function startServerProcess(
  corsOrigins: string[] = [],
  rootApiKey?: string,
  serverOptions: Record<string, unknown> = {},
): Promise<ServerProcess> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'skillport-sdk-'));
  const child = spawn(process.execPath, ['--input-type=module', '-e', BOOT], {
    cwd: PACKAGE_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATA_DIR: dataDir,
      CORS: corsOrigins.join(','),
      ROOT_KEY: rootApiKey ?? '',
      SERVER_OPTIONS: JSON.stringify(serverOptions),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in 30 s: ${stderr}`));
    }, 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n').find((l) => l.startsWith('{') && l.endsWith('}'));
      if (line) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { url: string }).url);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} (is it built? run \`pnpm build\`): ${stderr}`));
    });
  });
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
