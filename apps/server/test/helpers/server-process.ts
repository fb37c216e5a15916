/**
 * Test helper: the server in a process of its own, started from its TypeScript sources (tsx), so a
 * test can observe it from outside — its latency is not mixed with the test's own work and memory.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dropEngineData, engineEnv } from './engine.js';

const serverDir = path.resolve(import.meta.dirname, '../..');

/** A server process. */
export interface ServerProcess {
  url: string;
  dataDir: string;
  child: ChildProcess;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Everything the process wrote to stdout so far (its JSON log lines). */
  stdout(): string;
  /** SIGTERM, wait for exit, remove the data folder (and its PostgreSQL schema). */
  stop(): Promise<void>;
}

/**
 * Starts `src/main.ts` with `SKILLPORT_PORT=0` and a temp data folder on the engine under test (see
 * `engine.ts`); resolves once it listens.
 *
 * @param env - extra environment (e.g. limits; `SKILLPORT_EMBEDDINGS` is `off` unless given)
 */
export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'skillport-proc-'));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=@skillport/source', 'src/main.ts'],
    {
      cwd: serverDir,
      env: {
        PATH: process.env.PATH ?? '',
        SKILLPORT_DATA_DIR: dataDir,
        SKILLPORT_PORT: '0',
        ...engineEnv(dataDir),
        SKILLPORT_EMBEDDINGS: 'off',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  let stdout = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`server did not start in 60 s: ${stderr}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n').find((l) => l.includes('"listening"'));
      if (line === undefined) return;
      clearTimeout(timer);
      resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening: ${stderr}`));
    });
  });
  return {
    url,
    dataDir,
    child,
    stderr: () => stderr,
    stdout: () => stdout,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await dropEngineData(dataDir);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
