/**
 * `skillport db export|import` through the built binary: a database written by a server moves to an
 * empty data folder and back, archive for archive; bad input and full targets are refused.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningCliServer, requireBuild, runBin, startCliServer } from '../support/processes.js';

let server: RunningCliServer;
let work: string;
const offline = { url: 'http://127.0.0.1:9', configHome: '' };

const skill = (name: string, body: string) =>
  `---\nname: ${name}\ndescription: Moves between databases with the db commands\n---\n\n# ${name}\n\n${body}\n`;

/** Archive lines after the header (which carries the time of export). */
const body = (gz: Buffer): string[] => gunzipSync(gz).toString('utf8').split('\n').slice(1);

beforeAll(async () => {
  requireBuild();
  work = mkdtempSync(path.join(os.tmpdir(), 'skillport-db-cli-'));
  offline.configHome = work;
  server = await startCliServer();
  for (const [name, text] of [
    ['db-one', 'First.'],
    ['db-two', 'Second.'],
    ['db-one', 'First, revised.'],
  ] as const) {
    const res = await runBin(server, ['add-skill', skill(name, text), '--wait', '-o', 'json']);
    expect(res.code, res.stderr).toBe(0);
  }
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('skillport db', () => {
  // The server keeps running: an export reads one consistent snapshot of a live SQLite database.
  it('exports, imports into an empty folder, and exports the same records again', async () => {
    const archive = path.join(work, 'first.skillport.gz');
    const exported = await runBin(offline, [
      'db',
      'export',
      archive,
      '--data-dir',
      server.dataDir,
      '-o',
      'json',
    ]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.json()).toMatchObject({
      file: archive,
      format: 'skillport-db-archive',
      version: 1,
      counts: { skill: 2, revision: 3, account: 1, user: 1 },
    });

    const copy = path.join(work, 'copy');
    const imported = await runBin(offline, ['db', 'import', archive, '--data-dir', copy]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout.toString()).toMatch(
      /^Imported 1 account, 1 user, .*2 skills, 3 revisions, 3 jobs/,
    );

    const again = await runBin(offline, ['db', 'export', '-', '--data-dir', copy]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^Exported /);
    expect(body(again.stdout)).toEqual(body(readFileSync(archive)));

    // From stdin into a third folder, as `ssh host skillport db export - | skillport db import -` does.
    const third = path.join(work, 'third');
    const piped = await runBin(
      offline,
      ['db', 'import', '-', '--database-url', `sqlite:${third}/skillport.db`],
      {
        input: again.stdout,
      },
    );
    expect(piped.code, piped.stderr).toBe(0);
  });

  it('refuses to import into a database that holds skills (exit 1, nothing written)', async () => {
    const archive = path.join(work, 'full.skillport.gz');
    expect((await runBin(offline, ['db', 'export', archive, '--data-dir', server.dataDir])).code).toBe(0);
    const res = await runBin(offline, ['db', 'import', archive, '--data-dir', server.dataDir]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      /import failed, nothing was written: The target database is not empty \(2 skills/,
    );
  });

  it('refuses to import into a data folder that cannot be created, at once (exit 1, naming the folder)', async () => {
    const archive = path.join(work, 'for-bad-folder.skillport.gz');
    expect((await runBin(offline, ['db', 'export', archive, '--data-dir', server.dataDir])).code).toBe(0);
    const blocker = path.join(work, 'a-file');
    writeFileSync(blocker, 'x');
    const targets = [
      path.join(blocker, 'data'),
      ...(process.platform === 'linux' ? ['/proc/skillport-nope'] : []),
    ];
    for (const target of targets) {
      const res = await runBin(offline, ['db', 'import', archive, '--data-dir', target]);
      expect(res.code, res.stderr).toBe(1);
      expect(res.stderr).toContain('cannot create the folder');
    }
  });

  it('refuses to export a data folder that holds no database', async () => {
    const res = await runBin(
      offline,
      ['db', 'export', 'x.gz', '--data-dir', path.join(work, 'nothing-here')],
      {
        cwd: work,
      },
    );
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/no Skillport database at .*nothing-here/);
  });

  it.each([
    { case: 'a missing file', file: 'missing.gz', content: null, error: /cannot read missing\.gz/ },
    { case: 'a file that is not an archive', file: 'notes.txt', content: 'hello', error: /gzip/ },
    // What `skills export` writes: a zip of skill folders, for `skills import` on a running server.
    {
      case: 'a zip of skill folders',
      file: 'skills.zip',
      content: 'PK\u0003\u0004 a zip',
      error:
        /skills\.zip is a zip, not an archive of `skillport db export`.*`skillport skills import skills\.zip`/,
    },
  ])('refuses $case', async ({ file, content, error }) => {
    if (content !== null) writeFileSync(path.join(work, file), content);
    const res = await runBin(offline, ['db', 'import', file, '--data-dir', path.join(work, `t-${file}`)], {
      cwd: work,
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(error);
    // "Nothing was written": the data folder the import would have created is not left behind,
    // with or without missing parents, nor a database file named by a sqlite: URL.
    expect(existsSync(path.join(work, `t-${file}`))).toBe(false);
    if (content === null) return;
    const nested = path.join(work, `new-${file}`, 'deeper', 'data');
    const again = await runBin(offline, ['db', 'import', file, '--data-dir', nested], { cwd: work });
    expect(again.code).toBe(1);
    expect(existsSync(path.join(work, `new-${file}`))).toBe(false);
    const url = await runBin(offline, ['db', 'import', file, '--database-url', `sqlite:by-url-${file}.db`], {
      cwd: work,
    });
    expect(url.code).toBe(1);
    expect(readdirSync(work).filter((name) => name.startsWith('by-url-'))).toEqual([]);
  });

  // A registry in its own schema (`SKILLPORT_DATABASE_SCHEMA`) is the one exported or imported, as the
  // server reads it: a schema name that cannot be one is refused before any connection is made
  // (nothing listens on port 9), where the setting used to be ignored for the `public` schema.
  it.each(['export', 'import'])('%s reads SKILLPORT_DATABASE_SCHEMA', async (command) => {
    const archive = path.join(work, `schema-${command}.skillport.gz`);
    if (command === 'import') {
      expect((await runBin(offline, ['db', 'export', archive, '--data-dir', server.dataDir])).code).toBe(0);
    }
    const res = await runBin(
      offline,
      ['db', command, archive, '--database-url', 'postgres://skillport@127.0.0.1:9/skillport'],
      { env: { SKILLPORT_DATABASE_SCHEMA: 'not a schema' } },
    );
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/cannot open the database: SKILLPORT_DATABASE_SCHEMA: "not a schema"/);
  });

  it('keeps a data folder that was there before a failed import', async () => {
    const existing = mkdtempSync(path.join(work, 'existing-'));
    writeFileSync(path.join(existing, 'notes.txt'), 'mine');
    writeFileSync(path.join(work, 'garbage.gz'), 'not an archive');
    const res = await runBin(offline, ['db', 'import', 'garbage.gz', '--data-dir', existing], { cwd: work });
    expect(res.code).toBe(1);
    expect(readFileSync(path.join(existing, 'notes.txt'), 'utf8')).toBe('mine');
  });
});
