import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

// About 40 KB of frontmatter nested thousands of levels deep: over the inline size, so both add
// and validate read it in the worker pool. Both refuse it at once with the same located issue.
const DEEP: Array<[string, string, number]> = [
  ['block sequences on one line', `metadata:\n  ${'- '.repeat(20_000)}x`, 5],
  ['nested flow sequences', `metadata: ${'['.repeat(20_000)}${']'.repeat(20_000)}`, 4],
];
const skillMd = (yaml: string) =>
  `---\nname: deep-nesting\ndescription: A skill whose frontmatter nests far too deep\n${yaml}\n---\nbody\n`;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

describe('frontmatter nested too deep', () => {
  test.each(DEEP)(
    '%s: add and validate give the same frontmatter_too_deep verdict',
    async (_label, yaml, line) => {
      const data = skillMd(yaml);
      const validate = await t.request('POST', '/api/v1/skills/validate', { body: { data } });
      expect(validate.status, validate.text.slice(0, 300)).toBe(200);
      const verdict = validate.json.result;
      expect(verdict.valid).toBe(false);
      expect(verdict.errors).toHaveLength(1);
      const issue = verdict.errors[0];
      expect(issue).toMatchObject({ rule: 'frontmatter_too_deep', field: 'frontmatter', line });
      expect(issue.message).toContain('nesting deeper than 64 levels');
      expect(issue.message).not.toContain('call stack');

      const add = await t.request('POST', '/api/v1/skills', { body: { data } });
      expect(add.status, add.text.slice(0, 300)).toBe(400);
      expect(add.json.error.code).toBe('SKILL_INVALID');
      expect(add.json.error.message).toContain('nesting deeper than 64 levels');
      expect(add.json.error.message).toContain(`line ${line}, column ${issue.column}`);
      const [added] = add.json.error.details.issues;
      expect(added).toMatchObject({
        rule: issue.rule,
        field: issue.field,
        line: issue.line,
        column: issue.column,
      });
    },
  );

  test('nothing was stored', async () => {
    const list = await t.request('GET', '/api/v1/skills');
    expect(list.json.result.total).toBe(0);
  });
});
