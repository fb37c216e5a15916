/**
 * `exportDatabase` / `importDatabase`: a whole registry (the corpus loaded through the HTTP API on
 * SQLite, with history, deletes, keys, finished jobs and a temp upload) moved into an empty store of
 * the engine under test (PostgreSQL in the `postgres` test project) and from there into a new SQLite
 * store, record for record; and refusals of archives that are cut off, corrupted, newer, or aimed at a
 * full store.
 */
import {
  createReadStream,
  createWriteStream,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataRecord } from '../../src/archive/archive-format.js';
import { exportDatabase } from '../../src/archive/export-database.js';
import { importDatabase } from '../../src/archive/import-database.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import type { Store } from '../../src/store/types.js';
import { findCorpus, type LoadedCorpus, loadCorpus } from '../helpers/corpus-load.js';
import { dropEngineData, openEngineStore, TEST_ENGINE } from '../helpers/engine.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const corpus = findCorpus();
if (corpus === null) console.log('db archive corpus tests skipped: corpus not found (set SKILLPORT_CORPUS)');

let work: string;
let source: TestServer;
let loaded: LoadedCorpus;
let archive: string;
let apiKey: string;
const ROOT_KEY = 'archive-test-root-key-0123456789';

async function all(store: Store): Promise<DataRecord[]> {
  const out: DataRecord[] = [];
  for await (const record of store.exportRecords()) out.push(record);
  return out;
}

/** A SQLite store in the folder `name` of the work folder. */
function openStore(name: string): Store {
  return createSqliteStore({ dataDir: path.join(work, name) });
}

/** A store of the engine under test for the folder `name` (a schema of its own on PostgreSQL). */
function openTarget(name: string): Store {
  targets.add(name);
  return openEngineStore(path.join(work, name));
}
const targets = new Set<string>();

/** The archive's lines after the header (the header carries the time and the source engine). */
function archiveBody(file: string): string[] {
  return gunzipSync(readFileSync(file)).toString('utf8').split('\n').slice(1);
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'skillport-archive-'));
  if (corpus === null) return;
  source = await startTestServer({
    dataDir: path.join(work, 'source'),
    databaseUrl: `sqlite:${path.join(work, 'source', 'skillport.db')}`,
    rootApiKey: ROOT_KEY,
  });
  for (const account of ['default', 'other']) {
    const created = await source.request('POST', '/api/v1/admin/accounts', {
      body: { account_id: account },
      apiKey: ROOT_KEY,
    });
    expect(created.status, created.text).toBe(200);
    const user = await source.request('POST', `/api/v1/admin/accounts/${account}/users`, {
      body: { user_id: 'default' },
      apiKey: ROOT_KEY,
    });
    expect(user.status, user.text).toBe(200);
  }
  const key = await source.request('POST', '/api/v1/admin/accounts/default/keys', {
    body: { user_id: 'default', role: 'admin' },
    apiKey: ROOT_KEY,
  });
  expect(key.status, key.text).toBe(200);
  apiKey = key.json.result.api_key;
  loaded = await loadCorpus(source.url, corpus, { apiKey });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array([1, 2, 3, 0, 255])]), 'pending.zip');
  expect((await source.request('POST', '/api/v1/resources/temp_upload', { body: form, apiKey })).status).toBe(
    200,
  );
  await source.close();
  archive = path.join(work, 'source.skillport.gz');
  const store = openStore('source');
  try {
    await exportDatabase(store, createWriteStream(archive));
  } finally {
    await store.close();
  }
}, 600_000);

afterAll(async () => {
  for (const name of targets) await dropEngineData(path.join(work, name));
  rmSync(work, { recursive: true, force: true });
});

describe.skipIf(corpus === null)(`db export | import (SQLite → ${TEST_ENGINE} → SQLite)`, () => {
  it('exports every record once, in archive order, with an end record that counts them', () => {
    const lines = gunzipSync(readFileSync(archive)).toString('utf8').trimEnd().split('\n');
    const header = JSON.parse(lines[0] ?? '{}');
    expect(header).toMatchObject({
      type: 'header',
      format: 'skillport-db-archive',
      version: 1,
      source_engine: 'sqlite',
    });
    const end = JSON.parse(lines[lines.length - 1] ?? '{}');
    expect(end.type).toBe('end');
    expect(end.counts.skill).toBe(loaded.added.length - loaded.deleted.length);
    expect(end.counts.revision).toBe(loaded.writes);
    expect(end.counts.api_key).toBe(1);
    // The pending upload, and each corpus folder whose add was refused (kept for a retry).
    expect(loaded.keptUploads).toBeGreaterThan(0);
    expect(end.counts.temp_upload).toBe(1 + loaded.keptUploads);
    expect(end.counts.account).toBeGreaterThanOrEqual(2);
    expect(end.counts.blob).toBeGreaterThan(end.counts.skill);
  });

  it('imports into an empty store with every id, revision, file and history entry identical, and back', async () => {
    const original = openStore('source');
    const target = openTarget('target');
    try {
      const { counts, header } = await importDatabase(target, createReadStream(archive));
      expect(header.source_engine).toBe('sqlite');
      expect(counts.skill).toBe(loaded.added.length - loaded.deleted.length);
      expect(await all(target)).toEqual(await all(original));

      // Per skill, as a reader sees it: every file's bytes and the history.
      const { skills } = await original.listSkills('default', 'viking://agent/skills', { limit: 10_000 });
      expect(skills.length).toBe(counts.skill);
      for (const skill of skills) {
        const copy = await target.getSkill('default', 'viking://agent/skills', skill.name);
        expect(copy).toEqual(skill);
        const files = await original.listFiles(skill.id, { withContent: true });
        const copied = await target.listFiles(skill.id, { withContent: true });
        expect(
          copied.map((f) => [f.path, f.sha256, Buffer.from(f.content ?? []).toString('base64')]),
        ).toEqual(files.map((f) => [f.path, f.sha256, Buffer.from(f.content ?? []).toString('base64')]));
        expect(await target.listRevisions('default', 'viking://agent/skills', skill.name)).toEqual(
          await original.listRevisions('default', 'viking://agent/skills', skill.name),
        );
      }
      for (const name of loaded.deleted) {
        expect(await target.getSkill('default', 'viking://agent/skills', name)).toBeNull();
        expect(await target.listRevisions('default', 'viking://agent/skills', name)).toHaveLength(1);
      }
      // The search index was built on import.
      const first = skills[0];
      if (first) {
        const hits = await target.search('default', ['viking://agent/skills'], first.name, { limit: 5 });
        expect(hits.map((h) => h.skill.name)).toContain(first.name);
      }
    } finally {
      await original.close();
      await target.close();
    }

    // Back again: the second copy exports the same records as the original.
    const second = path.join(work, 'target.skillport.gz');
    const copy = openTarget('target');
    await exportDatabase(copy, createWriteStream(second));
    await copy.close();
    const back = openStore('back');
    await importDatabase(back, createReadStream(second));
    await back.close();
    const third = path.join(work, 'back.skillport.gz');
    const again = openStore('back');
    await exportDatabase(again, createWriteStream(third));
    await again.close();
    expect(archiveBody(second)).toEqual(archiveBody(archive));
    expect(archiveBody(third)).toEqual(archiveBody(archive));
  });

  it('serves the imported database: keys work, skills read back byte for byte', async () => {
    const server = await startTestServer({
      dataDir: path.join(work, 'back'),
      databaseUrl: `sqlite:${path.join(work, 'back', 'skillport.db')}`,
    });
    try {
      expect((await server.request('GET', '/api/v1/skills')).status).toBe(401);
      const name = loaded.added[loaded.updated.length + loaded.deleted.length] ?? '';
      const res = await server.request('GET', `/api/v1/skills/${name}?include_content=true`, { apiKey });
      expect(res.status, res.text).toBe(200);
      expect(res.json.result.name).toBe(name);
    } finally {
      await server.close();
    }
  });
});

describe('db import refuses bad archives and full stores, writing nothing', () => {
  async function refused(name: string, bytes: Uint8Array, pattern: RegExp): Promise<void> {
    const file = path.join(work, `${name}.gz`);
    writeFileSync(file, bytes);
    const store = openTarget(name);
    try {
      await expect(importDatabase(store, createReadStream(file))).rejects.toThrow(pattern);
      expect(await all(store)).toEqual([]);
    } finally {
      await store.close();
    }
  }
  const header = JSON.stringify({
    type: 'header',
    format: 'skillport-db-archive',
    version: 1,
    created_at: '2025-01-01T00:00:00.000Z',
    server_version: '0.1.0',
    source_engine: 'sqlite',
  });
  const account = JSON.stringify({ type: 'account', id: 'acme', created_at: 1 });
  const counts = { account: 1, user: 0, api_key: 0, blob: 0, skill: 0, revision: 0, task: 0, temp_upload: 0 };
  const end = JSON.stringify({ type: 'end', counts });
  const gz = (...lines: string[]) => gzipSync(`${lines.join('\n')}\n`);

  it.each([
    { case: 'not gzip', bytes: () => Buffer.from('plain text'), error: /gzip/ },
    { case: 'cut off (no end record)', bytes: () => gz(header, account), error: /without its `end` record/ },
    {
      case: 'counts differ',
      bytes: () => gz(header, account, JSON.stringify({ type: 'end', counts: { ...counts, account: 2 } })),
      error: /announces 2 account records, it holds 1/,
    },
    {
      case: 'newer version',
      bytes: () => gz(header.replace('"version":1', '"version":2'), end),
      error: /archive version 2 is not supported/,
    },
    {
      case: 'corrupted blob',
      bytes: () =>
        gz(
          header,
          JSON.stringify({
            type: 'blob',
            sha256: 'a'.repeat(64),
            size: 3,
            content: Buffer.from('abc').toString('base64'),
          }),
          JSON.stringify({ type: 'end', counts: { ...counts, account: 0, blob: 1 } }),
        ),
      error: /line 2: blob content does not hash/,
    },
    {
      case: 'records out of order',
      bytes: () =>
        gz(
          header,
          account,
          JSON.stringify({ type: 'user', account_id: 'acme', id: 'u', created_at: 1 }),
          account,
          end,
        ),
      error: /line 4: a account record after user records/,
    },
    {
      case: 'not an archive',
      bytes: () => gz('{"hello":"world"}'),
      error: /line 1: expected a skillport-db-archive header/,
    },
  ])('$case', async ({ case: name, bytes, error }) => {
    await refused(name.replace(/\W+/g, '-'), bytes(), error);
  });

  it.skipIf(corpus === null)('a store that already holds skills → CONFLICT, nothing changed', async () => {
    const full = openTarget('full-target');
    try {
      await importDatabase(full, createReadStream(archive));
      const before = await all(full);
      await expect(importDatabase(full, createReadStream(archive))).rejects.toMatchObject({
        code: 'CONFLICT',
        message: expect.stringMatching(/not empty/),
      });
      expect(await all(full)).toEqual(before);
    } finally {
      await full.close();
    }
  });
});
