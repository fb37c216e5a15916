import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { skillResultOf, viewOptionsFor } from '../../src/store/skill-json.js';
import { openConnection } from '../../src/store/sqlite/connection.js';
import { readSkillJsonWithin } from '../../src/store/sqlite/skill-view.js';
import { createThreadedSqliteStore, HTTP_THREAD_READ_BOUND } from '../../src/store/sqlite/sqlite-thread.js';
import type { SkillJsonRequest, SkillViewOptions, Store } from '../../src/store/types.js';
import { TEST_ENGINE } from '../helpers/engine.js';
import { AGENT_ROOT, makeWrite, openTempStore, TEST_CLAIM, text, USER_ROOT } from './helpers.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** A store holding `shared` in both roots (different bodies), `agent-only` in the agent root only. */
async function setup(): Promise<Store> {
  const temp = openTempStore();
  cleanup = temp.cleanup;
  const store = temp.store;
  await store.putSkill(
    makeWrite({ name: 'shared', body: 'user body\n' }, { '.abstract.md': 'user abstract', 'a/b/c.txt': 'c' }),
  );
  await store.putSkill(makeWrite({ name: 'shared', rootUri: AGENT_ROOT, body: 'agent body\n' }));
  await store.putSkill(
    makeWrite({ name: 'agent-only', rootUri: AGENT_ROOT, body: 'agent only\n' }, { '.abstract.md': 'ao' }),
  );
  await store.putSkill(makeWrite({ name: 'other-account', accountId: 'other' }));
  return store;
}

const NONE: SkillViewOptions = { contents: [], listFiles: false, body: 'never' };

describe(`${TEST_ENGINE} store: readSkillView`, () => {
  it.each([
    ['user root first', [USER_ROOT, AGENT_ROOT], 'shared', USER_ROOT],
    ['agent root first', [AGENT_ROOT, USER_ROOT], 'shared', AGENT_ROOT],
    ['falls back to the next root', [USER_ROOT, AGENT_ROOT], 'agent-only', AGENT_ROOT],
    ['one root only', [AGENT_ROOT], 'shared', AGENT_ROOT],
    ['not in the given root', [USER_ROOT], 'agent-only', null],
    ['no roots', [], 'shared', null],
    ['other account is invisible', [USER_ROOT, AGENT_ROOT], 'other-account', null],
    ['exact name only', [USER_ROOT, AGENT_ROOT], 'Shared', null],
  ] as const)('%s', async (_label, roots, name, expectedRoot) => {
    const store = await setup();
    const view = await store.readSkillView('acme', roots, name, NONE);
    expect(view?.skill.rootUri ?? null).toBe(expectedRoot);
    if (view) expect(view.skill.name).toBe(name);
  });

  it('returns the requested contents byte for byte, with sha-256, and skips missing files', async () => {
    const store = await setup();
    const view = await store.readSkillView('acme', [USER_ROOT], 'shared', {
      contents: ['.abstract.md', 'SKILL.md', 'missing.md', 'SKILL.md'],
      listFiles: false,
      body: 'never',
    });
    const files = await store.listFiles(view?.skill.id ?? '', { withContent: true });
    const stored = new Map(files.map((f) => [f.path, f]));
    expect([...(view?.contents.keys() ?? [])].sort()).toEqual(['.abstract.md', 'SKILL.md']);
    for (const path of ['.abstract.md', 'SKILL.md']) {
      const got = view?.contents.get(path);
      expect(got?.sha256).toBe(stored.get(path)?.sha256);
      expect(got?.size).toBe(stored.get(path)?.size);
      expect(got?.kind).toBe(stored.get(path)?.kind);
      expect(text(got?.content)).toBe(text(stored.get(path)?.content));
    }
    expect(view?.files).toBeNull();
  });

  it('lists the files as listFiles does (by path, no contents)', async () => {
    const store = await setup();
    const view = await store.readSkillView('acme', [USER_ROOT], 'shared', { ...NONE, listFiles: true });
    const expected = await store.listFiles(view?.skill.id ?? '', { withContent: false });
    expect(view?.files).toEqual(expected);
    expect(view?.files?.map((f) => f.path)).toEqual(['.abstract.md', 'SKILL.md', 'a/b/c.txt']);
  });

  it.each([
    ['always', null, 'user body\n'],
    ['never', null, ''],
    ['without-overview', null, 'user body\n'],
    ['without-overview', 'the overview', ''],
    ['always', 'the overview', 'user body\n'],
  ] as const)('body %s with overview %s', async (body, overview, expected) => {
    const store = await setup();
    if (overview !== null) {
      const task = await store.claimTask(Date.now() + 1000, TEST_CLAIM);
      if (task === null) throw new Error('no task');
      await store.completeTask(task.lease, { overview, result: {} });
    }
    // The first claimed task is the first skill written: `shared` in the user root.
    const view = await store.readSkillView('acme', [USER_ROOT], 'shared', { ...NONE, body });
    expect(view?.skill.overview).toBe(overview);
    expect(view?.skill.body).toBe(expected);
  });

  it('matches getSkill for the metadata', async () => {
    const store = await setup();
    const view = await store.readSkillView('acme', [AGENT_ROOT], 'shared', { ...NONE, body: 'always' });
    expect(view?.skill).toEqual(await store.getSkill('acme', AGENT_ROOT, 'shared'));
  });
});

describe(`${TEST_ENGINE} store: readSkillRevision`, () => {
  it.each([
    ['user root first', [USER_ROOT, AGENT_ROOT], 'shared', USER_ROOT],
    ['agent root first', [AGENT_ROOT, USER_ROOT], 'shared', AGENT_ROOT],
    ['falls back to the next root', [USER_ROOT, AGENT_ROOT], 'agent-only', AGENT_ROOT],
    ['not in the given root', [USER_ROOT], 'agent-only', null],
    ['no roots', [], 'shared', null],
    ['other account is invisible', [USER_ROOT, AGENT_ROOT], 'other-account', null],
    ['exact name only', [USER_ROOT, AGENT_ROOT], 'Shared', null],
  ] as const)('%s: the revision readSkillView reads', async (_label, roots, name, expectedRoot) => {
    const store = await setup();
    const state = await store.readSkillRevision('acme', roots, name);
    const view = await store.readSkillView('acme', roots, name, NONE);
    expect(view?.skill.rootUri ?? null).toBe(expectedRoot);
    expect(state).toEqual(
      view === null ? null : { revision: view.skill.revision, settled: false, stamp: null },
    );
  });

  it('is settled once the overview is written, and follows a replaced revision', async () => {
    const store = await setup();
    const before = await store.readSkillRevision('acme', [USER_ROOT], 'shared');
    const task = await store.claimTask(Date.now() + 1000, TEST_CLAIM);
    if (task === null) throw new Error('no task');
    await store.completeTask(task.lease, { overview: 'the overview', result: {} });
    expect(await store.readSkillRevision('acme', [USER_ROOT], 'shared')).toEqual({
      revision: before?.revision,
      settled: true,
      stamp: expect.stringContaining(before?.revision ?? '-'),
    });
    await store.putSkill(makeWrite({ name: 'shared', body: 'new user body\n' }));
    const after = await store.readSkillRevision('acme', [USER_ROOT], 'shared');
    expect(after?.revision).not.toBe(before?.revision);
    expect(after).toEqual({
      revision: (await store.getSkill('acme', USER_ROOT, 'shared'))?.revision,
      settled: false,
      stamp: null,
    });
  });
});

describe(`${TEST_ENGINE} store: skill stamps`, () => {
  /** The stamp of `name` as readSkillRevision reads it (over both roots). */
  async function stampOf(store: Store, name: string): Promise<string | null | undefined> {
    return (await store.readSkillRevision('acme', [USER_ROOT, AGENT_ROOT], name))?.stamp;
  }

  /** Runs every queued processing job: each skill gets an overview. */
  async function drain(store: Store): Promise<void> {
    for (let task = await store.claimTask(Date.now() + 1000, TEST_CLAIM); task !== null; ) {
      await store.completeTask(task.lease, { overview: `overview of ${task.skillId}`, result: {} });
      task = await store.claimTask(Date.now() + 1000, TEST_CLAIM);
    }
  }

  /** `shared` in both roots and `agent-only`, every one settled (its overview written). */
  async function settled(): Promise<Store> {
    const store = await setup();
    await drain(store);
    return store;
  }

  it('is the one read with the JSON of every request shape, and null until settled', async () => {
    const unsettled = await setup();
    expect(await stampOf(unsettled, 'shared')).toBeNull();
    for (const request of REQUESTS) {
      const read = await unsettled.readSkillJson('acme', [USER_ROOT, AGENT_ROOT], 'shared', request);
      if (read !== null && 'json' in read) expect(read.stamp).toBeNull();
    }
    cleanup = undefined;
    const store = await settled();
    for (const [roots, name] of [
      [[USER_ROOT, AGENT_ROOT], 'shared'],
      [[AGENT_ROOT, USER_ROOT], 'shared'],
      [[USER_ROOT, AGENT_ROOT], 'agent-only'],
    ] as const) {
      const state = await store.readSkillRevision('acme', roots, name);
      expect(state?.stamp).toContain(state?.revision ?? '-');
      for (const request of REQUESTS) {
        const read = await store.readSkillJson('acme', roots, name, request);
        if (read === null || !('json' in read)) throw new Error(`no JSON for ${name}`);
        expect(read.stamp, `${name} ${JSON.stringify(request)}`).toBe(state?.stamp);
      }
    }
    // The same name in the other root is another skill: another stamp.
    expect((await store.readSkillRevision('acme', [AGENT_ROOT], 'shared'))?.stamp).not.toBe(
      await stampOf(store, 'shared'),
    );
  });

  it('stays while other skills change, and changes with anything a get result shows', async () => {
    const store = await settled();
    const first = await stampOf(store, 'shared');
    // Writes to other skills, and a delete of another one: unchanged.
    await store.putSkill(makeWrite({ name: 'agent-only', rootUri: AGENT_ROOT, body: 'changed\n' }));
    await store.putSkill(makeWrite({ name: 'newcomer', body: 'new\n' }));
    await store.deleteSkill('acme', AGENT_ROOT, 'shared');
    expect(await stampOf(store, 'shared')).toBe(first);
    // The same files with other source metadata (the revision stays): changed.
    const same = { '.abstract.md': 'user abstract', 'a/b/c.txt': 'c' };
    await store.putSkill(
      makeWrite({ name: 'shared', body: 'user body\n', sourceMetadata: { from: 'x' } }, same),
    );
    const resourced = await stampOf(store, 'shared');
    expect((await store.readSkillRevision('acme', [USER_ROOT], 'shared'))?.revision).toBe(
      (await store.readSkillView('acme', [USER_ROOT], 'shared', NONE))?.skill.revision,
    );
    expect(resourced).not.toBeNull();
    expect(resourced).not.toBe(first);
    // Deleted and added again with the same files and metadata: another skill, another stamp.
    await store.deleteSkill('acme', USER_ROOT, 'shared');
    expect(await stampOf(store, 'shared')).toBeUndefined();
    await store.putSkill(
      makeWrite({ name: 'shared', body: 'user body\n', sourceMetadata: { from: 'x' } }, same),
    );
    await drain(store);
    const again = await stampOf(store, 'shared');
    expect(again).not.toBeNull();
    expect([first, resourced]).not.toContain(again);
  });
});

/** Every request shape a get can send: each level with and without files, content and source. */
const REQUESTS: SkillJsonRequest[] = [null, 0, 1, 2].flatMap((level) =>
  [false, true].flatMap((includeFiles) =>
    [false, true].map((flag) => ({
      level: level as SkillJsonRequest['level'],
      includeFiles,
      includeContent: flag,
      includeSource: !flag,
    })),
  ),
);

/** The JSON the HTTP layer would build from `readSkillView` (the overview as given). */
async function jsonViaView(
  store: Store,
  roots: readonly string[],
  name: string,
  request: SkillJsonRequest,
  overview: string,
): Promise<string | null> {
  const view = await store.readSkillView('acme', roots, name, viewOptionsFor(request));
  return view === null ? null : JSON.stringify(skillResultOf(view, request, overview));
}

describe(`${TEST_ENGINE} store: readSkillJson`, () => {
  /** `shared` (user root) settled, with a SKILL.md past the 4 KiB small-buffer pool and non-ASCII text. */
  async function settledSetup(): Promise<{ store: Store; dataDir: string }> {
    const temp = openTempStore();
    cleanup = temp.cleanup;
    const { store } = temp;
    const long = `# Überschrift — ✓ "quoted" \\ back\tslash\n${'Zeile mit Umlauten äöü und 🚀.\n'.repeat(200)}`;
    await store.putSkill(
      makeWrite(
        { name: 'shared', body: long, tags: ['a', 'ü'], sourceMetadata: { from: 'test', n: 1 } },
        { '.abstract.md': 'user abstract ✓', 'a/b/c.txt': 'c' },
      ),
    );
    await store.putSkill(makeWrite({ name: 'short', rootUri: AGENT_ROOT, body: 'short\n' }));
    for (let i = 0; i < 2; i++) {
      const task = await store.claimTask(Date.now() + 1000, TEST_CLAIM);
      if (task === null) throw new Error('no task');
      await store.completeTask(task.lease, { overview: `the overview ${i} ✓`, result: {} });
    }
    return { store, dataDir: temp.dataDir };
  }

  it('answers byte for byte the JSON built from readSkillView, for every request shape', async () => {
    const { store } = await settledSetup();
    for (const [roots, name] of [
      [[USER_ROOT, AGENT_ROOT], 'shared'],
      [[USER_ROOT, AGENT_ROOT], 'short'],
    ] as const) {
      for (const request of REQUESTS) {
        const read = await store.readSkillJson('acme', roots, name, request);
        if (read === null || !('json' in read)) throw new Error(`no JSON for ${name}`);
        const skill = (await store.readSkillView('acme', roots, name, NONE))?.skill;
        expect(read.revision).toBe(skill?.revision);
        expect(read.settled).toBe(true);
        const expected = await jsonViaView(store, roots, name, request, skill?.overview ?? '');
        expect(Buffer.from(read.json).toString('utf8')).toBe(expected);
      }
    }
  });

  it('hands back the view while the overview is to be rendered, JSON for levels without it', async () => {
    const store = await setup();
    for (const request of REQUESTS) {
      const read = await store.readSkillJson('acme', [USER_ROOT, AGENT_ROOT], 'shared', request);
      if (request.level === null || request.level === 1) {
        expect(read !== null && 'view' in read && read.view.skill.body).toBe('user body\n');
      } else {
        if (read === null || !('json' in read)) throw new Error('no JSON');
        expect(read.settled).toBe(false);
        expect(Buffer.from(read.json).toString('utf8')).toBe(
          await jsonViaView(store, [USER_ROOT, AGENT_ROOT], 'shared', request, ''),
        );
      }
    }
  });

  it('is null when no root holds the skill', async () => {
    const store = await setup();
    const request = REQUESTS[0] as SkillJsonRequest;
    expect(await store.readSkillJson('acme', [USER_ROOT], 'agent-only', request)).toBeNull();
    expect(await store.readSkillJson('acme', [], 'shared', request)).toBeNull();
  });

  it.runIf(TEST_ENGINE === 'sqlite')(
    'answers the same through the database thread (bytes moved or copied)',
    async () => {
      const { store, dataDir } = await settledSetup();
      const threaded = await createThreadedSqliteStore({ dataDir });
      try {
        for (const name of ['shared', 'short']) {
          for (const request of REQUESTS) {
            const direct = await store.readSkillJson('acme', [USER_ROOT, AGENT_ROOT], name, request);
            const moved = await threaded.readSkillJson('acme', [USER_ROOT, AGENT_ROOT], name, request);
            if (direct === null || moved === null || !('json' in direct) || !('json' in moved)) {
              throw new Error('no JSON');
            }
            expect(moved.revision).toBe(direct.revision);
            expect(Buffer.from(moved.json).equals(Buffer.from(direct.json))).toBe(true);
          }
        }
      } finally {
        await threaded.close();
      }
    },
  );

  it.runIf(TEST_ENGINE === 'sqlite')(
    'within a bound: the same answer as readSkillJson, or none when the first root holding it is past the bound',
    async () => {
      const { store, dataDir } = await settledSetup();
      const conn = openConnection(path.join(dataDir, 'skillport.db'), { readonly: true, busyTimeoutMs: 0 });
      try {
        const roots = [USER_ROOT, AGENT_ROOT];
        const wide = { bytes: 1 << 20, files: 64 };
        for (const name of ['shared', 'short']) {
          for (const request of REQUESTS) {
            const direct = await store.readSkillJson('acme', roots, name, request);
            const within = readSkillJsonWithin(conn, 'acme', roots, name, request, wide);
            if (direct === null || within == null || !('json' in direct)) throw new Error('no JSON');
            expect(within.revision).toBe(direct.revision);
            expect(within.settled).toBe(direct.settled);
            expect(within.stamp).toBe(direct.stamp);
            expect(Buffer.from(within.json).equals(Buffer.from(direct.json))).toBe(true);
          }
        }
        const request = REQUESTS[0] as SkillJsonRequest;
        expect(readSkillJsonWithin(conn, 'acme', [USER_ROOT], 'short', request, wide)).toBeNull();
        // `shared` of the user root is past a bound its SKILL.md exceeds, or its 3 files: no answer —
        // never the smaller `short`-sized copy another root might hold.
        const skillMd = (
          await store.listFiles((await store.getSkill('acme', USER_ROOT, 'shared'))?.id ?? '', {
            withContent: false,
          })
        ).find((f) => f.path === 'SKILL.md');
        const size = skillMd?.size ?? 0;
        expect(size).toBeGreaterThan(4096);
        const full: SkillJsonRequest = {
          level: 2,
          includeContent: null,
          includeFiles: true,
          includeSource: false,
        };
        expect(
          readSkillJsonWithin(conn, 'acme', roots, 'shared', full, { bytes: size, files: 64 }),
        ).toBeUndefined();
        expect(
          readSkillJsonWithin(conn, 'acme', roots, 'shared', full, { bytes: 1 << 20, files: 2 }),
        ).toBeUndefined();
        expect(
          readSkillJsonWithin(conn, 'acme', roots, 'shared', full, { bytes: 1 << 20, files: 3 }),
        ).not.toBeNull();
        // Level 0 without the file list reads neither SKILL.md nor the list: within the same bounds.
        const l0: SkillJsonRequest = {
          level: 0,
          includeContent: false,
          includeFiles: false,
          includeSource: false,
        };
        expect(readSkillJsonWithin(conn, 'acme', roots, 'shared', l0, { bytes: size, files: 0 })).toEqual(
          await store.readSkillJson('acme', roots, 'shared', l0),
        );
      } finally {
        conn.db.close();
      }
    },
  );

  it.runIf(TEST_ENGINE === 'sqlite')(
    'within a bound: none for a skill whose overview is still to be rendered, when the overview is asked for',
    async () => {
      const temp = openTempStore();
      cleanup = temp.cleanup;
      await temp.store.putSkill(makeWrite({ name: 'fresh', body: 'fresh body\n' }, { '.abstract.md': 'a' }));
      const conn = openConnection(path.join(temp.dataDir, 'skillport.db'), {
        readonly: true,
        busyTimeoutMs: 0,
      });
      const threaded = await createThreadedSqliteStore({ dataDir: temp.dataDir });
      try {
        for (const request of REQUESTS) {
          const within = readSkillJsonWithin(
            conn,
            'acme',
            [USER_ROOT],
            'fresh',
            request,
            HTTP_THREAD_READ_BOUND,
          );
          const read = await threaded.readSkillJson('acme', [USER_ROOT], 'fresh', request);
          if (request.level === null || request.level === 1) {
            expect(within).toBeUndefined();
            // The database thread hands back the view, body included, to render the overview from.
            expect(read !== null && 'view' in read && read.view.skill.body).toBe('fresh body\n');
          } else {
            expect(within).toEqual(await temp.store.readSkillJson('acme', [USER_ROOT], 'fresh', request));
            expect(within?.settled).toBe(false);
            expect(read).toEqual(within);
          }
        }
      } finally {
        conn.db.close();
        await threaded.close();
      }
    },
  );

  it.runIf(TEST_ENGINE === 'sqlite')(
    'through the database thread for a skill past the HTTP thread’s bound, the same bytes',
    async () => {
      const temp = openTempStore();
      cleanup = temp.cleanup;
      const big = `# Big\n${'A line of a long skill, well past the bound of a read on the HTTP thread.\n'.repeat(1200)}`;
      expect(big.length).toBeGreaterThan(HTTP_THREAD_READ_BOUND.bytes);
      await temp.store.putSkill(makeWrite({ name: 'big', body: big }, { '.abstract.md': 'big abstract' }));
      const task = await temp.store.claimTask(Date.now() + 1000, TEST_CLAIM);
      if (task === null) throw new Error('no task');
      await temp.store.completeTask(task.lease, { overview: 'the overview', result: {} });
      const threaded = await createThreadedSqliteStore({ dataDir: temp.dataDir });
      try {
        for (const request of REQUESTS) {
          const direct = await temp.store.readSkillJson('acme', [USER_ROOT], 'big', request);
          const read = await threaded.readSkillJson('acme', [USER_ROOT], 'big', request);
          if (direct === null || read === null || !('json' in direct) || !('json' in read)) {
            throw new Error('no JSON');
          }
          expect(Buffer.from(read.json).equals(Buffer.from(direct.json))).toBe(true);
          expect(read.stamp).toBe(direct.stamp);
        }
      } finally {
        await threaded.close();
      }
    },
  );
});
