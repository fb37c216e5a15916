import { describe, expect, it } from 'vitest';
import { parseSkillMd, validateSkill } from '../../src/index.js';

const fm = (yaml: string) =>
  `---\nname: keyed\ndescription: A skill with odd frontmatter keys\n${yaml}\n---\nbody\n`;

describe('frontmatter keys that are lists or mappings', () => {
  it.each([
    ['a list as an explicit key', '? [a, b]\n: v', 4, 3, 'list'],
    ['a mapping as an explicit key', '? {a: 1}\n: v', 4, 3, 'mapping'],
    ['a flow list as an implicit key', '[a, b]: v', 4, 1, 'list'],
    ['a key inside a nested mapping', 'metadata:\n  version: 1\n  ? [x]\n  : y', 6, 5, 'list'],
    ['a key inside a flow list', 'tags: [a, {[b]: c}]', 4, 12, 'list'],
    // 62 levels of `? ` are within the nesting bound; the YAML library rendered each key once per
    // level above it, so 300 levels (660 characters) held the caller ~13 s before they were refused.
    ['explicit keys nested 62 deep on one line', `${'? '.repeat(62)}a`, 4, 3, 'mapping'],
  ])('%s: refused with yaml_format at its line and column', (_label, yaml, line, column, kind) => {
    const { issues, skill } = parseSkillMd(fm(yaml));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ rule: 'yaml_format', severity: 'error', line, column });
    expect(issues[0]?.message).toContain(`a ${kind} as a key at line ${line}, column ${column}`);
    expect(skill.frontmatter).toEqual({});
    const validation = validateSkill(fm(yaml), { profile: 'openviking' });
    expect(validation.valid).toBe(false);
    expect(validation.errors.map((e) => e.rule)).toEqual(['yaml_format']);
  });

  it.each([
    ['a quoted key that looks like a list', '"[a, b]": v'],
    ['an explicit text key', '? plain key\n: v'],
    ['lists and mappings as values', 'metadata: {a: [1, 2], b: {c: d}}'],
  ])('%s: read as before', (_label, yaml) => {
    const validation = validateSkill(fm(yaml), { profile: 'openviking' });
    expect(validation.errors).toEqual([]);
  });

  it('keeps the keys read before a syntax error, without a later list key', () => {
    const { skill } = parseSkillMd(fm('tags: [a]\nmetadata: {[x]: y}\nbroken: "'));
    expect(skill.frontmatter).toMatchObject({ tags: ['a'] });
    expect(skill.frontmatter).not.toHaveProperty('metadata');
  });
});
