/**
 * `add-skill` and `skills update` of a skill folder holding symlinks (one inside the folder, one to a
 * file outside it): every file not uploaded is reported with its path and reason, in the table and in
 * `--json` output — against a real server, checked against the files the server stored.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AsyncHTTPClient } from '@skillport/sdk-node';
import { type RunningServer, startServer } from '@skillport/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAgainst } from './support/memory-io.js';

let server: RunningServer;
let dir: string;
let client: AsyncHTTPClient;

const cli = (argv: string[]) =>
  runCliAgainst(argv, { url: server.url, configHome: path.join(dir, 'cfg'), cwd: dir });

/** A skill folder with a real file, a symlink to it and a symlink to a file outside the folder. */
function symSkill(name: string): void {
  const folder = path.join(dir, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    path.join(folder, 'SKILL.md'),
    `---\nname: ${name}\ndescription: Has symlinks inside\n---\n\nBody.\n`,
  );
  writeFileSync(path.join(folder, 'notes.txt'), 'real notes\n');
  writeFileSync(path.join(dir, 'outside.txt'), 'not part of the skill\n');
  symlinkSync('notes.txt', path.join(folder, 'inner-link.txt'));
  symlinkSync(path.join(dir, 'outside.txt'), path.join(folder, 'outside-link'));
}

const expectedSkipped = [
  { path: 'inner-link.txt', reason: 'symlink' },
  { path: 'outside-link', reason: 'outside_root' },
];

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-skipped-'));
  server = await startServer({ port: 0, dataDir: path.join(dir, 'data'), runJobs: false });
  client = new AsyncHTTPClient({ url: server.url });
  symSkill('sym-skill');
  symSkill('sym-other');
});
afterAll(async () => {
  client?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('files not uploaded are reported', () => {
  it('add-skill <folder> -o json lists each with path and reason; the server has none of them', async () => {
    const result = await cli(['add-skill', 'sym-skill', '-o', 'json']);
    expect(result.code, result.err).toBe(0);
    const json = JSON.parse(result.out) as {
      name: string;
      skipped: Array<{ path: string; reason: string; message: string }>;
    };
    expect(json.skipped.map(({ path, reason }) => ({ path, reason }))).toEqual(expectedSkipped);
    expect(json.skipped.every((s) => s.message.length > 0)).toBe(true);
    const stored = await client.getSkill('sym-skill', { level: 0 });
    expect((stored.files ?? []).map((f) => f.path).sort()).toEqual(['.abstract.md', 'SKILL.md', 'notes.txt']);
  });

  it('add-skill <folder> shows the count and one line per file in the table', async () => {
    const result = await cli(['add-skill', 'sym-skill']);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toMatch(/skipped files\s+2 files not uploaded/);
    expect(result.out).toMatch(/^ {2}skipped inner-link\.txt symlink: /m);
    expect(result.out).toMatch(/^ {2}skipped outside-link outside_root: .*outside the skill folder/m);
  });

  it('skills update <name> <folder> reports them too', async () => {
    const result = await cli(['skills', 'update', 'sym-skill', 'sym-skill', '-o', 'json']);
    expect(result.code, result.err).toBe(0);
    const json = JSON.parse(result.out) as { skipped: Array<{ path: string; reason: string }> };
    expect(json.skipped.map(({ path, reason }) => ({ path, reason }))).toEqual(expectedSkipped);
  });

  it('a bulk add lists them per input, in the table and in --json', async () => {
    const table = await cli(['add-skill', 'sym-skill', 'sym-other']);
    expect(table.code, table.err).toBe(0);
    expect(table.out).toMatch(/sym-other\s+sym-other\s+added\s+.*2 files not uploaded/);
    expect(table.out).toContain('sym-other: skipped outside-link outside_root: ');
    expect(table.out).toMatch(/; 4 files not uploaded\n$/);
    const json = await cli(['add-skill', 'sym-skill', 'sym-other', '-o', 'json']);
    const rows = JSON.parse(json.out) as Array<{
      input: string;
      skipped: Array<{ path: string; reason: string }>;
    }>;
    for (const row of rows) {
      expect(row.skipped.map(({ path, reason }) => ({ path, reason }))).toEqual(expectedSkipped);
    }
  });

  it('a folder without symlinks reports an empty list', async () => {
    mkdirSync(path.join(dir, 'plain'), { recursive: true });
    writeFileSync(
      path.join(dir, 'plain', 'SKILL.md'),
      '---\nname: plain\ndescription: No links at all\n---\n\nBody.\n',
    );
    const result = await cli(['add-skill', 'plain', '-o', 'json']);
    expect(result.code, result.err).toBe(0);
    expect((JSON.parse(result.out) as { skipped: unknown[] }).skipped).toEqual([]);
  });
});

describe('skills validate counts what it prints', () => {
  it('the link_not_followed lines are counted as warnings in the summary', async () => {
    const result = await cli(['skills', 'validate', 'sym-skill']);
    expect(result.code, result.err).toBe(0);
    const printed = result.out.split('\n').filter((line) => / warning /.test(line)).length;
    expect(result.out).toMatch(/outside-link warning link_not_followed/);
    expect(printed).toBeGreaterThan(0);
    expect(result.err).toBe(
      `1 file checked: 1 valid, 0 with errors, ${printed} warning${printed === 1 ? '' : 's'}\n`,
    );
    const json = JSON.parse((await cli(['skills', 'validate', 'sym-skill', '-o', 'json'])).out) as {
      skipped: unknown[];
      summary: { warnings: number };
    };
    expect(json.summary.warnings).toBe(printed);
    expect(json.skipped.length).toBeGreaterThan(0);
  });
});

describe('skills validate says which files add would not upload', () => {
  it('a link inside the folder, and a file of the ignore list, are not_uploaded warnings; each file once', async () => {
    const folder = path.join(dir, 'sym-validate');
    symSkill('sym-validate');
    writeFileSync(path.join(folder, '.env'), 'TOKEN=secret\n');
    const result = await cli(['skills', 'validate', 'sym-validate']);
    expect(result.code, result.err).toBe(0);
    const lines = result.out.split('\n').filter((line) => / warning /.test(line));
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^sym-validate\/inner-link\.txt warning not_uploaded symlink to notes\.txt; symlinks are not followed/,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^sym-validate\/\.env warning not_uploaded .*ignore list/),
    );
    // The link leading outside is reported once, as the link the search did not follow.
    expect(lines.filter((line) => line.includes('outside-link'))).toEqual([
      expect.stringContaining('warning link_not_followed'),
    ]);
    expect(result.err).toBe(`1 file checked: 1 valid, 0 with errors, ${lines.length} warnings\n`);
    // And the same files are the ones add-skill reports.
    const json = JSON.parse((await cli(['skills', 'validate', 'sym-validate', '-o', 'json'])).out) as {
      skipped: Array<{ path: string; reason: string }>;
      summary: { warnings: number };
    };
    const added = JSON.parse((await cli(['add-skill', 'sym-validate', '-o', 'json'])).out) as {
      skipped: Array<{ path: string; reason: string }>;
    };
    expect(json.skipped.map((s) => s.path).sort()).toEqual(
      added.skipped.map((s) => `sym-validate/${s.path}`).sort(),
    );
    expect(json.summary.warnings).toBe(lines.length);
  });
});
