import { readFileSync } from 'node:fs';
import path from 'node:path';
import { format } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningCliServer, startCliServer } from '../../packages/cli/test/support/processes.js';

// The code examples of the README run for real against a server started by the built CLI (in its own
// process, so the synchronous client can block this thread). Each `console.log(...); // output`
// comment in an example is the output it must print.
const codeDir = path.resolve(import.meta.dirname, '../code');
const readme = readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');

/** The expected output of each `console.log` statement, in order (`null` when the line has no comment). */
function expectedOutputs(file: string): (string | null)[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.includes('console.log('))
    .map((line) => /;\s*\/\/\s*(.+)$/.exec(line)?.[1]?.trim() ?? null);
}

async function runExample(file: string): Promise<string[]> {
  const printed: string[] = [];
  const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    printed.push(format(...args));
  });
  try {
    await import(/* @vite-ignore */ `${file}?run=${Date.now()}`);
  } finally {
    spy.mockRestore();
  }
  return printed;
}

let server: RunningCliServer;
const previousUrl = process.env.SKILLPORT_URL;

beforeAll(async () => {
  server = await startCliServer();
  process.env.SKILLPORT_URL = server.url;
});

afterAll(async () => {
  if (previousUrl === undefined) delete process.env.SKILLPORT_URL;
  else process.env.SKILLPORT_URL = previousUrl;
  await server?.stop();
});

describe('README code examples', () => {
  for (const name of ['async-client.ts', 'sync-client.ts']) {
    it(`${name} is in the README verbatim and prints what its comments say`, async () => {
      const file = path.join(codeDir, name);
      expect(readme).toContain(readFileSync(file, 'utf8').trim());
      const expected = expectedOutputs(file);
      const printed = await runExample(file);
      expect(printed).toHaveLength(expected.length);
      expected.forEach((want, i) => {
        if (want !== null) expect(printed[i]).toBe(want);
      });
    });
  }
});
