import { describe, expect, it } from 'vitest';
import { parseSkillMd, VALIDATION_PROFILES, validateSkill } from '../../src/index.js';

const text = (description: string) =>
  `---\nname: deploy-notes\ndescription: ${description}\n---\n\n# Deploy\n`;

describe('a " #" in an unquoted description (a YAML comment)', () => {
  it('warns where the value is cut, with the whole value as the fix, in every profile', () => {
    const source = text('Post to the #deployments channel');
    const { skill, issues } = parseSkillMd(source);
    expect(skill.description).toBe('Post to the');
    expect(issues).toEqual([
      {
        rule: 'yaml_comment_in_value',
        severity: 'warning',
        message:
          '"description" is cut at " #": YAML reads the rest of the line as a comment, so description is "Post to the". ' +
          'Quote the value to keep the "#": description: "Post to the #deployments channel"',
        field: 'description',
        fix: 'Post to the #deployments channel',
        line: 3,
        column: 26,
      },
    ]);
    expect(source.split('\n')[2]?.[25]).toBe('#');
    for (const profile of VALIDATION_PROFILES) {
      const result = validateSkill(source, { profile });
      expect(
        result.warnings.map((w) => w.rule),
        profile,
      ).toContain('yaml_comment_in_value');
    }
  });

  it.each([
    ['quoted', '"Post to the #deployments channel"'],
    ['a "#" without a blank before it', 'Post to C#, not to F#'],
    ['a comment on its own line after the value', 'Post to the channel\n# a note'],
  ])('says nothing when %s', (_case, value) => {
    expect(parseSkillMd(text(value)).issues).toEqual([]);
  });

  it('also checks the name', () => {
    const { issues } = parseSkillMd('---\nname: deploy #1\ndescription: Deploys\n---\n');
    expect(issues.map((i) => [i.rule, i.field, i.fix])).toEqual([
      ['yaml_comment_in_value', 'name', 'deploy #1'],
    ]);
  });
});
