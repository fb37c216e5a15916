/**
 * `Store.skillsVersion`: the token MCP sessions poll to learn that another process changed skills.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT_ROOT, makeWrite, openTempStore, USER_ROOT } from './helpers.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('sqlite store: skillsVersion', () => {
  it('moves on every add, replace and delete of the watched roots, not on reads or other roots', async () => {
    const temp = openTempStore();
    cleanup = temp.cleanup;
    const { store } = temp;
    const other = temp.reopen(); // a second connection, as another server process would hold
    const roots = [USER_ROOT, AGENT_ROOT];
    const version = () => other.skillsVersion('acme', roots);
    const seen = [await version()];
    const expectNew = async () => {
      const v = await version();
      expect(seen).not.toContain(v);
      seen.push(v);
    };

    await store.putSkill(makeWrite({ accountId: 'acme', rootUri: USER_ROOT, name: 'one' }));
    await expectNew();
    await store.getSkill('acme', USER_ROOT, 'one');
    await store.listSkills('acme', USER_ROOT, { limit: 10 });
    expect(await version()).toBe(seen.at(-1));
    await new Promise((resolve) => setTimeout(resolve, 2)); // a later millisecond for the replace
    await store.putSkill(
      makeWrite({ accountId: 'acme', rootUri: USER_ROOT, name: 'one', description: 'Changed' }),
    );
    await expectNew();
    await store.putSkill(makeWrite({ accountId: 'acme', rootUri: AGENT_ROOT, name: 'shared' }));
    await expectNew();
    expect(await store.deleteSkill('acme', USER_ROOT, 'one')).not.toBeNull();
    await expectNew();
    // Another account's skills and another user's root do not move it.
    await store.putSkill(makeWrite({ accountId: 'globex', rootUri: USER_ROOT, name: 'theirs' }));
    await store.putSkill(makeWrite({ accountId: 'acme', rootUri: 'viking://user/bob/skills', name: 'bobs' }));
    expect(await version()).toBe(seen.at(-1));
  });
});
