import { afterEach, describe, expect, it } from 'vitest';
import { normaliseVector } from '../../src/embeddings/embedder.js';
import type { Store } from '../../src/store/types.js';
import { TEST_ENGINE } from '../helpers/engine.js';
import { AGENT_ROOT, makeWrite, openTempStore, USER_ROOT } from './helpers.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

function temp(): { store: Store; reopen(): Store } {
  const t = openTempStore();
  cleanup = t.cleanup;
  return t;
}

/** A unit vector pointing mostly along `axis` (8 dimensions). */
function along(axis: number, noise = 0.05): Float32Array {
  const v = Array.from({ length: 8 }, (_, i) => (i === axis ? 1 : noise * ((i * 7 + axis) % 3)));
  return normaliseVector(v);
}

describe(`${TEST_ENGINE} store: skill vectors`, () => {
  it('lists skills missing a vector of the model, stores vectors per revision, refuses stale revisions', async () => {
    const { store } = temp();
    const a = await store.putSkill(makeWrite({ name: 'alpha' }));
    const b = await store.putSkill(makeWrite({ name: 'beta', rootUri: AGENT_ROOT }));
    const missing = await store.skillsNeedingVectors('m1', 10);
    expect(missing.map((s) => s.name)).toEqual(['alpha', 'beta']);
    expect(missing[0]).toMatchObject({
      skillId: a.skill.id,
      revision: a.skill.revision,
      description: 'Description of alpha',
    });

    expect(await store.putSkillVector(a.skill.id, a.skill.revision, 'm1', along(0))).toBe(true);
    expect(await store.putSkillVector(b.skill.id, 'f'.repeat(64), 'm1', along(1))).toBe(false);
    expect(await store.putSkillVector('no-such-skill', a.skill.revision, 'm1', along(1))).toBe(false);
    expect((await store.skillsNeedingVectors('m1', 10)).map((s) => s.name)).toEqual(['beta']);
    // Another model needs its own vectors.
    expect((await store.skillsNeedingVectors('m2', 10)).map((s) => s.name)).toEqual(['alpha', 'beta']);
    expect(await store.skillsNeedingVectors('m1', 0)).toEqual([]);
  });

  it('a new revision or a delete retires the vector; semantic search sees it at once', async () => {
    const { store } = temp();
    const a = await store.putSkill(makeWrite({ name: 'alpha', description: 'first' }));
    const b = await store.putSkill(makeWrite({ name: 'beta' }));
    await store.putSkillVector(a.skill.id, a.skill.revision, 'm1', along(0));
    await store.putSkillVector(b.skill.id, b.skill.revision, 'm1', along(1));
    const semantic = { model: 'm1', vector: along(0) };
    const before = await store.search('acme', [USER_ROOT], 'zzzz', { limit: 5, semantic });
    expect(before.map((h) => [h.skill.name, h.matchReason])).toEqual([['alpha', 'semantic']]);

    const updated = await store.putSkill(makeWrite({ name: 'alpha', description: 'second' }));
    expect((await store.skillsNeedingVectors('m1', 10)).map((s) => s.revision)).toEqual([
      updated.skill.revision,
    ]);
    expect(await store.search('acme', [USER_ROOT], 'zzzz', { limit: 5, semantic })).toEqual([]);

    await store.putSkillVector(updated.skill.id, updated.skill.revision, 'm1', along(0));
    expect(
      (await store.search('acme', [USER_ROOT], 'zzzz', { limit: 5, semantic })).map((h) => h.skill.name),
    ).toEqual(['alpha']);
    await store.deleteSkill('acme', USER_ROOT, 'alpha');
    expect(await store.search('acme', [USER_ROOT], 'zzzz', { limit: 5, semantic })).toEqual([]);
    expect(await store.skillsNeedingVectors('m1', 10)).toEqual([]);
  });

  it('keeps to the caller: other accounts, other roots and other models are not compared', async () => {
    const { store } = temp();
    const mine = await store.putSkill(makeWrite({ name: 'mine' }));
    const theirs = await store.putSkill(makeWrite({ name: 'theirs', accountId: 'other' }));
    const agent = await store.putSkill(makeWrite({ name: 'agent-one', rootUri: AGENT_ROOT }));
    const oldModel = await store.putSkill(makeWrite({ name: 'old-model' }));
    // Background skills of the caller, about other things, so related ones stand out.
    for (let i = 0; i < 6; i++) {
      const other = await store.putSkill(
        makeWrite({ name: `background-${i}`, rootUri: i % 2 ? AGENT_ROOT : USER_ROOT }),
      );
      await store.putSkillVector(other.skill.id, other.skill.revision, 'm1', along(i % 2 ? 4 : 5));
    }
    await store.putSkillVector(mine.skill.id, mine.skill.revision, 'm1', along(2));
    await store.putSkillVector(theirs.skill.id, theirs.skill.revision, 'm1', along(2));
    await store.putSkillVector(agent.skill.id, agent.skill.revision, 'm1', along(2));
    await store.putSkillVector(oldModel.skill.id, oldModel.skill.revision, 'm0', along(2));
    const hits = await store.search('acme', [USER_ROOT], 'zzzz', {
      limit: 5,
      semantic: { model: 'm1', vector: along(2) },
    });
    expect(hits.map((h) => h.skill.name)).toEqual(['mine']);
    const both = await store.search('acme', [USER_ROOT, AGENT_ROOT], 'zzzz', {
      limit: 5,
      semantic: { model: 'm1', vector: along(2) },
    });
    expect(both.map((h) => h.skill.name).sort()).toEqual(['agent-one', 'mine']);
  });

  it('vectors survive a reopen (read back from the database)', async () => {
    const t = temp();
    const a = await t.store.putSkill(makeWrite({ name: 'alpha' }));
    await t.store.putSkill(makeWrite({ name: 'beta' }));
    await t.store.putSkillVector(a.skill.id, a.skill.revision, 'm1', along(3));
    const reopened = t.reopen();
    const hits = await reopened.search('acme', [USER_ROOT], 'zzzz', {
      limit: 5,
      semantic: { model: 'm1', vector: along(3) },
    });
    expect(hits.map((h) => h.skill.name)).toEqual(['alpha']);
    expect(hits[0]?.score).toBeGreaterThan(0);
  });
});
