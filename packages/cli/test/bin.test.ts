/** The built `skillport` executable as a shell runs it: output piped into a reader that stops early. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusDir } from './support/corpus.js';
import { CLI_BIN, cleanEnv, requireBuild } from './support/processes.js';

interface PipedRun {
  /** The CLI's own exit status (`PIPESTATUS[0]`), not the reader's. */
  code: number | null;
  stderr: string;
}

const quote = (arg: string): string => `'${arg.replaceAll("'", "'\\''")}'`;

/** Runs `skillport <args> | head -c 1` in bash, so the reader closes the pipe after one byte. */
function runIntoHead(args: string[]): Promise<PipedRun> {
  requireBuild();
  const command = [process.execPath, CLI_BIN, ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `${command} | head -c 1 >/dev/null; exit "\${PIPESTATUS[0]}"`], {
      env: cleanEnv(),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('skillport … | head (stdout closed early)', () => {
  it.each([
    [
      '-o json skills validate <corpus>',
      ['-o', 'json', 'skills', 'validate', path.join(corpusDir(), 'skills')],
    ],
    ['skills validate <corpus>', ['skills', 'validate', path.join(corpusDir(), 'skills')]],
  ])('%s stops quietly with its own exit status, no EPIPE crash', async (_label, args) => {
    const run = await runIntoHead(args);
    expect(run.stderr).not.toMatch(/EPIPE|Unhandled 'error' event|node:events/);
    // The corpus holds invalid skills, so validate still reports failure (1) rather than crashing.
    expect(run.code).toBe(1);
  });
});
