/** `skills validate` on bytes the server refuses before parsing: it must not call them valid. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/index.js';
import { memoryIo } from '../support/memory-io.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-validate-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const enc = new TextEncoder();
const HEAD = '---\nname: byte-check\ndescription: A skill whose bytes the server checks first\n---\n';

interface Issue {
  rule: string;
  severity: string;
  line?: number;
  column?: number;
}

describe('skills validate: bytes add refuses', () => {
  it.each([
    ['valid UTF-8', enc.encode(`${HEAD}body\n`), null],
    [
      'a byte that is not UTF-8 (0xBA in the body)',
      new Uint8Array([...enc.encode(`${HEAD}ab`), 0xba, ...enc.encode('cd\n')]),
      { rule: 'invalid_utf8', line: 5, column: 3 },
    ],
    ['a NUL character', enc.encode(`${HEAD}bo\u0000dy\n`), { rule: 'nul_byte', line: 5, column: 3 }],
  ])('%s', async (_label, bytes, expected) => {
    const file = path.join(dir, 'SKILL.md');
    writeFileSync(file, bytes);
    const io = memoryIo({ cwd: dir, env: {} });
    const code = await runCli(['skills', 'validate', '--no-dir-name', 'SKILL.md', '-o', 'json'], io);
    const [result] = (JSON.parse(io.out()) as { results: Array<{ valid: boolean; errors: Issue[] }> })
      .results;
    if (expected === null) {
      expect(code).toBe(0);
      expect(result?.valid).toBe(true);
    } else {
      expect(code).toBe(1);
      expect(result?.valid).toBe(false);
      expect(result?.errors).toContainEqual(expect.objectContaining({ ...expected, severity: 'error' }));
    }
  });
});
