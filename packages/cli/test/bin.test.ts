/** The built `skillport` executable as a shell runs it: output piped into a reader that stops early. */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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

/** Many skill folders, every fifth one broken: far more output than a pipe buffer holds. */
const many = mkdtempSync(path.join(os.tmpdir(), 'skillport-bin-'));
for (let i = 0; i < 400; i++) {
  const name = `skill-${String(i).padStart(3, '0')}`;
  mkdirSync(path.join(many, name));
  const description = i % 5 === 0 ? '' : `Skill number ${i}, which does one thing well enough to be kept`;
  writeFileSync(
    path.join(many, name, 'SKILL.md'),
    `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`,
  );
}
afterAll(() => rmSync(many, { recursive: true, force: true }));

describe('skillport … | head (stdout closed early)', () => {
  it.each([
    ['-o json skills validate <400 skills>', ['-o', 'json', 'skills', 'validate', many]],
    ['skills validate <400 skills>', ['skills', 'validate', many]],
  ])('%s stops quietly with its own exit status, no EPIPE crash', async (_label, args) => {
    const run = await runIntoHead(args);
    expect(run.stderr).not.toMatch(/EPIPE|Unhandled 'error' event|node:events/);
    // Some skills are invalid, so validate still reports failure (1) rather than crashing.
    expect(run.code).toBe(1);
  });
});
