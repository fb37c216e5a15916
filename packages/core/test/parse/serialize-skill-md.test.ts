import { describe, expect, it } from 'vitest';
import {
  isSkillportError,
  parseSkillMd,
  type StructuredSkill,
  serializeSkillMd,
  skillMdFromStructured,
} from '../../src/index.js';

describe('serializeSkillMd', () => {
  it.each([
    {
      title: 'the MCP contract form: one blank line, then the body',
      skill: { name: 'search-web', description: 'Search the web', body: '# search-web\n' },
      text: '---\nname: search-web\ndescription: Search the web\n---\n\n# search-web\n',
    },
    {
      title: 'key order name, description, tags, allowed-tools, then the rest in order',
      skill: {
        name: 'order',
        description: 'd',
        tags: ['a', 'b'],
        allowedTools: ['Read'],
        frontmatter: { zeta: 1, license: 'MIT', description: 'ignored', alpha: true },
      },
      text: '---\nname: order\ndescription: d\ntags:\n  - a\n  - b\nallowed-tools:\n  - Read\nzeta: 1\nlicense: MIT\nalpha: true\n---\n',
    },
    {
      title: 'quotes only what needs quoting, including what YAML 1.1 would misread',
      skill: {
        name: 'quotes',
        description: 'Use when: reports',
        frontmatter: {
          a: 'yes',
          b: '1.0',
          c: '2024-01-15',
          d: 'plain text',
          e: '@at',
          f: 'on',
          g: '0755',
          h: 'null',
        },
      },
      text:
        '---\nname: quotes\ndescription: "Use when: reports"\n' +
        'a: "yes"\nb: "1.0"\nc: "2024-01-15"\nd: plain text\ne: "@at"\nf: "on"\ng: "0755"\nh: "null"\n---\n',
    },
    {
      title: 'multi-line strings become block scalars; long lines are not folded',
      skill: {
        name: 'blocks',
        description: `line one\nline two`,
        frontmatter: { long: 'x '.repeat(100).trim() },
      },
      text: `---\nname: blocks\ndescription: |-\n  line one\n  line two\nlong: ${'x '.repeat(100).trim()}\n---\n`,
    },
    {
      title:
        'a multi-line string with a blank-only line is double-quoted (a block scalar would lose the blanks)',
      skill: { name: ' \n', description: 'a\n  \nb' },
      text: '---\nname: "\\ \\n"\ndescription: "a\\n \\ \\nb"\n---\n',
    },
    {
      title: 'a string with U+FEFF is double-quoted, keys included (a BOM at a line start would be dropped)',
      skill: { name: 'bom', frontmatter: { '\uFEFFkey': '\uFEFFvalue' } },
      text: '---\nname: bom\n"\uFEFFkey": "\uFEFFvalue"\n---\n',
    },
    {
      title: 'a body that starts with a line break gets no extra blank line',
      skill: { name: 'b', description: 'd', body: '\n# B\n' },
      text: '---\nname: b\ndescription: d\n---\n\n# B\n',
    },
    {
      title: 'list fields keep the frontmatter spelling and string form when they agree',
      skill: {
        name: 'keep',
        tags: ['x', 'y'],
        allowedTools: ['Bash(git add:*)', 'Read'],
        frontmatter: { tags: 'x, y', allowed_tools: 'Bash(git add:*) Read' },
      },
      text: '---\nname: keep\ntags: x, y\nallowed_tools: Bash(git add:*) Read\n---\n',
    },
    {
      title: 'changed lists are written as lists under the existing key',
      skill: { name: 'changed', allowedTools: ['Write'], frontmatter: { allowed_tools: 'Read' } },
      text: '---\nname: changed\nallowed_tools:\n  - Write\n---\n',
    },
    {
      title: 'a null name falls back to the frontmatter value (a number stays a number)',
      skill: { name: null, frontmatter: { name: 2048 } },
      text: '---\nname: 2048\n---\n',
    },
    {
      title: 'nothing to write gives an empty frontmatter',
      skill: { name: null },
      text: '---\n---\n',
    },
  ])('$title', ({ skill, text }) => {
    expect(serializeSkillMd(skill)).toBe(text);
  });

  it('round-trips a parsed skill', () => {
    const source =
      '---\nname: round\ndescription: "Trip: there and back"\ntags: [a, b]\nallowed-tools: Read Bash(git:*)\n' +
      'metadata:\n  author: me\n  version: "2"\n---\n\n# Round\n';
    const first = parseSkillMd(source).skill;
    const text = serializeSkillMd(first);
    expect(parseSkillMd(text).skill).toEqual(first);
    expect(serializeSkillMd(parseSkillMd(text).skill)).toBe(text);
  });

  it('throws a TypeError for a non-object', () => {
    expect(() => serializeSkillMd(null as never)).toThrow(TypeError);
  });
});

describe('skillMdFromStructured', () => {
  it.each<{ title: string; input: StructuredSkill; text: string }>([
    {
      title: 'content is the body; extra keys are kept in order after the leading keys',
      input: {
        name: 'search-web',
        description: 'Search the web',
        content: '# search-web\n',
        version: '1.0',
        author: 'me',
      },
      text: '---\nname: search-web\ndescription: Search the web\nversion: "1.0"\nauthor: me\n---\n\n# search-web\n',
    },
    {
      title: 'tags and allowed_tools strings are split; allowed_tools is written allowed-tools',
      input: { name: 's', description: 'd', tags: 'a, b', allowed_tools: 'Bash(git add:*) Read' },
      text: '---\nname: s\ndescription: d\ntags:\n  - a\n  - b\nallowed-tools:\n  - Bash(git add:*)\n  - Read\n---\n',
    },
    {
      title: 'a full SKILL.md in content that agrees with the fields is kept byte for byte',
      input: { name: 'full', content: '\ufeff---\r\nname: full\r\ndescription: d\r\n---\r\nbody\r\n' },
      text: '\ufeff---\r\nname: full\r\ndescription: d\r\n---\r\nbody\r\n',
    },
    {
      title: 'given fields override a full SKILL.md in content',
      input: { name: 'renamed', content: '---\nname: full\ndescription: d\nlicense: MIT\n---\nbody\n' },
      text: '---\nname: renamed\ndescription: d\nlicense: MIT\n---\n\nbody\n',
    },
    {
      title: 'a full SKILL.md whose YAML is broken is returned as is (the validator reports it)',
      input: { name: 'x', content: '---\nname: [x\n---\n' },
      text: '---\nname: [x\n---\n',
    },
  ])('$title', ({ input, text }) => {
    expect(skillMdFromStructured(input)).toBe(text);
  });

  it('throws a TypeError for a non-object', () => {
    expect(() => skillMdFromStructured(['a'] as never)).toThrow(/expected an object/);
  });

  it('refuses a content that is not text with INVALID_ARGUMENT naming the field', () => {
    try {
      skillMdFromStructured({ name: 'x', content: 42 as unknown as string });
      expect.unreachable();
    } catch (error) {
      expect(isSkillportError(error) && error.code).toBe('INVALID_ARGUMENT');
      expect(isSkillportError(error) && error.details).toEqual({ field: 'content' });
    }
  });
});
