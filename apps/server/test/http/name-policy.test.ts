import { validateSkill } from '@skillport/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { optionsFromEnv } from '../../src/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SPACED = `---
name: ElevenLabs Automation
description: Automate text to speech with voices and subscriptions
---

# ElevenLabs Automation

Generate speech from text.
`;

describe('SKILLPORT_NAME_POLICY', () => {
  test('reads strict and slug, refuses anything else', () => {
    expect(optionsFromEnv({ SKILLPORT_NAME_POLICY: 'slug' }).namePolicy).toBe('slug');
    expect(optionsFromEnv({ SKILLPORT_NAME_POLICY: ' Strict ' }).namePolicy).toBe('strict');
    expect(optionsFromEnv({}).namePolicy).toBeUndefined();
    expect(() => optionsFromEnv({ SKILLPORT_NAME_POLICY: 'kebab' })).toThrow(/"strict" or "slug"/);
  });
});

describe('name policy strict (default): a name with spaces is refused with its kebab-case fix', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });

  test('add → 400 INVALID_ARGUMENT naming the fix; nothing stored', async () => {
    const res = await t.request('POST', '/api/v1/skills', { body: { data: SPACED } });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe('INVALID_ARGUMENT');
    expect(res.json.error.details.field).toBe('name');
    expect(res.json.error.details.fix).toBe('elevenlabs-automation');
    expect(res.json.error.message).toContain('Use the kebab-case name "elevenlabs-automation" instead.');
    const get = await t.request('GET', '/api/v1/skills/elevenlabs-automation');
    expect(get.status).toBe(404);
  });

  test("limits report the policy; validating with it gives add's verdict, /validate stays a warning", async () => {
    const limits = await t.request('GET', '/api/v1/system/limits');
    expect(limits.status, limits.text).toBe(200);
    expect(limits.json.result.name_policy).toBe('strict');
    expect(limits.json.result.settings.name_policy).toBe('SKILLPORT_NAME_POLICY');
    const add = await t.request('POST', '/api/v1/skills', { body: { data: SPACED } });
    const local = validateSkill(SPACED, { namePolicy: limits.json.result.name_policy });
    expect(local.valid).toBe(false);
    expect(local.errors[0]).toMatchObject({
      rule: 'name_allowed_characters',
      fix: add.json.error.details.fix,
    });
    // OpenViking's /validate: the name rule stays a warning, and its message holds under either policy.
    const validate = await t.request('POST', '/api/v1/skills/validate', { body: { data: SPACED } });
    expect(validate.status, validate.text).toBe(200);
    expect(validate.json.result.valid).toBe(true);
    const warning = validate.json.result.warnings.find(
      (w: { rule: string }) => w.rule === 'name_allowed_characters',
    );
    expect(warning.fix).toBe(add.json.error.details.fix);
    expect(warning.message).toContain('default name policy (strict)');
    expect(warning.message).toContain('stores the skill as "elevenlabs-automation"');
  });

  test('get by the spaced spelling is a 400 naming the fix, as before', async () => {
    const res = await t.request('GET', `/api/v1/skills/${encodeURIComponent('ElevenLabs Automation')}`);
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.details.fix).toBe('elevenlabs-automation');
  });
});

describe('name policy slug: stored under the kebab-case name, SKILL.md byte for byte', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ namePolicy: 'slug' });
  });
  afterAll(async () => {
    await t.close();
  });

  test('add stores elevenlabs-automation with a name_slugged warning', async () => {
    const res = await t.request('POST', '/api/v1/skills', { body: { data: SPACED, wait: true } });
    expect(res.status, res.text).toBe(200);
    const result = res.json.result;
    expect(result.name).toBe('elevenlabs-automation');
    expect(result.uri).toMatch(/\/elevenlabs-automation$/);
    const rules = result.warnings.map((w: { rule: string }) => w.rule);
    expect(rules).toContain('name_slugged');
    expect(rules).not.toContain('name_allowed_characters');
    const warning = result.warnings.find((w: { rule: string }) => w.rule === 'name_slugged');
    expect(warning.fix).toBe('elevenlabs-automation');
    expect(warning.message).toContain('"ElevenLabs Automation"');
  });

  test('limits report slug; validating with it names the name add stores', async () => {
    const limits = await t.request('GET', '/api/v1/system/limits');
    expect(limits.json.result.name_policy).toBe('slug');
    const local = validateSkill(SPACED, { namePolicy: limits.json.result.name_policy });
    expect(local.valid).toBe(true);
    const warning = local.warnings.find((w) => w.rule === 'name_allowed_characters');
    expect(warning?.message).toContain('Add stores the skill as "elevenlabs-automation" (name policy slug)');
    const stored = await t.request('GET', '/api/v1/skills/elevenlabs-automation');
    expect(stored.json.result.name).toBe(warning?.fix);
  });

  test('get by either spelling returns the same skill and the uploaded SKILL.md unchanged', async () => {
    for (const name of ['elevenlabs-automation', encodeURIComponent('ElevenLabs Automation')]) {
      const res = await t.request('GET', `/api/v1/skills/${name}?include_content=true`);
      expect(res.status, res.text).toBe(200);
      expect(res.json.result.name).toBe('elevenlabs-automation');
      expect(res.json.result.content).toBe(SPACED);
    }
  });

  test('find shows the stored name', async () => {
    const find = await t.request('POST', '/api/v1/skills/find', { body: { query: 'text to speech voices' } });
    expect(find.status, find.text).toBe(200);
    expect(find.json.result.skills.map((s: { name: string }) => s.name)).toContain('elevenlabs-automation');
  });

  test('update through the spaced spelling replaces the stored skill', async () => {
    const changed = SPACED.replace('Generate speech from text.', 'Generate speech from text, faster.');
    const res = await t.request('PUT', `/api/v1/skills/${encodeURIComponent('ElevenLabs Automation')}`, {
      body: { data: changed, wait: true },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result.name).toBe('elevenlabs-automation');
    const get = await t.request('GET', '/api/v1/skills/elevenlabs-automation?include_content=true');
    expect(get.json.result.content).toBe(changed);
  });

  test('delete through the spaced spelling removes it', async () => {
    const res = await t.request('DELETE', `/api/v1/skills/${encodeURIComponent('ElevenLabs Automation')}`);
    expect(res.status, res.text).toBe(200);
    const get = await t.request('GET', '/api/v1/skills/elevenlabs-automation');
    expect(get.status).toBe(404);
  });

  test('a name wrapped in no-break spaces is slugged, and the warning shows them escaped', async () => {
    const text =
      '---\nname: \u00a0nbsp-tools\u00a0\ndescription: A description that is long enough\n---\nbody\n';
    const res = await t.request('POST', '/api/v1/skills', { body: { data: text } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result.name).toBe('nbsp-tools');
    const warning = res.json.result.warnings.find((w: { rule: string }) => w.rule === 'name_slugged');
    expect(warning?.message).toContain('"\\u00a0nbsp-tools\\u00a0" breaks the name rule');
  });

  test("add's skills selection names the skill by either spelling, as the name rule reads them", async () => {
    for (const skills of [
      ['ElevenLabs Automation'],
      ['elevenlabs-automation'],
      ['other', ' ElevenLabs  Automation '],
    ]) {
      const res = await t.request('POST', '/api/v1/skills', { body: { data: SPACED, skills } });
      expect(res.status, res.text).toBe(200);
      expect(res.json.result.name).toBe('elevenlabs-automation');
    }
    const missed = await t.request('POST', '/api/v1/skills', {
      body: { data: SPACED, skills: ['Eleven Labs'] },
    });
    expect(missed.status, missed.text).toBe(400);
    expect(missed.json.error.details).toMatchObject({ field: 'skills', missing: ['eleven-labs'] });
  });

  test('a name with no ASCII letter or digit is still refused', async () => {
    const res = await t.request('POST', '/api/v1/skills', {
      body: { data: '---\nname: 検索 ツール\ndescription: A description that is long enough\n---\nbody\n' },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe('INVALID_ARGUMENT');
    expect(res.json.error.details).not.toHaveProperty('fix');
  });
});
