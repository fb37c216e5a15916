import { afterEach, describe, expect, it } from 'vitest';
import type { SkillViewOptions, Store } from '../../src/store/types.js';
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
    expect(state).toEqual(view === null ? null : { revision: view.skill.revision, settled: false });
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
    });
    await store.putSkill(makeWrite({ name: 'shared', body: 'new user body\n' }));
    const after = await store.readSkillRevision('acme', [USER_ROOT], 'shared');
    expect(after?.revision).not.toBe(before?.revision);
    expect(after).toEqual({
      revision: (await store.getSkill('acme', USER_ROOT, 'shared'))?.revision,
      settled: false,
    });
  });
});
