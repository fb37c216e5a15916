/**
 * A skill is text someone else wrote: its description, tags and body may carry terminal control
 * sequences (clear the screen, set the window title, write the clipboard with OSC 52) or bidi
 * overrides that reorder what a reader sees. Tables never pass them to the terminal; `skills show`
 * on a terminal shows them as escapes, and byte for byte when redirected. Against a real server.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AsyncHTTPClient, LocalError } from '@skillport/sdk-node';
import { type RunningServer, startServer } from '@skillport/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/index.js';
import { reportError } from '../src/internal/report-error.js';
import { memoryIo } from './support/memory-io.js';

let server: RunningServer;
let dir: string;
let client: AsyncHTTPClient;

/**
 * ESC, BEL, CSI (8-bit), DEL, the bidi override/isolate characters and the bidi marks: none may
 * reach a terminal raw.
 */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const SKILL_MD =
  '---\n' +
  'name: control-chars\n' +
  'description: "Looks harmless \\e[2J\\e]0;owned\\a \\e]52;c;ZXZpbA==\\a then \\u202egnp.exe and \\x9b31m, v1\\u200f-2"\n' +
  'tags: ["\\e[1mbold", plain]\n' +
  '---\n\n' +
  '# Body\n\nA line\twith a tab.\r\nA CRLF line, \x1b[5mblinking\x1b[0m, and a lone \rcarriage return.\n';

async function run(argv: string[], tty: boolean) {
  const io = memoryIo({
    // Redirected output is cut to COLUMNS (default 160): room for the whole description.
    env: { SKILLPORT_URL: server.url, XDG_CONFIG_HOME: path.join(dir, 'cfg'), COLUMNS: '400' },
    cwd: dir,
    tty,
  });
  const code = await runCli(argv, io);
  return { code, out: io.out(), err: io.err() };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-terminal-controls-'));
  server = await startServer({ port: 0, dataDir: path.join(dir, 'data') });
  client = new AsyncHTTPClient({ url: server.url });
  await client.addSkill(SKILL_MD, { wait: true });
});
afterAll(async () => {
  client?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('server text shown in a terminal', () => {
  it.each([[['skills', 'list']], [['skills', 'find', 'harmless']], [['skills', 'history', 'control-chars']]])(
    '%j prints tables without control characters, showing them as escapes',
    async (argv) => {
      for (const tty of [true, false]) {
        const result = await run(argv, tty);
        expect(result.code, result.err).toBe(0);
        expect(result.out).not.toMatch(RAW_CONTROL);
        // A terminal's table is cut to its 80 columns; redirected, the whole description is there.
        if (argv[1] !== 'history' && !tty) {
          expect(result.out).toContain('Looks harmless \\u001b[2J\\u001b]0;owned\\u0007');
          expect(result.out).toContain('\\u202egnp.exe and \\u009b31m, v1\\u200f-2');
          if (argv[1] === 'list') expect(result.out).toContain('\\u001b[1mbold,plain');
        }
      }
    },
  );

  it('skills show on a terminal escapes control characters but keeps newlines, tabs and CRLF', async () => {
    const shown = await run(['skills', 'show', 'control-chars'], true);
    expect(shown.code, shown.err).toBe(0);
    expect(shown.out.replaceAll('\r\n', '\n')).not.toMatch(RAW_CONTROL);
    expect(shown.out).toContain('A line\twith a tab.\r\nA CRLF line, \\u001b[5mblinking\\u001b[0m');
    expect(shown.out).toContain('a lone \\u000dcarriage return.\n');
    for (const level of ['0', '1']) {
      const text = await run(['skills', 'show', 'control-chars', '--level', level], true);
      expect(text.code, text.err).toBe(0);
      expect(text.out).not.toMatch(RAW_CONTROL);
      expect(text.out).toContain('\\u001b]0;owned\\u0007');
      expect(text.out).toContain('v1\\u200f-2');
    }
  });

  it('skills show redirected prints the SKILL.md byte for byte', async () => {
    const shown = await run(['skills', 'show', 'control-chars'], false);
    expect(shown.code, shown.err).toBe(0);
    expect(shown.out).toBe(SKILL_MD);
  });
});

describe('error output', () => {
  // Refused before uploading (the server's path rule, checked locally), the name shown with escapes.
  it('add-skill of a file whose name holds a tab and ESC: the message shows them as escapes', async () => {
    const folder = path.join(dir, 'tab-skill');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      path.join(folder, 'SKILL.md'),
      '---\nname: tab-skill\ndescription: A folder holding a file with a tab in its name\n---\nBody\n',
    );
    writeFileSync(path.join(folder, 'a\tb\u001b[31mred.txt'), 'x');
    for (const tty of [true, false]) {
      const result = await run(['add-skill', folder], tty);
      expect(result.code).toBe(1);
      expect(result.err).toContain('Unsafe file path "a\\tb\\u001b[31mred.txt": control characters');
      expect(result.err).toContain('nothing was uploaded');
      expect(result.err).not.toMatch(RAW_CONTROL);
      expect(result.err).not.toContain('\t');
    }
  });

  it('files left out of an upload are named with their control characters as escapes', async () => {
    const folder = path.join(dir, 'link-skill');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      path.join(folder, 'SKILL.md'),
      '---\nname: link-skill\ndescription: A folder holding a link with ESC and a bidi mark in its name\n---\nBody\n',
    );
    symlinkSync('SKILL.md', path.join(folder, 'link\u001b[2J\u200fmd'));
    for (const argv of [
      ['add-skill', folder],
      ['skills', 'add', folder, folder],
    ]) {
      const result = await run(argv, false);
      expect(`${result.out}${result.err}`).toContain('link\\u001b[2J\\u200fmd');
      expect(result.out).not.toMatch(RAW_CONTROL);
      expect(result.err).not.toMatch(RAW_CONTROL);
    }
  });

  it('the message, issues, validation errors and details of any error are printed without control characters', () => {
    const io = memoryIo();
    const error = new LocalError('INVALID_ARGUMENT', 'Refused \u001b]0;owned\u0007 input\twith a tab', {
      details: {
        issues: [{ rule: 'x\u001b[2J', severity: 'error', message: 'bad\nline \u009b31m', line: 2 }],
        validation_errors: [{ loc: ['body', 'field\u001b[1m'], message: 'unknown\tfield \u202e' }],
        note: 'two\nlines',
        value: '\u00a0nb-tools\ufeff',
        nested: { key: '\u001b[5m' },
      },
    });
    expect(reportError(io, 'table', error)).toBe(1);
    const printed = io.err();
    expect(printed).not.toMatch(RAW_CONTROL);
    expect(printed).not.toContain('\t');
    // One line per detail: a line break in a value cannot start a line of its own.
    expect(printed.split('\n').filter(Boolean)).toEqual([
      'error: Refused \\u001b]0;owned\\u0007 input\\u0009with a tab',
      '  2:1 error x\\u001b[2J bad\\u000aline \\u009b31m',
      '  body.field\\u001b[1m: unknown\\u0009field \\u202e',
      '  note: two\\u000alines',
      '  value: \\u00a0nb-tools\\ufeff',
      '  nested: {"key":"\\u001b[5m"}',
    ]);
  });
});
