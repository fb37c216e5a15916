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

it('a bulk add in a table names each refused input with its whole reason on stderr', async () => {
  const parent = path.join(dir, 'reasons');
  mkdirSync(path.join(parent, 'late-fence'), { recursive: true });
  writeFileSync(
    path.join(parent, 'late-fence', 'SKILL.md'),
    '# Title first\n\n---\nname: late-fence\ndescription: The fence comes too late\n---\n',
  );
  mkdirSync(path.join(parent, 'fine'), { recursive: true });
  writeFileSync(path.join(parent, 'fine', 'SKILL.md'), '---\nname: fine\ndescription: A valid skill\n---\n');
  const env = { SKILLPORT_URL: server.url, XDG_CONFIG_HOME: path.join(dir, 'cfg'), COLUMNS: '80' };
  const json = memoryIo({ env, cwd: dir });
  expect(await runCli(['add-skill', parent, '-o', 'json'], json)).toBe(1);
  const refused = (
    JSON.parse(json.out()) as Array<{ input: string; error?: { code: string; message: string } }>
  ).filter((r) => r.error);
  expect(refused).toHaveLength(1);
  const reason = `${refused[0]?.error?.code}: ${refused[0]?.error?.message}`;
  // Longer than the table's DETAIL column can show in 80 columns: the table cuts it.
  expect(reason.length).toBeGreaterThan(80);
  const table = memoryIo({ env, cwd: dir });
  expect(await runCli(['add-skill', parent], table)).toBe(1);
  expect(table.out()).not.toContain(reason);
  expect(table.err()).toContain(`refused ${refused[0]?.input}: ${reason}\n`);
});
