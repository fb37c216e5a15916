// Every fixture under test/fixtures/{valid,invalid}/<case>/SKILL.md, with the expected reading
// written by hand from the fixture's bytes.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseSkillMd, type SkillIssue, validateSkill } from '../../src/index.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

function read(kind: 'valid' | 'invalid', name: string): string {
  return readFileSync(join(fixtures, kind, name, 'SKILL.md'), 'utf8');
}

/** The parts of an issue a case pins (message checked by a substring). */
interface ExpectedIssue {
  rule: string;
  severity: SkillIssue['severity'];
  field: string | null;
  line?: number;
  column?: number;
  fix?: string;
  says?: string;
}

interface ValidCase {
  name: string;
  description: string;
  body: string;
  tags?: string[];
  allowedTools?: string[];
  frontmatter?: Record<string, unknown>;
  issues?: ExpectedIssue[];
}

const valid: Record<string, ValidCase> = {
  'bom-crlf': {
    name: 'bom-crlf',
    description: 'A skill saved by Windows Notepad with a BOM and CRLF line endings',
    tags: ['windows', 'encoding'],
    body: '\r\n# BOM and CRLF\r\n\r\nBody line.\r\n',
  },
  'cr-only': {
    name: 'cr-only',
    description: 'A skill with classic Mac OS line endings (a lone CR)',
    body: '\r# CR only\r',
  },
  'mixed-eol': {
    name: 'mixed-eol',
    description: 'A skill whose lines end with CRLF and LF alike',
    body: '\n# Mixed\r\n',
  },
  'fence-trailing-spaces': {
    name: 'fence-trailing-spaces',
    description: 'Both fences carry trailing blanks that editors leave',
    body: '\n# Trailing blanks\n',
  },
  'closing-fence-at-eof': {
    name: 'closing-fence-at-eof',
    description: 'The closing fence is the last line, with no newline after it',
    body: '',
  },
  'dashes-in-values': {
    name: 'dashes-in-values',
    description: 'A block scalar whose text has a separator line:\n---\nand goes on after it.\n',
    body: '\n# Body\n\nA horizontal rule follows.\n\n---\n\nAfter the rule.\n',
    frontmatter: {
      summary: 'a quoted value that spans lines --- and still goes on',
      inline: 'before --- after',
      folded: 'folded text\n ---\nmore folded text',
    },
  },
  'block-scalars': {
    name: 'block-scalars',
    description: 'Literal description.\nSecond line.\n',
    body: '# Block scalars\n',
    frontmatter: { keep: 'no trailing newline', fold: 'folded into one line\n' },
  },
  'quoted-colons': {
    name: 'quoted-colons',
    description: 'Use when: the user asks for reports. Trigger words: pdf, docx',
    body: '\n# Quoted colons\n',
    frontmatter: { note: 'single: quoted' },
  },
  'lists-and-maps': {
    name: 'lists-and-maps',
    description: 'Lists in flow and block style and nested maps in the frontmatter',
    tags: ['pdf', 'reports', 'forms'],
    allowedTools: ['Read', 'Bash(git add:*)', 'Write'],
    body: '\n# Lists and maps\n',
    frontmatter: {
      metadata: { author: 'example', version: '1.0', nested: { deep: 'value', list: [1, 2] } },
    },
  },
  'allowed-tools-string': {
    name: 'allowed-tools-string',
    description: 'Allowed tools and tags written as strings instead of lists',
    allowedTools: ['Bash(git add:*)', 'Read', 'Write'],
    tags: ['pdf', 'reports'],
    body: '\n# Strings\n',
    frontmatter: { 'allowed-tools': 'Bash(git add:*) Read, Write', tags: 'pdf, reports' },
  },
  'allowed-tools-underscore': {
    name: 'allowed-tools-underscore',
    description: 'The snake_case spelling of the allowed tools key, as a comma string',
    allowedTools: ['Read', 'Grep', 'Bash(npm run test, lint)'],
    body: '\n# Underscore\n',
  },
  'unquoted-colon': {
    name: 'unquoted-colon',
    description: 'Helps with reports. Trigger words: pdf, docx',
    body: '\n# Unquoted colon\n',
    frontmatter: { license: 'MIT' },
    issues: [
      {
        rule: 'yaml_unquoted_colon',
        severity: 'warning',
        field: 'description',
        line: 3,
        column: 14,
        fix: '"Helps with reports. Trigger words: pdf, docx"',
        says: 'nested mapping',
      },
    ],
  },
  'core-schema-strings': {
    name: 'core-schema-strings',
    description: 'Values that YAML 1.1 would turn into booleans or dates stay strings',
    body: '',
    frontmatter: { interactive: 'yes', switch: 'on', released: '2024-01-15', version: 1.1, enabled: true },
  },
};

function expectIssues(actual: SkillIssue[], expected: ExpectedIssue[]): void {
  expect(actual).toHaveLength(expected.length);
  expected.forEach((want, i) => {
    const got = actual[i] as SkillIssue;
    const { says, ...shape } = want;
    expect(got).toMatchObject(shape);
    if (want.line === undefined) expect(got.line).toBeUndefined();
    if (says !== undefined) expect(got.message).toContain(says);
  });
}

describe('valid fixtures', () => {
  it.each(Object.entries(valid))('%s', (dir, want) => {
    const { skill, issues, hasFrontmatter } = parseSkillMd(read('valid', dir));
    expect(hasFrontmatter).toBe(true);
    expect(skill.name).toBe(want.name);
    expect(skill.description).toBe(want.description);
    expect(skill.body).toBe(want.body);
    expect(skill.tags).toEqual(want.tags ?? []);
    expect(skill.allowedTools).toEqual(want.allowedTools ?? []);
    expect(skill.frontmatter).toMatchObject(want.frontmatter ?? {});
    expectIssues(issues, want.issues ?? []);
    const verdict = validateSkill(read('valid', dir), { dirName: dir });
    expect(verdict.errors).toEqual([]);
    expect(verdict.valid).toBe(true);
  });
});

interface InvalidCase {
  hasFrontmatter: boolean;
  /** The issues of parseSkillMd. */
  parse: ExpectedIssue[];
  /** Rule ids of validateSkill's errors (profile openviking, not strict). */
  errors: string[];
  name?: string | null;
  body?: string;
}

const invalid: Record<string, InvalidCase> = {
  'no-frontmatter': {
    hasFrontmatter: false,
    parse: [
      { rule: 'yaml_format', severity: 'error', field: null, line: 1, column: 1, says: 'No frontmatter' },
    ],
    errors: ['yaml_format'],
    body: '# Just Markdown\n\nNo frontmatter here.\n',
  },
  // An MCP tool definition saved or sent as SKILL.md text: the error says how to send it instead.
  'mcp-tool-json': {
    hasFrontmatter: false,
    parse: [
      {
        rule: 'yaml_format',
        severity: 'error',
        field: null,
        line: 1,
        column: 1,
        says: 'it looks like an MCP tool definition (JSON with "inputSchema"): add it as a tool',
      },
    ],
    errors: ['yaml_format'],
  },
  empty: {
    hasFrontmatter: false,
    parse: [{ rule: 'yaml_format', severity: 'error', field: null, line: 1, column: 1, says: 'empty' }],
    errors: ['yaml_format'],
    body: '',
  },
  unclosed: {
    hasFrontmatter: false,
    parse: [
      { rule: 'yaml_format', severity: 'error', field: null, line: 1, column: 1, says: 'never closed' },
    ],
    errors: ['yaml_format'],
  },
  // YAML's document end marker "..." is not a fence: SKILL.md closes its frontmatter with "---" (the
  // Agent Skills format); the error names the line and the fix instead of "never closed".
  'document-end-marker': {
    hasFrontmatter: false,
    parse: [
      {
        rule: 'yaml_format',
        severity: 'error',
        field: null,
        line: 4,
        column: 1,
        fix: '---',
        says: 'line 4 is "...", YAML\'s document end marker; close the frontmatter with "---"',
      },
    ],
    errors: ['yaml_format'],
  },
  // The same marker with a "---" later in the body (a horizontal rule): the text between them is not
  // YAML, and the error says which line to change rather than only "multiple documents".
  'document-end-marker-then-fence': {
    hasFrontmatter: true,
    parse: [
      {
        rule: 'yaml_format',
        severity: 'error',
        field: null,
        line: 6,
        column: 1,
        says: 'Line 4 is "...", YAML\'s document end marker; close the frontmatter with "---"',
      },
    ],
    errors: ['yaml_format'],
  },
  // The marker, then only comment lines (or none) before a "---": YAML reads the comments after the
  // document's end and the "---" as the fence, so the frontmatter looked closed and the comment lines
  // (the body's first heading) were dropped. The verdict is the marker's: refused at its line.
  'document-end-marker-then-comments': {
    hasFrontmatter: false,
    body: read('invalid', 'document-end-marker-then-comments'),
    parse: [
      {
        rule: 'yaml_format',
        severity: 'error',
        field: null,
        line: 4,
        column: 1,
        fix: '---',
        says: 'line 4 is "...", YAML\'s document end marker; close the frontmatter with "---"',
      },
    ],
    errors: ['yaml_format'],
  },
  'document-end-marker-before-fence': {
    hasFrontmatter: false,
    body: read('invalid', 'document-end-marker-before-fence'),
    parse: [
      {
        rule: 'yaml_format',
        severity: 'error',
        field: null,
        line: 4,
        column: 1,
        fix: '---',
        says: 'line 4 is "...", YAML\'s document end marker; close the frontmatter with "---"',
      },
    ],
    errors: ['yaml_format'],
  },
  'indented-closing-fence': {
    hasFrontmatter: false,
    parse: [
      {
        rule: 'yaml_format',
        severity: 'error',
        field: null,
        line: 1,
        column: 1,
        says: 'Line 5 has an indented "---"',
      },
    ],
    errors: ['yaml_format'],
  },
  'four-dash-opening': {
    hasFrontmatter: false,
    parse: [
      { rule: 'yaml_format', severity: 'error', field: null, line: 1, column: 1, says: 'line 1 is "----"' },
    ],
    errors: ['yaml_format'],
  },
  'not-a-mapping': {
    hasFrontmatter: true,
    parse: [{ rule: 'yaml_format', severity: 'error', field: null, line: 2, column: 1, says: 'got a list' }],
    errors: ['yaml_format'],
  },
  'yaml-syntax': {
    hasFrontmatter: true,
    parse: [
      {
        rule: 'yaml_format',
        severity: 'error',
        field: 'dependencies',
        line: 4,
        column: 19,
        says: 'flow sequence',
      },
    ],
    errors: ['yaml_format'],
    name: 'yaml-syntax',
  },
  'allowed-tools-map': {
    hasFrontmatter: true,
    parse: [
      {
        rule: 'allowed_tools_invalid',
        severity: 'error',
        field: 'allowed-tools',
        line: 5,
        column: 3,
        says: 'got a mapping',
      },
    ],
    errors: ['allowed_tools_invalid'],
    name: 'allowed-tools-map',
  },
  'tags-number': {
    hasFrontmatter: true,
    parse: [
      {
        rule: 'tags_invalid',
        severity: 'error',
        field: 'tags',
        line: 4,
        column: 7,
        says: 'got a number ("42")',
      },
    ],
    errors: ['tags_invalid'],
  },
  'duplicate-name': {
    hasFrontmatter: true,
    parse: [
      {
        rule: 'yaml_duplicate_key',
        severity: 'error',
        field: 'name',
        line: 4,
        column: 1,
        says: 'lines 2 and 4',
      },
    ],
    errors: ['yaml_duplicate_key'],
    name: 'second-name',
  },
  'missing-name': { hasFrontmatter: true, parse: [], errors: ['name_required'], name: null },
  'name-not-string': { hasFrontmatter: true, parse: [], errors: ['name_required'], name: null },
  'alias-star': {
    hasFrontmatter: true,
    parse: [
      { rule: 'yaml_format', severity: 'error', field: 'allowed-tools', line: 4, column: 16, says: 'alias' },
    ],
    errors: ['yaml_format'],
  },
};

describe('invalid fixtures', () => {
  it.each(Object.entries(invalid))('%s', (dir, want) => {
    const text = read('invalid', dir);
    const { skill, issues, hasFrontmatter } = parseSkillMd(text);
    expect(hasFrontmatter).toBe(want.hasFrontmatter);
    expectIssues(issues, want.parse);
    if (want.name !== undefined) expect(skill.name).toBe(want.name);
    if (want.body !== undefined) expect(skill.body).toBe(want.body);
    const verdict = validateSkill(text);
    expect(verdict.valid).toBe(false);
    expect(verdict.errors.map((e) => e.rule)).toEqual(want.errors);
  });

  it('name-not-string says the name must be a string, at the value', () => {
    const [error] = validateSkill(read('invalid', 'name-not-string')).errors;
    expect(error).toMatchObject({ rule: 'name_required', field: 'name', line: 2, column: 7 });
    expect(error?.message).toContain('must be a string, got a number ("2048")');
  });
});

describe('fixture tables', () => {
  it.each([
    ['valid', valid],
    ['invalid', invalid],
  ] as const)('cover every folder under %s/', (kind, table) => {
    expect(readdirSync(join(fixtures, kind)).sort()).toEqual(Object.keys(table).sort());
  });
});
