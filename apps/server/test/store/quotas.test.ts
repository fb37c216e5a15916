import { isSkillportError, type SkillportError } from '@skillport/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { SkillWrite, Store } from '../../src/store/types.js';
import { TEST_ENGINE } from '../helpers/engine.js';
import { makeWrite, openTempStore, TEST_CLAIM } from './helpers.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

function setup(): Store {
  const temp = openTempStore();
  cleanup = temp.cleanup;
  return temp.store;
}

async function refusal(promise: Promise<unknown>): Promise<SkillportError> {
  try {
    await promise;
  } catch (error) {
    if (isSkillportError(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

const sizeOf = (write: SkillWrite) => write.files.reduce((sum, f) => sum + f.content.byteLength, 0);
const bytes = (n: number, fill = 120) => new Uint8Array(n).fill(fill);

describe(`${TEST_ENGINE} store: per-account quotas`, () => {
  it('counts live skills in every root; past maxSkills a new skill is refused, a replacement is not', async () => {
    const store = setup();
    const limited = (write: SkillWrite): SkillWrite => ({ ...write, maxSkills: 2 });
    await store.putSkill(limited(makeWrite({ name: 'one' })));
    await store.putSkill(limited(makeWrite({ name: 'two', rootUri: 'viking://user/skills/other' })));
    // Another account's skills are its own.
    await store.putSkill(limited(makeWrite({ name: 'one', accountId: 'globex' })));
    expect((await store.accountUsage('acme', 0)).skills).toBe(2);
    const error = await refusal(store.putSkill(limited(makeWrite({ name: 'three' }))));
    expect(error.code).toBe('RESOURCE_EXHAUSTED');
    expect(error.status).toBe(403);
    expect(error.details).toMatchObject({ reason: 'account_skill_limit', limit: 2, used: 2 });
    expect(await store.getSkill('acme', makeWrite({ name: 'three' }).rootUri, 'three')).toBeNull();
    // Replacing a live skill passes at the limit; without a limit the count is not checked.
    await store.putSkill(limited(makeWrite({ name: 'one' }, { 'extra.txt': 'more' })));
    await store.putSkill(makeWrite({ name: 'three' }));
    expect((await store.accountUsage('acme', 0)).skills).toBe(3);
    await store.deleteSkill('acme', makeWrite({ name: 'three' }).rootUri, 'three');
    expect((await store.accountUsage('acme', 0)).skills).toBe(2);
    expect((await store.accountUsage('globex', 0)).skills).toBe(1);
  });

  it('counts the file bytes of live skills per account, replaced files once, deleted skills not', async () => {
    const store = setup();
    expect(await store.accountUsage('acme', 0)).toEqual({ storedBytes: 0, tempUploadBytes: 0, skills: 0 });
    const a = makeWrite({ name: 'alpha' }, { '.abstract.md': 'abstract', 'data/blob.bin': bytes(5000) });
    const b = makeWrite({ name: 'beta' }, { 'data/blob.bin': bytes(5000) });
    await store.putSkill(a);
    await store.putSkill(b);
    await store.putSkill(makeWrite({ name: 'gamma', accountId: 'globex' }, { 'x.bin': bytes(70_000) }));
    // The same content in two skills is counted twice: each skill is the account's data.
    expect((await store.accountUsage('acme', 0)).storedBytes).toBe(sizeOf(a) + sizeOf(b));
    const smaller = makeWrite({ name: 'alpha' }, { 'data/blob.bin': bytes(10) });
    await store.putSkill(smaller);
    expect((await store.accountUsage('acme', 0)).storedBytes).toBe(sizeOf(smaller) + sizeOf(b));
    await store.deleteSkill('acme', b.rootUri, 'beta');
    expect((await store.accountUsage('acme', 0)).storedBytes).toBe(sizeOf(smaller));
  });

  it('keeps the usage equal to the live files through overviews, replacements and deletes', async () => {
    const store = setup();
    const live = async (accountId: string) => {
      let sum = 0;
      for (const name of ['one', 'two', 'three']) {
        const skill = await store.getSkill(accountId, makeWrite({ name }).rootUri, name);
        if (skill === null) continue;
        for (const file of await store.listFiles(skill.id, { withContent: false }))
          if (file.path !== '.overview.md') sum += file.size;
      }
      return sum;
    };
    await store.putSkill(makeWrite({ name: 'one' }, { 'a.bin': bytes(3000) }));
    await store.putSkill(makeWrite({ name: 'two' }, { 'b.bin': bytes(2000), 'c.bin': bytes(10) }));
    await store.putSkill(makeWrite({ name: 'three', accountId: 'globex' }, { 'd.bin': bytes(700) }));
    // The processing jobs write overviews, which do not count.
    for (;;) {
      const task = await store.claimTask(Date.now(), TEST_CLAIM);
      if (task === null) break;
      await store.completeTask(task.lease, { overview: 'o'.repeat(5000), result: {} });
    }
    expect((await store.accountUsage('acme', 0)).storedBytes).toBe(await live('acme'));
    expect((await store.accountUsage('globex', 0)).storedBytes).toBe(await live('globex'));
    await store.putSkill(makeWrite({ name: 'two' }, { 'b.bin': bytes(20) }));
    expect((await store.accountUsage('acme', 0)).storedBytes).toBe(await live('acme'));
    await store.deleteSkill('acme', makeWrite({ name: 'one' }).rootUri, 'one');
    await store.deleteSkill('globex', makeWrite({ name: 'three' }).rootUri, 'three');
    expect((await store.accountUsage('acme', 0)).storedBytes).toBe(await live('acme'));
    expect((await store.accountUsage('globex', 0)).storedBytes).toBe(0);
  });

  it('refuses a write that would pass the quota with 507 and changes nothing', async () => {
    const store = setup();
    const first = makeWrite({ name: 'first' }, { 'big.bin': bytes(6000) });
    const quota = sizeOf(first) + 3000;
    await store.putSkill({ ...first, quotaBytes: quota });
    const second = makeWrite({ name: 'second' }, { 'big.bin': bytes(4000) });
    const error = await refusal(store.putSkill({ ...second, quotaBytes: quota }));
    expect(error.code).toBe('RESOURCE_EXHAUSTED');
    expect(error.status).toBe(507);
    expect(error.details).toEqual({
      reason: 'account_quota',
      limit: quota,
      used: sizeOf(first),
      size: sizeOf(second),
      setting: 'SKILLPORT_ACCOUNT_QUOTA_MB',
    });
    expect(await store.getSkill('acme', second.rootUri, 'second')).toBeNull();
    expect((await store.accountUsage('acme', 0)).storedBytes).toBe(sizeOf(first));
    // Replacing a skill counts its new files instead of its old ones: a same-size update fits.
    const update = makeWrite({ name: 'first', description: 'Changed' }, { 'big.bin': bytes(6000, 121) });
    await store.putSkill({ ...update, quotaBytes: sizeOf(update) });
    // Another account has its own quota; 0 means none.
    await store.putSkill({ ...second, accountId: 'globex', quotaBytes: sizeOf(second) });
    await store.putSkill({ ...second, quotaBytes: 0 });
    expect(await store.getSkill('acme', second.rootUri, 'second')).not.toBeNull();
  });

  it('lets only as many concurrent writes through as the quota fits', async () => {
    const store = setup();
    const writes = Array.from({ length: 4 }, (_, i) =>
      makeWrite({ name: `race-${i}` }, { 'b.bin': bytes(4000) }),
    );
    const quota = sizeOf(writes[0] as SkillWrite) * 2 + 100;
    const outcomes = await Promise.allSettled(writes.map((w) => store.putSkill({ ...w, quotaBytes: quota })));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
    for (const o of outcomes) {
      if (o.status === 'rejected') expect((o.reason as SkillportError).details?.reason).toBe('account_quota');
    }
    expect((await store.accountUsage('acme', 0)).storedBytes).toBeLessThanOrEqual(quota);
  });

  it('lets only as many concurrent new skills through as the skill limit allows, each over the others', async () => {
    const store = setup();
    await store.putSkill({ ...makeWrite({ name: 'kept' }), maxSkills: 3 });
    // Eight adds at once, every one of which fits alone (one skill is there, three are allowed).
    const writes = Array.from({ length: 8 }, (_, i) =>
      makeWrite({ name: `burst-${i}` }, { 'n.txt': `${i}` }),
    );
    const outcomes = await Promise.allSettled(writes.map((w) => store.putSkill({ ...w, maxSkills: 3 })));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
    for (const o of outcomes) {
      if (o.status === 'rejected') {
        expect((o.reason as SkillportError).details).toMatchObject({
          reason: 'account_skill_limit',
          limit: 3,
        });
      }
    }
    expect((await store.accountUsage('acme', 0)).skills).toBe(3);
    const listed = await store.listSkills('acme', makeWrite({ name: 'kept' }).rootUri, { limit: 20 });
    expect(listed.skills).toHaveLength(3);
    expect(listed.total).toBe(3);
  });

  it('caps unexpired temp uploads per account; expired and used uploads stop counting', async () => {
    const store = setup();
    const now = Date.now();
    const upload = (accountId: string, size: number, expiresAt = now + 60_000) =>
      store.putTempUpload(
        { accountId, filename: 'u.zip', content: bytes(size), expiresAt },
        { quotaBytes: 10_000, now },
      );
    await store.putTempUpload({
      accountId: 'acme',
      filename: 'old',
      content: bytes(9000),
      expiresAt: now - 1,
    });
    const first = await upload('acme', 6000);
    expect(await store.accountUsage('acme', now)).toEqual({
      storedBytes: 0,
      tempUploadBytes: 6000,
      skills: 0,
    });
    const error = await refusal(upload('acme', 5000));
    expect(error.status).toBe(507);
    expect(error.details).toEqual({
      reason: 'temp_upload_quota',
      limit: 10_000,
      used: 6000,
      size: 5000,
      setting: 'SKILLPORT_TEMP_UPLOAD_QUOTA_MB',
    });
    expect((await store.accountUsage('acme', now)).tempUploadBytes).toBe(6000);
    await upload('globex', 9000);
    await upload('acme', 4000);
    expect(await store.takeTempUpload('acme', first, now)).not.toBeNull();
    await upload('acme', 6000);
    expect((await store.accountUsage('acme', now)).tempUploadBytes).toBe(10_000);
  });

  it('lets only as many concurrent temp uploads through as the quota fits', async () => {
    const store = setup();
    const now = Date.now();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        store.putTempUpload(
          { accountId: 'acme', filename: 'u', content: bytes(3000), expiresAt: now + 60_000 },
          { quotaBytes: 7000, now },
        ),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
    expect((await store.accountUsage('acme', now)).tempUploadBytes).toBe(6000);
  });

  it('counts each temp upload as at least 2 KiB, so uploads of a few bytes cannot pile up without end', async () => {
    const store = setup();
    const now = Date.now();
    const tiny = () =>
      store.putTempUpload(
        { accountId: 'acme', filename: 'u', content: bytes(2), expiresAt: now + 60_000 },
        { quotaBytes: 10_000, now },
      );
    for (let i = 0; i < 4; i++) await tiny();
    expect((await store.accountUsage('acme', now)).tempUploadBytes).toBe(4 * 2048);
    const error = await refusal(tiny());
    expect(error.status).toBe(507);
    expect(error.details).toMatchObject({ reason: 'temp_upload_quota', used: 8192, size: 2048 });
  });
});
