// The number of skills an account may hold (`SKILLPORT_ACCOUNT_MAX_SKILLS`): the byte quota alone let
// one key create millions of tiny skills. Past the count an add of a new skill is refused with 403
// naming the limit and changes nothing; replacing a skill is not a new one.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkSkillCount } from '../../src/store/write-checks.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const LIMIT = 3;
let t: TestServer;

const md = (name: string, note = '') =>
  `---\nname: ${name}\ndescription: A tiny skill counted against the account's skill limit${note}\n---\n\n# ${name}\n`;

const add = (name: string, note = '') =>
  t.request('POST', '/api/v1/skills', { body: { data: md(name, note) } });

async function usage() {
  const res = await t.request('GET', '/api/v1/system/limits');
  expect(res.status, res.text).toBe(200);
  return res.json.result;
}

beforeAll(async () => {
  t = await startTestServer({ limits: { accountMaxSkills: LIMIT } });
});
afterAll(async () => {
  await t.close();
});

test('GET /api/v1/system/limits reports the limit, its setting and the account’s skill count', async () => {
  const limits = await usage();
  expect(limits.account_max_skills).toBe(LIMIT);
  expect(limits.settings.account_max_skills).toBe('SKILLPORT_ACCOUNT_MAX_SKILLS');
  expect(limits.account_usage.skills).toBe(0);
});

test('an add of one skill more than the limit → 403 naming it; nothing changes; updates still pass', async () => {
  for (const name of ['count-a', 'count-b', 'count-c']) {
    const res = await add(name);
    expect(res.status, res.text).toBe(200);
  }
  expect((await usage()).account_usage.skills).toBe(LIMIT);
  const refused = await add('count-d');
  expect(refused.status, refused.text).toBe(403);
  expect(refused.json.status).toBe('error');
  expect(refused.json.error.code).toBe('RESOURCE_EXHAUSTED');
  expect(refused.json.error.message).toContain('SKILLPORT_ACCOUNT_MAX_SKILLS');
  expect(refused.json.error.message).toContain(`the account holds ${LIMIT} skills and the limit is ${LIMIT}`);
  expect(refused.json.error.details).toMatchObject({
    reason: 'account_skill_limit',
    limit: LIMIT,
    used: LIMIT,
    setting: 'SKILLPORT_ACCOUNT_MAX_SKILLS',
  });
  expect((await t.request('GET', '/api/v1/skills/count-d')).status).toBe(404);
  const listed = await t.request('GET', '/api/v1/skills');
  expect(listed.status, listed.text).toBe(200);
  expect(listed.json.result.total).toBe(LIMIT);

  // Replacing a skill is not one more: an add over an existing name and an update both pass.
  const replaced = await add('count-a', ' (second version)');
  expect(replaced.status, replaced.text).toBe(200);
  const updated = await t.request('PUT', '/api/v1/skills/count-b', {
    body: { data: md('count-b', ' (v2)') },
  });
  expect(updated.status, updated.text).toBe(200);
  expect((await usage()).account_usage.skills).toBe(LIMIT);
});

test('a delete frees a place; of concurrent adds into the last place exactly one wins', async () => {
  const deleted = await t.request('DELETE', '/api/v1/skills/count-c');
  expect(deleted.status, deleted.text).toBe(200);
  expect((await usage()).account_usage.skills).toBe(LIMIT - 1);
  const results = await Promise.all(['race-1', 'race-2', 'race-3', 'race-4'].map((name) => add(name)));
  const statuses = results.map((r) => r.status).sort();
  expect(statuses, results.map((r) => r.text).join('\n')).toEqual([200, 403, 403, 403]);
  expect((await usage()).account_usage.skills).toBe(LIMIT);
  const listed = await t.request('GET', '/api/v1/skills');
  expect(listed.json.result.total).toBe(LIMIT);
});

test('restoring a deleted skill counts as a new one', async () => {
  const history = await t.request('GET', '/api/v1/skills/count-c/revisions');
  expect(history.status, history.text).toBe(200);
  const revision = history.json.result.revisions[0].revision;
  const restored = await t.request('POST', '/api/v1/skills/count-c/restore', { body: { revision } });
  expect(restored.status, restored.text).toBe(403);
  expect(restored.json.error.details.reason).toBe('account_skill_limit');
  expect((await t.request('GET', '/api/v1/skills/count-c')).status).toBe(404);
});

test('the refusal counts in words: one skill, two skills', () => {
  expect(() => checkSkillCount(1, 1)).toThrow(/the account holds 1 skill and the limit is 1 /);
  expect(() => checkSkillCount(2, 2)).toThrow(/the account holds 2 skills and the limit is 2 /);
  expect(() => checkSkillCount(0, 5)).not.toThrow();
});
