/**
 * Executable files in the store of the engine under test: the flag is stored per file, returned by
 * every read (file list, view, revision manifest), part of the revision, and kept by a database
 * archive's export and import; and the migration that adds it (SQLite schema 14, PostgreSQL 12) leaves
 * an existing database's skills exactly as they were, none executable.
 */
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { exportDatabase } from '../../src/archive/export-database.js';
import { importDatabase } from '../../src/archive/import-database.js';
import { computeRevision, sha256Hex } from '../../src/store/revision.js';
import type { SkillWrite, Store } from '../../src/store/types.js';
import { postgresQuery, setSchemaVersion, TEST_ENGINE } from '../helpers/engine.js';
import { downgradeSchema, makeWrite, openTempStore, USER_ROOT } from './helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function temp() {
  const t = openTempStore();
  cleanups.push(t.cleanup);
  return t;
}

/** `run-kit` with `scripts/run.sh` executable and `notes.md` not. */
function withScript(): SkillWrite {
  const write = makeWrite(
    { name: 'run-kit' },
    { 'scripts/run.sh': '#!/bin/sh\necho ran\n', 'notes.md': 'n' },
  );
  for (const file of write.files) if (file.path === 'scripts/run.sh') file.executable = true;
  return write;
}

/** Everything the store answers about a skill: record, files, view, history. */
async function snapshot(store: Store, name: string) {
  const skill = await store.getSkill('acme', USER_ROOT, name);
  if (skill === null) throw new Error(`no ${name}`);
  const view = await store.readSkillView('acme', [USER_ROOT], name, {
    contents: ['SKILL.md'],
    listFiles: true,
    body: 'always',
  });
  return {
    skill,
    files: await store.listFiles(skill.id, { withContent: true }),
    view,
    revisions: await store.listRevisions('acme', USER_ROOT, name),
  };
}

describe(`${TEST_ENGINE} store: executable files`, () => {
  it('stores the flag, returns it from every read, and makes it part of the revision', async () => {
    const { store } = temp();
    const written = await store.putSkill(withScript());
    const plain = makeWrite(
      { name: 'run-kit' },
      { 'scripts/run.sh': '#!/bin/sh\necho ran\n', 'notes.md': 'n' },
    );
    const manifest = plain.files.map((f) => ({ path: f.path, sha256: sha256Hex(f.content) }));
    expect(written.skill.revision).toBe(
      computeRevision(manifest.map((f) => (f.path === 'scripts/run.sh' ? { ...f, executable: true } : f))),
    );
    expect(written.skill.revision).not.toBe(computeRevision(manifest));

    const { files, view, revisions } = await snapshot(store, 'run-kit');
    const executable = (list: ReadonlyArray<{ path: string; executable?: true }>) =>
      list.filter((f) => f.executable === true).map((f) => f.path);
    expect(executable(files)).toEqual(['scripts/run.sh']);
    expect(executable(view?.files ?? [])).toEqual(['scripts/run.sh']);
    expect(executable(revisions[0]?.manifest ?? [])).toEqual(['scripts/run.sh']);
    const single = await store.readFile(written.skill.id, 'scripts/run.sh');
    expect(single?.executable).toBe(true);
    expect((await store.readFile(written.skill.id, 'notes.md'))?.executable).toBeUndefined();

    // The same files, none executable: a new revision, the old one kept in history with its flag.
    const second = await store.putSkill(plain);
    expect(second.skill.revision).toBe(computeRevision(manifest));
    const after = await snapshot(store, 'run-kit');
    expect(executable(after.files)).toEqual([]);
    expect(after.revisions.map((r) => executable(r.manifest))).toEqual([[], ['scripts/run.sh']]);
  });

  it('a database archive keeps executable files through export and import', async () => {
    const source = temp();
    await source.store.putSkill(withScript());
    await source.store.putSkill(makeWrite({ name: 'plain' }, { 'a.txt': 'a' }));
    const work = mkdtempSync(path.join(os.tmpdir(), 'skillport-modes-archive-'));
    cleanups.push(async () => rmSync(work, { recursive: true, force: true }));
    const archive = path.join(work, 'db.ndjson.gz');
    await exportDatabase(source.store, createWriteStream(archive));
    const target = temp();
    await importDatabase(target.store, createReadStream(archive));
    for (const name of ['run-kit', 'plain']) {
      const before = await snapshot(source.store, name);
      const after = await snapshot(target.store, name);
      expect(after.skill.revision).toBe(before.skill.revision);
      expect(after.files).toEqual(before.files);
      expect(after.view?.files).toEqual(before.view?.files);
      expect(after.revisions.map((r) => r.manifest)).toEqual(before.revisions.map((r) => r.manifest));
    }
  });

  it('the migration keeps an existing database as it was: same skills, revisions and files, none executable', async () => {
    const t = temp();
    await t.store.putSkill(
      makeWrite({ name: 'alpha' }, { 'scripts/run.sh': '#!/bin/sh\n', 'docs/a.md': 'a' }),
    );
    await t.store.putSkill(makeWrite({ name: 'alpha', body: 'second version\n' }, { 'scripts/run.sh': 'x' }));
    await t.store.putSkill(makeWrite({ name: 'beta' }));
    const before = { alpha: await snapshot(t.store, 'alpha'), beta: await snapshot(t.store, 'beta') };
    await t.store.close();

    // Back to the schema before executable files were recorded.
    if (TEST_ENGINE === 'sqlite') {
      const db = new Database(path.join(t.dataDir, 'skillport.db'));
      try {
        // Schema 14 added the column (13 is never used).
        downgradeSchema(db, 12);
        const columns = db.prepare('PRAGMA table_info(skill_files)').all() as Array<{ name: string }>;
        expect(columns.map((c) => c.name)).not.toContain('executable');
      } finally {
        db.close();
      }
    } else {
      await postgresQuery(t.dataDir, 'ALTER TABLE skill_files DROP COLUMN executable');
      // Migration 12 added the column; the steps after it are safe to run again.
      await setSchemaVersion(t.dataDir, 11);
    }

    const reopened = t.reopen();
    await reopened.migrate();
    const after = { alpha: await snapshot(reopened, 'alpha'), beta: await snapshot(reopened, 'beta') };
    expect(after).toEqual(before);
    for (const skill of Object.values(after)) {
      expect(skill.files.some((f) => 'executable' in f)).toBe(false);
    }
    // And the migrated database records executable files from then on.
    const written = await reopened.putSkill(withScript());
    expect((await reopened.readFile(written.skill.id, 'scripts/run.sh'))?.executable).toBe(true);
  });
});
