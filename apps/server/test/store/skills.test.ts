import { isSkillportError } from '@skillport/core';
import { afterEach, describe, expect, it } from 'vitest';
import { computeRevision, sha256Hex } from '../../src/store/revision.js';
import type { Store } from '../../src/store/types.js';
import { TEST_ENGINE } from '../helpers/engine.js';
import { AGENT_ROOT, makeWrite, openTempStore, text, USER_ROOT } from './helpers.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

function setup(): { store: Store; reopen: () => Store } {
  const temp = openTempStore();
  cleanup = temp.cleanup;
  return { store: temp.store, reopen: temp.reopen };
}

async function catchError(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe(`${TEST_ENGINE} store: skills`, () => {
  it('puts a skill with its files and reads it back byte for byte', async () => {
    const { store } = setup();
    const binary = new Uint8Array([0, 255, 1, 254, 0]);
    const result = await store.putSkill(
      makeWrite(
        { name: 'search-web', tags: ['web', 'search'], allowedTools: ['Read'] },
        {
          '.abstract.md': 'abstract',
          'scripts/run.sh': '#!/bin/sh\necho hi\n',
          'assets/blob.bin': binary,
        },
      ),
    );
    expect(result.created).toBe(true);
    expect(result.taskId).toMatch(/^[0-9a-f-]{36}$/);
    const skill = await store.getSkill('acme', USER_ROOT, 'search-web');
    expect(skill).toMatchObject({
      name: 'search-web',
      tags: ['web', 'search'],
      allowedTools: ['Read'],
      overview: null,
    });
    expect(skill?.id).toBe(result.skill.id);

    const files = await store.listFiles(result.skill.id, { withContent: true });
    expect(files.map((f) => [f.path, f.kind])).toEqual([
      ['.abstract.md', 'summary'],
      ['SKILL.md', 'definition'],
      ['assets/blob.bin', 'auxiliary'],
      ['scripts/run.sh', 'auxiliary'],
    ]);
    const bin = files.find((f) => f.path === 'assets/blob.bin');
    expect(Array.from(bin?.content ?? [])).toEqual(Array.from(binary));
    expect(bin).toMatchObject({ size: 5, sha256: sha256Hex(binary) });
    expect(result.skill.revision).toBe(computeRevision(files));
    const withoutContent = await store.listFiles(result.skill.id, { withContent: false });
    expect(withoutContent.every((f) => f.content === undefined)).toBe(true);
    const md = await store.readFile(result.skill.id, 'SKILL.md');
    expect(text(md?.content)).toContain('name: search-web');
    expect(await store.readFile(result.skill.id, 'missing.md')).toBeNull();
  });

  it('replaces a skill completely: no stale files, same id, history kept', async () => {
    const { store } = setup();
    const first = await store.putSkill(makeWrite({ name: 'tool' }, { 'a.txt': 'a', 'b.txt': 'b' }));
    const second = await store.putSkill(
      makeWrite(
        { name: 'tool', description: 'second version', task: { type: 'update_skill', userId: 'alice' } },
        {
          'c.txt': 'c',
        },
      ),
    );
    expect(second.created).toBe(false);
    expect(second.skill.id).toBe(first.skill.id);
    expect(second.skill.revision).not.toBe(first.skill.revision);
    expect(second.skill.description).toBe('second version');
    const paths = (await store.listFiles(second.skill.id, { withContent: false })).map((f) => f.path);
    expect(paths).toEqual(['SKILL.md', 'c.txt']);

    const history = await store.listRevisions('acme', USER_ROOT, 'tool');
    expect(history.map((h) => h.revision)).toEqual([second.skill.revision, first.skill.revision]);
    expect(history[0]?.supersededAt).toBeNull();
    expect(history[1]?.supersededAt).toEqual(expect.any(Number));
    expect(history[1]?.manifest.map((f) => f.path)).toEqual(['SKILL.md', 'a.txt', 'b.txt']);
    expect(computeRevision(history[1]?.manifest ?? [])).toBe(first.skill.revision);
  });

  it('writing the files a skill already has adds no history entry (the live one stays)', async () => {
    const { store } = setup();
    const first = await store.putSkill(makeWrite({ name: 'same' }, { 'a.txt': 'a' }));
    const again = await store.putSkill(
      makeWrite({ name: 'same', task: { type: 'update_skill', userId: 'alice' } }, { 'a.txt': 'a' }),
    );
    expect(again.created).toBe(false);
    expect(again.skill.revision).toBe(first.skill.revision);
    expect(again.revisions).toBe(1);
    const history = await store.listRevisions('acme', USER_ROOT, 'same');
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ revision: first.skill.revision, supersededAt: null });
    const changed = await store.putSkill(makeWrite({ name: 'same' }, { 'a.txt': 'b' }));
    expect(changed.revisions).toBe(2);
    expect((await store.listRevisions('acme', USER_ROOT, 'same')).map((h) => h.revision)).toEqual([
      changed.skill.revision,
      first.skill.revision,
    ]);
  });

  it('computes the same revision for the same files in any order', async () => {
    const { store } = setup();
    const a = await store.putSkill(makeWrite({ name: 'one' }, { 'x.txt': 'x', 'y.txt': 'y' }));
    const b = await store.putSkill(
      makeWrite({ name: 'one', rootUri: AGENT_ROOT }, { 'y.txt': 'y', 'x.txt': 'x' }),
    );
    expect(a.skill.revision).toBe(b.skill.revision);
  });

  it.each([
    { case: 'stale revision', put: true, ifMatch: 'deadbeef', expectedActual: 'current' },
    { case: 'missing skill', put: false, ifMatch: 'deadbeef', expectedActual: null },
  ])(
    'refuses If-Match on a $case with CONFLICT 412 and leaves data unchanged',
    async ({ put, ifMatch, expectedActual }) => {
      const { store } = setup();
      const existing = put ? await store.putSkill(makeWrite({ name: 'guarded' }, { 'keep.txt': 'k' })) : null;
      const error = await catchError(store.putSkill(makeWrite({ name: 'guarded', ifMatch: [ifMatch] })));
      expect(isSkillportError(error)).toBe(true);
      expect(error).toMatchObject({
        code: 'CONFLICT',
        status: 412,
        details: {
          expected: ifMatch,
          actual: expectedActual === 'current' ? existing?.skill.revision : null,
        },
      });
      const after = await store.getSkill('acme', USER_ROOT, 'guarded');
      expect(after?.revision ?? null).toBe(existing?.skill.revision ?? null);
      if (existing) {
        const paths = (await store.listFiles(existing.skill.id, { withContent: false })).map((f) => f.path);
        expect(paths).toEqual(['SKILL.md', 'keep.txt']);
      }
    },
  );

  it('accepts a matching If-Match', async () => {
    const { store } = setup();
    const first = await store.putSkill(makeWrite({ name: 'guarded' }));
    const second = await store.putSkill(
      makeWrite({ name: 'guarded', description: 'v2', ifMatch: ['deadbeef', first.skill.revision] }),
    );
    expect(second.skill.description).toBe('v2');
  });

  it('deleteSkill honours If-Match: a stale list is CONFLICT 412 and deletes nothing; a matching one deletes', async () => {
    const { store } = setup();
    const put = await store.putSkill(makeWrite({ name: 'guarded' }, { 'keep.txt': 'k' }));
    const error = await catchError(
      store.deleteSkill('acme', USER_ROOT, 'guarded', { ifMatch: ['deadbeef'] }),
    );
    expect(error).toMatchObject({
      code: 'CONFLICT',
      status: 412,
      details: { expected: 'deadbeef', actual: put.skill.revision },
    });
    expect((await store.getSkill('acme', USER_ROOT, 'guarded'))?.revision).toBe(put.skill.revision);
    expect(await store.deleteSkill('acme', USER_ROOT, 'guarded', { ifMatch: [put.skill.revision] })).toBe(2);
    expect(await store.getSkill('acme', USER_ROOT, 'guarded')).toBeNull();
  });

  it('mustExist on a missing skill is NOT_FOUND with the resource uri', async () => {
    const { store } = setup();
    const error = await catchError(store.putSkill(makeWrite({ name: 'ghost', mustExist: true })));
    expect(error).toMatchObject({
      code: 'NOT_FOUND',
      details: { type: 'skill', resource: `${USER_ROOT}/ghost` },
    });
    expect(await store.getSkill('acme', USER_ROOT, 'ghost')).toBeNull();
  });

  it.each([
    { case: 'reserved .overview.md', files: { '.overview.md': 'x' }, path: '.overview.md' },
    { case: 'absolute path', files: { '/etc/passwd': 'x' }, path: '/etc/passwd' },
  ])('refuses a write with $case (INVALID_ARGUMENT) and stores nothing', async ({ files, path }) => {
    const { store } = setup();
    const error = await catchError(store.putSkill(makeWrite({ name: 'bad' }, files)));
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'files', path } });
    expect(await store.getSkill('acme', USER_ROOT, 'bad')).toBeNull();
    expect(await store.queueCounts('acme', 'alice')).toEqual({
      pending: 0,
      processing: 0,
      completed: 0,
      failed: 0,
    });
  });

  it('refuses a write without SKILL.md or with duplicate paths', async () => {
    const { store } = setup();
    const noDefinition = makeWrite({ name: 'bad' });
    noDefinition.files = noDefinition.files.filter((f) => f.path !== 'SKILL.md');
    expect(await catchError(store.putSkill(noDefinition))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    const duplicate = makeWrite({ name: 'bad' }, { 'a.txt': 'a' });
    duplicate.files.push({ path: 'a.txt', kind: 'auxiliary', content: new Uint8Array([1]) });
    expect(await catchError(store.putSkill(duplicate))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { path: 'a.txt' },
    });
  });

  it('isolates skills by account and by root', async () => {
    const { store } = setup();
    await store.putSkill(makeWrite({ name: 'shared', description: 'acme user' }));
    await store.putSkill(makeWrite({ name: 'shared', description: 'acme agent', rootUri: AGENT_ROOT }));
    await store.putSkill(makeWrite({ name: 'shared', description: 'other user', accountId: 'other' }));
    const cases: Array<[string, string, string | null]> = [
      ['acme', USER_ROOT, 'acme user'],
      ['acme', AGENT_ROOT, 'acme agent'],
      ['other', USER_ROOT, 'other user'],
      ['other', AGENT_ROOT, null],
      ['acme', 'viking://user/bob/skills', null],
    ];
    for (const [account, root, description] of cases) {
      expect((await store.getSkill(account, root, 'shared'))?.description ?? null).toBe(description);
    }
    expect((await store.listSkills('acme', USER_ROOT, { limit: 10 })).total).toBe(1);
    expect((await store.listSkills('other', AGENT_ROOT, { limit: 10 })).total).toBe(0);
  });

  it('lists by name, honours the limit and reports the total', async () => {
    const { store } = setup();
    for (const name of ['charlie', 'alpha', 'bravo', 'delta']) await store.putSkill(makeWrite({ name }));
    const page = await store.listSkills('acme', USER_ROOT, { limit: 2 });
    expect(page.total).toBe(4);
    expect(page.skills.map((s) => s.name)).toEqual(['alpha', 'bravo']);
    expect((await store.listSkills('acme', AGENT_ROOT, { limit: 10 })).skills).toEqual([]);
    const light = await store.listSkills('acme', USER_ROOT, { limit: 2, withBody: false });
    expect(light.skills.map((s) => [s.name, s.body, s.description])).toEqual([
      ['alpha', '', 'Description of alpha'],
      ['bravo', '', 'Description of bravo'],
    ]);
    expect(page.skills[0]?.body).toContain('# alpha');
  });

  it('deletes a skill and its files, keeps history, and answers null for an absent skill', async () => {
    const { store } = setup();
    const put = await store.putSkill(makeWrite({ name: 'gone' }, { '.abstract.md': 'a', 'x.txt': 'x' }));
    expect(await store.deleteSkill('acme', USER_ROOT, 'gone')).toBe(3);
    expect(await store.getSkill('acme', USER_ROOT, 'gone')).toBeNull();
    expect(await store.getSkillById(put.skill.id)).toBeNull();
    expect(await store.listFiles(put.skill.id, { withContent: false })).toEqual([]);
    expect(await store.search('acme', [USER_ROOT], 'gone', { limit: 5 })).toEqual([]);
    const history = await store.listRevisions('acme', USER_ROOT, 'gone');
    expect(history).toHaveLength(1);
    expect(history[0]?.supersededAt).toEqual(expect.any(Number));
    expect(await store.deleteSkill('acme', USER_ROOT, 'gone')).toBeNull();
    const again = await store.putSkill(makeWrite({ name: 'gone' }));
    expect(again.created).toBe(true);
  });

  it('stores files of several MiB byte for byte, once per content', async () => {
    const { store } = setup();
    const big = new Uint8Array(3 * 1024 * 1024 + 7);
    for (let i = 0; i < big.length; i++) big[i] = (i * 131 + (i >> 9)) & 255;
    const a = await store.putSkill(makeWrite({ name: 'big-a' }, { 'data/big.bin': big }));
    await store.putSkill(makeWrite({ name: 'big-b' }, { 'copy/big.bin': big }));
    const file = await store.readFile(a.skill.id, 'data/big.bin');
    expect(file?.size).toBe(big.length);
    expect(file?.sha256).toBe(sha256Hex(big));
    expect(Buffer.compare(Buffer.from(file?.content ?? []), Buffer.from(big))).toBe(0);
    expect((await store.readBlobs([sha256Hex(big)])).get(sha256Hex(big))?.byteLength).toBe(big.length);
  });

  it('persists across reopen of the same data dir (migrations idempotent)', async () => {
    const { store, reopen } = setup();
    const put = await store.putSkill(makeWrite({ name: 'durable' }, { 'x.txt': 'x' }));
    await store.close();
    const second = reopen();
    await second.migrate();
    expect((await second.getSkill('acme', USER_ROOT, 'durable'))?.revision).toBe(put.skill.revision);
    expect(second.description).toMatch(
      TEST_ENGINE === 'sqlite' ? /^sqlite:.*skillport\.db$/ : /^postgres:postgres:\/\/.* \(schema t_\w+\)$/,
    );
  });
});
