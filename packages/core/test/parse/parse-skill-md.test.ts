import { describe, expect, it } from 'vitest';
import { type ParsedSkill, parseSkillMd, type SkillIssue } from '../../src/index.js';

type Pinned = Pick<SkillIssue, 'rule' | 'severity' | 'field'> &
  Partial<Pick<SkillIssue, 'line' | 'column' | 'fix'>>;

interface Case {
  text: string;
  skill?: Partial<ParsedSkill>;
  issues?: Pinned[];
  hasFrontmatter?: boolean;
}

const fm = (...lines: string[]): string => ['---', ...lines, '---', '', '# Body', ''].join('\n');

const cases: Record<string, Case> = {
  'empty frontmatter is an empty mapping': {
    text: '---\n---\n',
    skill: { name: null, description: null, frontmatter: {}, body: '' },
  },
  'comment-only frontmatter is an empty mapping': {
    text: '---\n# nothing yet\n---\nbody',
    skill: { frontmatter: {}, body: 'body' },
  },
  '"---x" is not a fence; a fence may have trailing blanks': {
    text: '---\nname: a\ndescription: b\n---x: 1\n---   \nafter',
    skill: {
      name: 'a',
      description: 'b',
      frontmatter: { name: 'a', description: 'b', '---x': 1 },
      body: 'after',
    },
  },
  'a "---" inside a one-line value does not split': {
    text: fm('name: a --- b', 'description: "c --- d"'),
    skill: { name: 'a --- b', description: 'c --- d', body: '\n# Body\n' },
  },
  'a "---" line inside an open quoted value ends the frontmatter, and the error says so': {
    text: '---\nname: q\ndescription: "first line\n---\nstill description"\n---\nbody\n',
    skill: { name: 'q', body: 'still description"\n---\nbody\n' },
    issues: [{ rule: 'yaml_format', severity: 'error', field: 'description', line: 3, column: 24 }],
  },
  'BOM + CRLF: errors are located in the original lines': {
    text: '\ufeff---\r\nname: x\r\ndescription: [a\r\n---\r\nbody\r\n',
    skill: { name: 'x', body: 'body\r\n' },
    issues: [{ rule: 'yaml_format', severity: 'error', field: 'description', line: 3, column: 15 }],
  },
  'columns count code points (an emoji is one column)': {
    text: fm('name: emoji', 'description: d', 'tags: [😀, @x]'),
    issues: [{ rule: 'yaml_format', severity: 'error', field: 'tags', line: 4, column: 11 }],
  },
  'an unquoted ": " is recovered, continuation lines folded in': {
    text: fm('name: colon', 'description: Use when: a', '  continues here', 'license: MIT'),
    skill: {
      description: 'Use when: a continues here',
      frontmatter: { name: 'colon', description: 'Use when: a continues here', license: 'MIT' },
    },
    issues: [
      {
        rule: 'yaml_unquoted_colon',
        severity: 'warning',
        field: 'description',
        line: 3,
        column: 14,
        fix: '"Use when: a continues here"',
      },
    ],
  },
  'a ": " on a continuation line is recovered with the whole value': {
    text: fm('name: cont', 'description: This skill helps', '  with things. Trigger: pdf'),
    skill: { description: 'This skill helps with things. Trigger: pdf' },
    issues: [{ rule: 'yaml_unquoted_colon', severity: 'warning', field: 'description', line: 3, column: 14 }],
  },
  'a mistake the parser reports several ways on one line is one issue': {
    text: fm('name: once', 'description: "quoted" then: more'),
    issues: [{ rule: 'yaml_format', severity: 'error', field: 'description', line: 3, column: 14 }],
  },
  'an unquoted ": " in a nested value is recovered and named by its path': {
    text: fm('name: nested', 'description: d', 'metadata:', '  short-description: Install: things'),
    skill: {
      frontmatter: { name: 'nested', description: 'd', metadata: { 'short-description': 'Install: things' } },
    },
    issues: [
      {
        rule: 'yaml_unquoted_colon',
        severity: 'warning',
        field: 'metadata.short-description',
        line: 5,
        column: 22,
      },
    ],
  },
  'top-level and nested mistakes in one file are all recovered, reported in reading order': {
    text: fm('name: both', 'description: Use when: x', 'metadata:', '  short: Install: it', 'note: @here'),
    skill: {
      frontmatter: {
        name: 'both',
        description: 'Use when: x',
        metadata: { short: 'Install: it' },
        note: '@here',
      },
    },
    issues: [
      { rule: 'yaml_unquoted_colon', severity: 'warning', field: 'description', line: 3, column: 14 },
      { rule: 'yaml_unquoted_colon', severity: 'warning', field: 'metadata.short', line: 5, column: 10 },
      { rule: 'yaml_reserved_indicator', severity: 'warning', field: 'note', line: 6, column: 7 },
    ],
  },
  'a value starting with "`" is recovered': {
    text: fm('name: tick', 'description: `npm test` runner'),
    skill: { description: '`npm test` runner' },
    issues: [
      { rule: 'yaml_reserved_indicator', severity: 'warning', field: 'description', line: 3, column: 14 },
    ],
  },
  'key: a: b inside a block scalar is text, not a mistake': {
    text: fm('name: block', 'description: |', '  Trigger: a: b', '  Use when: c'),
    skill: { description: 'Trigger: a: b\nUse when: c\n' },
  },
  'a frontmatter that is a string is a yaml_format error': {
    text: '---\njust text\n---\n',
    issues: [{ rule: 'yaml_format', severity: 'error', field: null, line: 2, column: 1 }],
    skill: { frontmatter: {}, name: null },
  },
  'the same key twice with the same value is a warning': {
    text: fm('name: dup', 'description: d', 'license: MIT', 'license: MIT'),
    issues: [{ rule: 'yaml_duplicate_key', severity: 'warning', field: 'license', line: 5, column: 1 }],
  },
  'an ordinary key twice with different values: warning, the last wins': {
    text: fm('name: dup', 'description: d', 'version: 1', 'version: 2'),
    skill: { frontmatter: { name: 'dup', description: 'd', version: 2 } },
    issues: [{ rule: 'yaml_duplicate_key', severity: 'warning', field: 'version', line: 5, column: 1 }],
  },
  'allowed-tools twice with different values is an error': {
    text: fm('name: dup', 'description: d', 'allowed-tools: Read', 'allowed-tools: Read Bash'),
    issues: [{ rule: 'yaml_duplicate_key', severity: 'error', field: 'allowed-tools', line: 5, column: 1 }],
  },
  'a duplicate key in a nested mapping is a warning': {
    text: fm('name: dup', 'description: d', 'metadata:', '  a: 1', '  a: 2'),
    issues: [{ rule: 'yaml_duplicate_key', severity: 'warning', field: 'metadata.a', line: 6, column: 3 }],
  },
  'a duplicate key in a nested flow mapping is a warning': {
    text: fm('name: dup', 'description: d', 'metadata: {a: 1, a: 2}'),
    issues: [{ rule: 'yaml_duplicate_key', severity: 'warning', field: 'metadata', line: 4, column: 18 }],
  },
  'a duplicate key in a mapping inside a list is a warning': {
    text: fm('name: dup', 'description: d', 'steps:', '  - a: 1', '    a: 2'),
    issues: [{ rule: 'yaml_duplicate_key', severity: 'warning', field: 'steps.a.a', line: 6, column: 5 }],
  },
  'the same key in two sibling mappings is no duplicate': {
    text: fm('name: dup', 'description: d', 'x:', '  a: 1', 'y:', '  a: 2'),
    issues: [],
  },
  'allowed-tools and allowed_tools that differ are an error; both lists are kept': {
    text: fm('name: both', 'description: d', 'allowed-tools: Read', 'allowed_tools: [Read, Bash]'),
    skill: { allowedTools: ['Read', 'Bash'] },
    issues: [
      { rule: 'allowed_tools_conflict', severity: 'error', field: 'allowed_tools', line: 5, column: 16 },
    ],
  },
  'allowed-tools and allowed_tools that agree are a warning': {
    text: fm('name: both', 'description: d', 'allowed-tools: Read Bash', 'allowed_tools: [Read, Bash]'),
    skill: { allowedTools: ['Read', 'Bash'] },
    issues: [{ rule: 'allowed_tools_conflict', severity: 'warning', field: 'allowed_tools' }],
  },
  'three spellings of the allowed tools: each later one compared with the first': {
    text: fm(
      'name: three',
      'description: d',
      'allowed-tools: Read',
      'allowed_tools: [Bash]',
      'allowedTools: [Read]',
    ),
    skill: { allowedTools: ['Read', 'Bash'] },
    issues: [
      { rule: 'allowed_tools_conflict', severity: 'error', field: 'allowed_tools', line: 5 },
      { rule: 'allowed_tools_spelling', severity: 'warning', field: 'allowedTools', line: 6 },
      { rule: 'allowed_tools_conflict', severity: 'warning', field: 'allowedTools', line: 6 },
    ],
  },
  'list items: numbers become strings, a null item is an error naming the field': {
    text: fm(
      'name: items',
      'description: d',
      'tags: [ai, 2024, true]',
      'allowed-tools:',
      '  - Read',
      '  -',
      '  - Write',
    ),
    skill: { tags: ['ai', '2024', 'true'], allowedTools: ['Read', 'Write'] },
    issues: [
      { rule: 'allowed_tools_invalid', severity: 'error', field: 'allowed-tools', line: 6, column: 3 },
    ],
  },
  'allowed-tools as a number is an error, never dropped silently': {
    text: fm('name: num', 'description: d', 'allowed-tools: 5'),
    skill: { allowedTools: [] },
    issues: [
      { rule: 'allowed_tools_invalid', severity: 'error', field: 'allowed-tools', line: 4, column: 16 },
    ],
  },
  'empty allowed-tools and tags are empty lists': {
    text: fm('name: e', 'description: d', 'allowed-tools:', 'tags: ""'),
    skill: { allowedTools: [], tags: [] },
  },
  'an unknown tag is a warning and the value stays': {
    text: fm('name: tagged', 'description: !custom d'),
    skill: { description: 'd' },
    issues: [{ rule: 'yaml_warning', severity: 'warning', field: 'description', line: 3, column: 14 }],
  },
  'aliases that expand too much are a yaml_format error, not a crash': {
    text: fm(
      'name: bomb',
      'description: d',
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]',
    ),
    issues: [{ rule: 'yaml_format', severity: 'error', field: null, line: 2, column: 1 }],
  },
  'an alias inside its own anchor is a yaml_format error (no JSON consumer could hold it)': {
    text: fm('name: cycle', 'description: d', 'a: &x', '  b: *x'),
    issues: [{ rule: 'yaml_format', severity: 'error', field: null, line: 2, column: 1 }],
  },
  'an alias used twice (no cycle) is fine': {
    text: fm('name: shared', 'description: d', 'a: &x [1, 2]', 'b: *x'),
    skill: { frontmatter: { name: 'shared', description: 'd', a: [1, 2], b: [1, 2] } },
  },
  'a syntax error inside a nested value names the path of its key': {
    text: fm(
      'name: nested',
      'description: d',
      'metadata:',
      '  triggers:',
      '    keywords: [@Injected, Resolver]',
    ),
    issues: [
      { rule: 'yaml_format', severity: 'error', field: 'metadata.triggers.keywords', line: 6, column: 16 },
    ],
  },
  'a stray list item belongs to no field': {
    text: fm('name: stray', '- item'),
    issues: [{ rule: 'yaml_format', severity: 'error', field: null, line: 3, column: 1 }],
  },
  'a long unclosed document is reported at the opening fence': {
    text: `---\nname: a\n${'text\n'.repeat(2000)}`,
    hasFrontmatter: false,
    issues: [{ rule: 'yaml_format', severity: 'error', field: null, line: 1, column: 1 }],
  },
  'text after leading blank lines is not frontmatter': {
    text: '\n---\nname: a\ndescription: b\n---\n',
    hasFrontmatter: false,
    issues: [{ rule: 'yaml_format', severity: 'error', field: null, line: 2, column: 1 }],
  },
};

describe('parseSkillMd', () => {
  it.each(Object.entries(cases))('%s', (_title, c) => {
    const result = parseSkillMd(c.text);
    expect(result.hasFrontmatter).toBe(c.hasFrontmatter ?? true);
    if (c.skill) expect(result.skill).toMatchObject(c.skill);
    const issues = c.issues ?? [];
    expect(result.issues.map((i) => i.rule)).toEqual(issues.map((i) => i.rule));
    issues.forEach((want, i) => {
      expect(result.issues[i]).toMatchObject(want);
    });
  });

  it('keeps a __proto__ key as data without touching prototypes', () => {
    const { skill } = parseSkillMd(fm('name: proto', 'description: d', '__proto__:', '  polluted: true'));
    expect(Object.hasOwn(skill.frontmatter, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reports at most three located errors for a large broken frontmatter (5,000 bad lines)', () => {
    const lines = Array.from({ length: 5_000 }, (_, i) => `key${i}: [unclosed ${i}`);
    const { issues } = parseSkillMd(fm('name: big', ...lines), { maxFrontmatterLength: Infinity });
    expect(issues.map((i) => i.rule)).toEqual(['yaml_format', 'yaml_format', 'yaml_format']);
    expect(issues[0]?.line).toBe(3);
  });

  // Hostile sizes (about 1 MB of frontmatter): linear time, and no RangeError from a spread of
  // 150 000 error offsets — parseSkillMd never throws on bad input.
  it.each([
    ['60,000 distinct keys', Array.from({ length: 60_000 }, (_, i) => `k${i}: v`), []],
    ['60,000 nested keys', ['metadata:', ...Array.from({ length: 60_000 }, (_, i) => `  k${i}: v`)], []],
    ['150,000 unclosed flow lists', Array.from({ length: 150_000 }, () => 'a: ['), ['yaml_format']],
  ])(
    'reads %s quickly and without throwing',
    (_label, lines, rules) => {
      // Quadratic duplicate-key checks took 80 s per row here, past this test's 60 s timeout; linear
      // work takes a few seconds. Speed itself is measured by the parse bench, not asserted here.
      const { issues } = parseSkillMd(fm('name: big', 'description: d', lines.join('\n')), {
        maxFrontmatterLength: Infinity,
      });
      expect([...new Set(issues.map((i) => i.rule))]).toEqual(rules);
    },
    60_000,
  );

  it.each([
    ['the default bound (64 Ki characters)', undefined, 70_000, 65_536],
    ['a bound given by the caller', 1_000, 2_000, 1_000],
  ])('refuses a frontmatter longer than %s without parsing it', (_label, max, size, limit) => {
    const filler = `x: "${'a'.repeat(size)}"`;
    const text = `${fm('name: big', 'description: A frontmatter far too large to read', filler)}`;
    const result = parseSkillMd(text, max === undefined ? {} : { maxFrontmatterLength: max });
    expect(result.hasFrontmatter).toBe(true);
    expect(result.skill.name).toBeNull();
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]).toMatchObject({ rule: 'frontmatter_too_large', severity: 'error', field: null });
    expect(result.issues[0]?.message).toContain(`at most ${limit} are read`);
  });

  it('reads a frontmatter just under the bound', () => {
    const text = fm(
      'name: ok',
      'description: Just under the bound of the frontmatter',
      `x: ${'a'.repeat(900)}`,
    );
    expect(parseSkillMd(text, { maxFrontmatterLength: 1_000 }).skill.name).toBe('ok');
  });

  it('throws a TypeError only for a non-string argument', () => {
    expect(() => parseSkillMd(42 as unknown as string, { path: 'x/SKILL.md' })).toThrow(/x\/SKILL\.md/);
  });

  it('explains a quoted value cut by the closing fence', () => {
    const { issues } = parseSkillMd('---\nname: q\ndescription: "first line\n---\nrest"\n---\n');
    expect(issues[0]?.message).toContain('still open at the closing "---" on line 4');
  });

  it('names what it expected in the no-frontmatter message', () => {
    const [issue] = parseSkillMd('# Title\n').issues;
    expect(issue?.message).toMatch(/line 1 is "# Title".*starts with a line "---"/);
  });
});
