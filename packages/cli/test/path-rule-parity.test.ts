/**
 * One rule for the paths of a skill's files on every surface: for each rule of
 * `skillUploadPathProblem`, `skills validate` of a folder and of a zip, `add-skill` of the folder and
 * the live server's add of the zip give the same verdict, the same reason (the validate rule is the
 * server's `details.reason`) and the server's message. Against a real server.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type RunningServer, startServer } from '@skillport/server';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/index.js';
import { memoryIo } from './support/memory-io.js';

let server: RunningServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-path-rule-'));
  server = await startServer({ port: 0, dataDir: path.join(dir, 'data') });
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const enc = new TextEncoder();
const skillMd = (name: string) =>
  `---\nname: ${name}\ndescription: A skill holding one odd file path\n---\n# Odd\n`;
const nested = (folders: number) => Array.from({ length: folders }, (_, i) => `d${i + 1}`).join('/');

interface Issue {
  rule: string;
  message: string;
}
interface Validated {
  valid: boolean;
  errors: Issue[];
}

/** `skills validate <target> -o json`: the one result. */
async function validate(target: string): Promise<Validated> {
  const io = memoryIo({ cwd: dir, env: {} });
  await runCli(['skills', 'validate', target, '-o', 'json'], io);
  const [result] = (JSON.parse(io.out()) as { results: Validated[] }).results;
  return result as Validated;
}

/** The server's add of a zip (temp upload, then `POST /api/v1/skills`): status, reason and message. */
async function serverAdd(zip: Uint8Array): Promise<{ status: number; reason?: string; message?: string }> {
  const form = new FormData();
  form.append('file', new Blob([zip as Uint8Array<ArrayBuffer>]), 'skill.zip');
  const up = await fetch(`${server.url}/api/v1/resources/temp_upload`, { method: 'POST', body: form });
  expect(up.status).toBe(200);
  const { result } = (await up.json()) as { result: { temp_file_id: string } };
  const res = await fetch(`${server.url}/api/v1/skills`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ temp_file_id: result.temp_file_id }),
  });
  const body = (await res.json()) as { error?: { message: string; details?: { reason?: string } } };
  return {
    status: res.status,
    ...(body.error?.details?.reason !== undefined ? { reason: body.error.details.reason } : {}),
    ...(body.error ? { message: body.error.message } : {}),
  };
}

// [file path, the server's reason (null: accepted), whether a folder on this system can hold it]
const ROWS: Array<[string, string | null, boolean]> = [
  ['scripts/run.py', null, true],
  ['auxiliary.py', null, true],
  ['com10.txt', null, true],
  ['docs/a b.md', null, true],
  [`${nested(15)}/f.txt`, null, true],
  ['\u6587'.repeat(85), null, true], // 255 bytes in UTF-8
  ['aux.py', 'windows_name', true],
  ['notes: draft.md', 'windows_name', true],
  ['what?.md', 'windows_name', true],
  ['a|b.txt', 'windows_name', true],
  ['<tag>.md', 'windows_name', true],
  ['say"hi".md', 'windows_name', true],
  ['star*.txt', 'windows_name', true],
  ['CON.txt', 'windows_name', true],
  ['scripts/com1.py', 'windows_name', true],
  ['nul', 'windows_name', true],
  ['Lpt9.log', 'windows_name', true],
  ['notes.txt.', 'windows_name', true],
  ['docs /a.txt', 'windows_name', true],
  ['aux/readme.md', 'windows_name', true],
  ['bell\u0007.txt', 'control_character', true],
  [`${nested(16)}/f.txt`, 'too_deep', true],
  // 1,104 characters: more than the file route reads back (`skillport install` could not fetch it).
  [`${`${'d'.repeat(200)}/`.repeat(5)}${'f'.repeat(100)}.txt`, 'too_long', true],
  // No file system holds these names: checked in a zip only.
  ['a'.repeat(256), 'segment_too_long', false],
  [`${'\u6587'.repeat(100)}.md`, 'segment_too_long', false],
  ['../evil.txt', 'traversal', false],
  ['..\\evil.txt', 'traversal', false],
  ['/etc/evil.txt', 'absolute', false],
  ['C:/evil.dll', 'drive_letter', false],
  ['docs/./a.txt', 'empty_segment', false],
  ['docs//a.txt', 'empty_segment', false],
];
const onDisk = (file: string) =>
  process.platform !== 'win32' || !/[<>:"|?*\u0000-\u001f]|[. ]$|[. ]\//.test(file);

describe.each(ROWS.map(([file, reason, folder], i) => ({ file, reason, folder, i })))(
  'file $file',
  ({ file, reason, folder, i }) => {
    const name = `path-rule-${i}`;
    const zip = zipSync(
      { 'SKILL.md': enc.encode(skillMd(`${name}-zip`)), [file]: enc.encode('x') },
      { level: 0 },
    );
    let server400: { status: number; reason?: string; message?: string };

    beforeAll(async () => {
      server400 = await serverAdd(zip);
    });

    it(`the server's add: ${reason ?? 'accepted'}`, () => {
      if (reason === null) expect(server400.status).toBe(200);
      else
        expect(server400).toMatchObject({
          status: 400,
          reason,
          message: expect.stringMatching(/^Unsafe file path /),
        });
    });

    it('skills validate of the zip: the same verdict, the reason as rule, the server message', async () => {
      writeFileSync(path.join(dir, `${name}.zip`), zip);
      const result = await validate(`${name}.zip`);
      if (reason === null) {
        expect(result.errors).toEqual([]);
        expect(result.valid).toBe(true);
      } else {
        expect(result.valid).toBe(false);
        expect(result.errors).toEqual([
          { rule: reason, severity: 'error', field: null, message: `${server400.message}; add refuses it` },
        ]);
      }
    });

    it.runIf(folder && onDisk(file))(
      'skills validate and add-skill of a folder holding it: the same verdict',
      async () => {
        const skill = path.join(dir, name);
        mkdirSync(path.dirname(path.join(skill, file)), { recursive: true });
        writeFileSync(path.join(skill, 'SKILL.md'), skillMd(name));
        writeFileSync(path.join(skill, file), 'x');
        const result = await validate(name);
        const io = memoryIo({
          cwd: dir,
          env: { SKILLPORT_URL: server.url, XDG_CONFIG_HOME: path.join(dir, 'cfg') },
        });
        const code = await runCli(['add-skill', name], io);
        if (reason === null) {
          expect(result.errors).toEqual([]);
          expect(result.valid).toBe(true);
          expect(code, io.err()).toBe(0);
        } else {
          expect(result.valid).toBe(false);
          expect(result.errors).toEqual([
            {
              rule: reason,
              severity: 'error',
              field: null,
              message: `add would be refused: ${server400.message}`,
            },
          ]);
          // Refused before uploading, in the server's words.
          expect(code).toBe(1);
          expect(io.err()).toContain(`${name}: ${server400.message}; nothing was uploaded.`);
        }
      },
    );
  },
);

it('a folder nested past the depth limit is too_deep on every surface, validate naming the folder', async () => {
  const name = 'path-rule-deep-folder';
  const file = `${nested(17)}/f.txt`;
  const skill = path.join(dir, name);
  mkdirSync(path.dirname(path.join(skill, file)), { recursive: true });
  writeFileSync(path.join(skill, 'SKILL.md'), skillMd(name));
  writeFileSync(path.join(skill, file), 'x');
  const answer = await serverAdd(zipSync({ 'SKILL.md': enc.encode(skillMd(name)), [file]: enc.encode('x') }));
  expect(answer).toMatchObject({ status: 400, reason: 'too_deep' });
  const result = await validate(name);
  expect(result.errors).toEqual([
    {
      rule: 'too_deep',
      severity: 'error',
      field: null,
      message: `add would be refused: Unsafe file path "${nested(17)}/": nested 17 levels deep; the limit is 16`,
    },
  ]);
});

it.skipIf(process.platform === 'win32')(
  'a folder holding a name with a backslash is refused (backslash): the server would store it as another file',
  async () => {
    const name = 'path-rule-backslash';
    const skill = path.join(dir, name);
    mkdirSync(skill, { recursive: true });
    writeFileSync(path.join(skill, 'SKILL.md'), skillMd(name));
    writeFileSync(path.join(skill, 'a\\b.txt'), 'x');
    const result = await validate(name);
    expect(result.errors).toEqual([
      {
        rule: 'backslash',
        severity: 'error',
        field: null,
        message: 'add would be refused: Unsafe file path "a\\\\b.txt": backslashes are not allowed (use `/`)',
      },
    ]);
  },
);
