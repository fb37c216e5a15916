/**
 * A bulk add whose inputs the server refuses leaves none of their temp uploads behind: each refused
 * folder's upload is released at once instead of counting toward the account's temp-upload quota
 * until it expires. Against a real server.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type RunningServer, startServer } from '@skillport/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../src/index.js';
import { memoryIo } from './support/memory-io.js';

let server: RunningServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-add-refused-'));
  server = await startServer({ port: 0, dataDir: path.join(dir, 'data') });
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('skills add of a folder of skill folders releases the uploads of the refused ones', async () => {
  const parent = path.join(dir, 'skills');
  const write = (name: string, text: string) => {
    mkdirSync(path.join(parent, name), { recursive: true });
    writeFileSync(path.join(parent, name, 'SKILL.md'), text);
    writeFileSync(path.join(parent, name, 'notes.md'), 'An auxiliary file');
  };
  for (const name of ['bad-one', 'bad-two', 'bad-three']) write(name, `# ${name}\n\nNo frontmatter.\n`);
  write('good-one', '---\nname: good-one\ndescription: The one valid skill of the batch\n---\n\n# Good\n');
  const io = memoryIo({
    env: { SKILLPORT_URL: server.url, XDG_CONFIG_HOME: path.join(dir, 'cfg') },
    cwd: dir,
  });
  const code = await runCli(['skills', 'add', parent, '-o', 'json'], io);
  expect(code, io.err()).toBe(1);
  const rows = JSON.parse(io.out()) as Array<{ result: string; error?: { code: string } }>;
  expect(rows.map((r) => r.result).sort()).toEqual(['added', 'refused', 'refused', 'refused']);
  expect(rows.filter((r) => r.error).map((r) => r.error?.code)).toEqual([
    'SKILL_INVALID',
    'SKILL_INVALID',
    'SKILL_INVALID',
  ]);
  expect((await server.store.accountUsage('default', Date.now())).tempUploadBytes).toBe(0);
});
