import { describe, expect, it } from 'vitest';
import {
  isSkillportError,
  parseSkillMd,
  type SkillIssue,
  ValidateSkillResultSchema,
  type ValidationProfile,
  validateAndParseSkillMd,
  validateSkill,
} from '../../src/index.js';

const GOOD_DESCRIPTION = 'Extract text and tables from PDF files; use when the user mentions PDFs';

/** A SKILL.md with the given frontmatter lines and body. */
function skillMd(lines: string[], body = '\n# Body\n'): string {
  return `---\n${lines.join('\n')}\n---\n${body}`;
}

const named = (name: string, ...more: string[]): string =>
  skillMd([`name: ${name}`, `description: ${GOOD_DESCRIPTION}`, ...more]);

interface Case {
  text: string;
  profile?: ValidationProfile;
  dirName?: string;
  /** Rules of errors and warnings, not strict. */
  errors?: string[];
  warnings?: string[];
  /** Rules of errors and warnings with strict: true (default: as above). */
  strictErrors?: string[];
  strictWarnings?: string[];
  /** Pinned details of the first issue (errors first). */
  first?: Partial<SkillIssue>;
}

const rules = (issues: SkillIssue[]): string[] => issues.map((i) => i.rule);

const openviking: Record<string, Case> = {
  'a good skill has no issue': { text: named('pdf-tools') },
  'missing description': {
    text: skillMd(['name: pdf-tools']),
    errors: ['description_required'],
    // A missing key is located at the frontmatter's opening `---`.
    first: { field: 'description', severity: 'error', line: 1, column: 1 },
  },
  'blank name': {
    text: skillMd(['name: "  "', `description: ${GOOD_DESCRIPTION}`]),
    errors: ['name_required'],
    first: { line: 2, column: 7 },
  },
  'name that is a list': { text: named('[a, b]'), errors: ['name_required'] },
  'name with a space: add refuses it (warning; strict error) and it is not kebab-case': {
    text: named('My Skill'),
    warnings: ['name_allowed_characters', 'name_kebab_case'],
    strictErrors: ['name_allowed_characters'],
    strictWarnings: ['name_kebab_case'],
    first: { rule: 'name_allowed_characters', fix: 'my-skill', line: 2, column: 7 },
  },
  'name of 65 characters': {
    text: named('a'.repeat(65)),
    warnings: ['name_max_length'],
    strictErrors: ['name_max_length'],
    strictWarnings: [],
    first: { fix: 'a'.repeat(64) },
  },
  'name of 64 characters is fine': { text: named('a'.repeat(64)) },
  'snake_case name is allowed by add but not kebab-case': {
    text: named('pdf_tools'),
    warnings: ['name_kebab_case'],
    first: { fix: 'pdf-tools' },
  },
  'leading hyphen: add accepts it (OpenViking does), but command lines read it as an option': {
    text: named('"-pdf-tools"'),
    warnings: ['name_leading_hyphen', 'name_kebab_case'],
    strictErrors: ['name_leading_hyphen'],
    strictWarnings: ['name_kebab_case'],
    first: { rule: 'name_leading_hyphen', fix: 'pdf-tools', line: 2, column: 7 },
  },
  'a device name Windows reserves cannot be installed there': {
    text: named('NUL'),
    warnings: ['name_reserved_filename', 'name_kebab_case'],
    strictErrors: ['name_reserved_filename'],
    strictWarnings: ['name_kebab_case'],
    first: { rule: 'name_reserved_filename', line: 2, column: 7 },
  },
  'a name that merely starts like a device name is fine': { text: named('console-tools') },
  'blanks around the name: add trims them': {
    text: named('" pdf-tools "'),
    warnings: ['name_whitespace'],
    first: { fix: 'pdf-tools' },
  },
  // Only ASCII blanks are trimmed: an invisible character is part of the name that an agent reads
  // from the stored SKILL.md, so add refuses the name rather than store another one.
  ...Object.fromEntries(
    [
      ['a no-break space', '\u00a0pdf-tools\u00a0'],
      ['a byte order mark', '\ufeffpdf-tools'],
      ['a line separator', 'pdf-tools\u2028'],
    ].map(([what, name]) => [
      `${what} around the name is not a blank: add refuses it`,
      {
        text: named(name as string),
        warnings: ['name_allowed_characters', 'name_kebab_case'],
        strictErrors: ['name_allowed_characters'],
        strictWarnings: ['name_kebab_case'],
        first: { rule: 'name_allowed_characters', fix: 'pdf-tools', line: 2, column: 7 },
      },
    ]),
  ),
  'tabs and line breaks around the name are blanks: add trims them': {
    text: named('"\\tpdf-tools\\n"'),
    warnings: ['name_whitespace'],
    first: { fix: 'pdf-tools' },
  },
  'description of 1024 emoji (2048 UTF-16 units) is within the limit': {
    text: skillMd(['name: emoji', `description: ${'😀'.repeat(1024)}`]),
  },
  'description of 1025 code points': {
    text: skillMd(['name: long', `description: ${'é'.repeat(1025)}`]),
    warnings: ['description_max_length'],
    strictErrors: ['description_max_length'],
    strictWarnings: [],
    first: { line: 3, column: 14 },
  },
  'short description (best practice, never promoted)': {
    text: skillMd(['name: short', 'description: Does PDFs']),
    warnings: ['description_too_short'],
  },
  'body of 501 lines: reported only when strict, as a warning': {
    text: skillMd(['name: long-body', `description: ${GOOD_DESCRIPTION}`], 'line\n'.repeat(501)),
    strictWarnings: ['body_max_lines'],
    first: { field: 'body' },
  },
  'body of 500 lines is fine': {
    text: skillMd(['name: body', `description: ${GOOD_DESCRIPTION}`], 'line\n'.repeat(500)),
  },
  'folder name differs': {
    text: named('pdf-tools'),
    dirName: 'pdf',
    warnings: ['name_matches_directory'],
    strictErrors: ['name_matches_directory'],
    strictWarnings: [],
    first: { fix: 'pdf', line: 2 },
  },
  'folder name that is no valid name (a space): rename the folder, no fix to set "name" to': {
    text: named('pdf-tools'),
    dirName: 'pdf tools',
    warnings: ['name_matches_directory'],
    strictErrors: ['name_matches_directory'],
    strictWarnings: [],
    first: { message: expect.stringContaining('rename the folder to the name instead') },
  },
  'recovered YAML stays a warning under strict openviking': {
    text: skillMd(['name: colon', 'description: Reads PDFs. Trigger words: pdf, form']),
    warnings: ['yaml_unquoted_colon'],
  },
  'unreadable frontmatter reports only yaml_format': {
    text: skillMd(['name: [broken', 'description: d']),
    errors: ['yaml_format'],
  },
};

const agentskills: Record<string, Case> = {
  // As the specification's reference validator (skills-ref) reads names: NFKC, any script's
  // lowercase letters and digits, and "-".
  'a lowercase Chinese name (reference validator accepts it)': {
    text: named('技能-审查'),
    profile: 'agentskills',
    dirName: '技能-审查',
  },
  'a lowercase Cyrillic name': { text: named('мой-навык'), profile: 'agentskills', dirName: 'мой-навык' },
  'full-width letters count as their NFKC form': { text: named('ｐｄｆ-tools'), profile: 'agentskills' },
  'an uppercase Cyrillic letter must be lowercase': {
    text: named('Мой-навык'),
    profile: 'agentskills',
    errors: ['name_allowed_characters'],
    first: { message: '"name" "Мой-навык" must be lowercase (e.g. "pdf-processing").' },
  },
  'punctuation of another script is still refused': {
    text: named('技能。审查'),
    profile: 'agentskills',
    errors: ['name_allowed_characters'],
  },
  'uppercase and underscore': {
    text: named('PDF_Tools'),
    profile: 'agentskills',
    errors: ['name_allowed_characters'],
    first: { fix: 'pdf-tools' },
  },
  'double hyphen': { text: named('pdf--tools'), profile: 'agentskills', errors: ['name_hyphens'] },
  'trailing hyphen': {
    text: named('pdf-'),
    profile: 'agentskills',
    errors: ['name_hyphens'],
    first: { fix: 'pdf' },
  },
  'folder name differs: an error': {
    text: named('pdf-tools'),
    profile: 'agentskills',
    dirName: 'pdf',
    errors: ['name_matches_directory'],
  },
  'compatibility of 501 characters': {
    text: named('compat', `compatibility: ${'x'.repeat(501)}`),
    profile: 'agentskills',
    errors: ['compatibility_max_length'],
  },
  'compatibility of 500 characters is fine': {
    text: named('compat', `compatibility: ${'x'.repeat(500)}`),
    profile: 'agentskills',
  },
  'compatibility as a list': {
    text: named('compat', 'compatibility: [node, python]'),
    profile: 'agentskills',
    errors: ['compatibility_invalid'],
  },
  'metadata with a number and a nested map': {
    text: named('meta', 'metadata:', '  version: 2', '  nested:', '    a: b', '  ok: "yes"'),
    profile: 'agentskills',
    errors: ['metadata_invalid', 'metadata_invalid'],
    first: { field: 'metadata.version', line: 5, column: 12 },
  },
  'metadata as a string': {
    text: named('meta', 'metadata: just text'),
    profile: 'agentskills',
    errors: ['metadata_invalid'],
  },
  'license as a number': {
    text: named('lic', 'license: 2'),
    profile: 'agentskills',
    errors: ['license_invalid'],
  },
  'unknown key: warning, error when strict': {
    text: named('unknown', 'version: 1.0.0'),
    profile: 'agentskills',
    warnings: ['frontmatter_unknown_field'],
    strictErrors: ['frontmatter_unknown_field'],
    strictWarnings: [],
    first: { field: 'version', line: 4 },
  },
  'recovered YAML is an error under strict agentskills': {
    text: skillMd(['name: colon', 'description: Reads PDFs. Trigger words: pdf, form']),
    profile: 'agentskills',
    warnings: ['yaml_unquoted_colon'],
    strictErrors: ['yaml_unquoted_colon'],
    strictWarnings: [],
  },
  'the allowed_tools spelling is unknown to the specification, with the standard key as fix': {
    text: named('alias', 'allowed_tools: Read Grep'),
    profile: 'agentskills',
    warnings: ['frontmatter_unknown_field'],
    strictErrors: ['frontmatter_unknown_field'],
    strictWarnings: [],
    first: { field: 'allowed_tools', fix: 'allowed-tools', line: 4, column: 16 },
  },
  'camelCase allowedTools: one warning, an error when strict': {
    text: named('camel', 'allowedTools: [Read]'),
    profile: 'agentskills',
    warnings: ['allowed_tools_spelling'],
    strictErrors: ['allowed_tools_spelling'],
    strictWarnings: [],
    first: { field: 'allowedTools', fix: 'allowed-tools' },
  },
  'Claude Code keys are unknown to the specification': {
    text: named('hint', 'argument-hint: "[file]"'),
    profile: 'agentskills',
    warnings: ['frontmatter_unknown_field'],
    strictErrors: ['frontmatter_unknown_field'],
    strictWarnings: [],
  },
};

const claude: Record<string, Case> = {
  'reserved word in the name': {
    text: named('claude-helper'),
    profile: 'claude',
    errors: ['name_reserved_word'],
  },
  'reserved word, any case': {
    text: named('My-Anthropic-Tool'),
    profile: 'claude',
    errors: ['name_allowed_characters', 'name_reserved_word'],
  },
  'XML tag in the description': {
    text: skillMd(['name: xml', 'description: Use with <file-path> to read a PDF document']),
    profile: 'claude',
    errors: ['description_xml_tag'],
  },
  'angle brackets that are not a tag are fine': {
    text: skillMd(['name: math', 'description: Compares numbers when a < b and b > c holds']),
    profile: 'claude',
  },
  'Claude Code keys are known': {
    text: named('hint', 'argument-hint: "[file]"', 'model: opus'),
    profile: 'claude',
  },
};

describe('claude profile keeps ASCII names', () => {
  it('refuses a Chinese name the agentskills profile accepts', () => {
    const result = validateSkill(named('技能-审查'), { profile: 'claude', dirName: '技能-审查' });
    expect(rules(result.errors)).toEqual(['name_allowed_characters']);
    expect(result.errors[0]?.message).toMatch(/lowercase letters a–z/);
  });
});

describe.each([
  ['openviking', openviking],
  ['agentskills', agentskills],
  ['claude', claude],
])('profile %s', (_profile, table) => {
  it.each(Object.entries(table))('%s', (_title, c) => {
    const options = {
      ...(c.profile ? { profile: c.profile } : {}),
      ...(c.dirName ? { dirName: c.dirName } : {}),
    };
    const loose = validateSkill(c.text, options);
    expect(rules(loose.errors)).toEqual(c.errors ?? []);
    expect(rules(loose.warnings)).toEqual(c.warnings ?? []);
    expect(loose.valid).toBe((c.errors ?? []).length === 0);
    const strict = validateSkill(c.text, { ...options, strict: true });
    expect(rules(strict.errors)).toEqual(c.strictErrors ?? c.errors ?? []);
    expect(rules(strict.warnings)).toEqual(c.strictWarnings ?? c.warnings ?? []);
    expect(strict.strict).toBe(true);
    if (c.first) {
      const first = [...strict.errors, ...strict.warnings][0] ?? [...loose.errors, ...loose.warnings][0];
      expect(first).toMatchObject(c.first);
    }
  });
});

describe('invisible characters in a name', () => {
  it.each([
    ['\u00a0pdf-tools\u00a0', 'U+00A0'],
    ['\ufeffpdf-tools', 'U+FEFF'],
    ['pdf-tools\u2028', 'U+2028'],
  ])('%j: the message names the character by its code point, and no blank', (name, code) => {
    const { warnings } = validateSkill(named(name));
    const messages = warnings.map((w) => w.message).join('\n');
    expect(messages).toContain(code);
    expect(messages).not.toMatch(/blank/);
    // The excerpt of the name shows the character escaped, not as an invisible one.
    expect(messages).not.toMatch(/[\u00a0\ufeff\u2028]/);
  });
});

describe('validateSkill input and result', () => {
  it('returns the contract result shape (the wire schema accepts it)', () => {
    const result = validateSkill(named('shape', 'tags: [a, b]', 'allowed-tools: Read Bash(git:*)'));
    expect(ValidateSkillResultSchema.parse(result)).toEqual(result);
    expect(result).toEqual({
      valid: true,
      strict: false,
      profile: 'openviking',
      name: 'shape',
      description: GOOD_DESCRIPTION,
      tags: ['a', 'b'],
      allowed_tools: ['Read', 'Bash(git:*)'],
      body_lines: 2,
      errors: [],
      warnings: [],
    });
  });

  it('validates a structured skill without line numbers', () => {
    const result = validateSkill({
      name: 'My Skill',
      description: GOOD_DESCRIPTION,
      content: '# Hi\n',
      tags: 'a, b',
    });
    expect(rules(result.warnings)).toEqual(['name_allowed_characters', 'name_kebab_case']);
    expect(result.warnings[0]?.line).toBeUndefined();
    expect(result.tags).toEqual(['a', 'b']);
    expect(result.body_lines).toBe(2);
  });

  it('locates a missing name at the opening fence, also after a byte-order mark, but not in structured input', () => {
    const text = `\uFEFF---\ndescription: ${GOOD_DESCRIPTION}\n---\nBody\n`;
    expect(validateSkill(text).errors).toEqual([
      expect.objectContaining({ rule: 'name_required', field: 'name', line: 1, column: 1 }),
    ]);
    const structured = validateSkill({ description: GOOD_DESCRIPTION } as unknown as { name: string });
    expect(structured.errors[0]).toMatchObject({ rule: 'name_required' });
    expect(structured.errors[0]).not.toHaveProperty('line');
  });

  it('reports a structured name that is not a string', () => {
    const result = validateSkill({ name: 42 as unknown as string, description: GOOD_DESCRIPTION });
    expect(rules(result.errors)).toEqual(['name_required']);
    expect(result.errors[0]?.message).toContain('must be a string');
  });

  it('locates issues in a full SKILL.md given as structured content', () => {
    const result = validateSkill({ name: 'Bad Name', content: named('Bad Name') });
    expect(result.warnings[0]).toMatchObject({ rule: 'name_allowed_characters', line: 2 });
  });

  it('reports a structured content that is not text, and still checks the rest', () => {
    const result = validateSkill({
      name: 'Bad Name',
      description: GOOD_DESCRIPTION,
      content: { md: '# x' } as unknown as string,
    });
    expect(rules(result.errors)).toEqual(['content_invalid']);
    expect(result.errors[0]).toMatchObject({ field: 'content' });
    expect(result.errors[0]?.message).toContain('got a mapping');
    expect(rules(result.warnings)).toEqual(['name_allowed_characters', 'name_kebab_case']);
  });

  it('never drops structured list fields that are not lists, even over a full SKILL.md', () => {
    const content = named('full', 'allowed-tools: Read');
    const result = validateSkill({ name: 'full', content, allowed_tools: { Bash: true } as never });
    expect(rules(result.errors)).toEqual(['allowed_tools_invalid']);
    expect(rules(validateSkill({ name: 'full', content, tags: 5 as never }).errors)).toEqual([
      'tags_invalid',
    ]);
  });

  it('refuses an unknown profile with INVALID_ARGUMENT', () => {
    try {
      validateSkill(named('x'), { profile: 'strictest' as ValidationProfile });
      expect.unreachable();
    } catch (error) {
      expect(isSkillportError(error) && error.code).toBe('INVALID_ARGUMENT');
    }
  });
});

describe('validateAndParseSkillMd', () => {
  it.each([
    named('pdf-tools'),
    named('Bad Name!', 'tags: [a, b]', 'allowed-tools: Read Grep'),
    skillMd(['name: x', 'description: [unclosed']),
    skillMd(['description: no name here at all, which is an error']),
    '# no frontmatter at all\n',
    `${named('long-body')}${'line\n'.repeat(600)}`,
  ])('gives validateSkill and parseSkillMd of one parse (%#)', (text) => {
    for (const profile of ['openviking', 'agentskills', 'claude'] as const) {
      const both = validateAndParseSkillMd(text, { profile, strict: true, dirName: 'pdf-tools' });
      expect(both.validation).toEqual(validateSkill(text, { profile, strict: true, dirName: 'pdf-tools' }));
      expect(both.skill).toEqual(parseSkillMd(text).skill);
    }
  });
});

describe('a NUL character in the description', () => {
  it.each(['openviking', 'agentskills', 'claude'] as const)(
    'is an error in the %s profile, located',
    (profile) => {
      const text = '---\nname: nul-desc\ndescription: "Reads invoices\\0 and receipts"\n---\nbody\n';
      const result = validateSkill(text, { profile });
      expect(result.valid).toBe(false);
      expect(result.errors).toContainEqual(
        expect.objectContaining({ rule: 'description_nul', field: 'description', line: 3 }),
      );
    },
  );

  it('a structured description too', () => {
    const result = validateSkill({ name: 'nul-desc', description: 'Reads invoices\u0000', content: 'x' });
    expect(result.errors.map((e) => e.rule)).toContain('description_nul');
  });
});

describe('the name verdict under a server name policy (namePolicy)', () => {
  const nulTxt = named('nul.txt');
  const issue = (issues: SkillIssue[], rule: string) => issues.find((i) => i.rule === rule);

  it('unknown policy (the /validate default): a warning whose message says what each policy does', () => {
    const result = validateSkill(nulTxt, { dirName: 'nul.txt' });
    expect(result.valid).toBe(true);
    expect(rules(result.warnings)).toEqual(['name_allowed_characters', 'name_kebab_case']);
    const message = issue(result.warnings, 'name_allowed_characters')?.message;
    expect(message).toContain('Add refuses this name on a server with the default name policy (strict)');
    expect(message).toContain('SKILLPORT_NAME_POLICY=slug stores the skill as "nul-txt"');
    expect(message).not.toMatch(/Add refuses this name\.$/);
    // No slug at all: refused under either policy (still a warning: the OpenViking rule table).
    const cjk = validateSkill(named('検索'));
    expect(issue(cjk.warnings, 'name_allowed_characters')?.message).toContain('under either name policy');
  });

  it('strict: the name rules are errors, as add answers', () => {
    const result = validateSkill(nulTxt, { dirName: 'nul.txt', namePolicy: 'strict' });
    expect(result.valid).toBe(false);
    expect(rules(result.errors)).toEqual(['name_allowed_characters']);
    expect(result.errors[0]).toMatchObject({ line: 2, column: 7, fix: 'nul-txt' });
    expect(result.errors[0]?.message).toMatch(/Add refuses this name \(name policy strict\)\.$/);
    const long = validateSkill(named('a'.repeat(65)), { namePolicy: 'strict' });
    expect(rules(long.errors)).toEqual(['name_max_length']);
  });

  it('slug: a warning naming the stored name; an error when no slug exists', () => {
    const result = validateSkill(named('ElevenLabs Automation'), { namePolicy: 'slug' });
    expect(result.valid).toBe(true);
    const warning = issue(result.warnings, 'name_allowed_characters');
    expect(warning?.message).toContain('Add stores the skill as "elevenlabs-automation" (name policy slug).');
    expect(warning?.fix).toBe('elevenlabs-automation');
    expect(
      rules(validateSkill(named('ElevenLabs Automation'), { namePolicy: 'slug', strict: true }).errors),
    ).toEqual(['name_allowed_characters']);
    const none = validateSkill(named('検索'), { namePolicy: 'slug' });
    expect(none.valid).toBe(false);
    expect(none.errors[0]?.message).toContain('no usable slug');
  });

  it('leading hyphen and Windows device names judge the stored name', () => {
    // Refused under strict, stored as "my-skill" under slug: no folder is ever named "-My Skill".
    expect(rules(validateSkill(named('"-My Skill"')).warnings)).not.toContain('name_leading_hyphen');
    expect(rules(validateSkill(named('"-My Skill"'), { namePolicy: 'slug' }).warnings)).not.toContain(
      'name_leading_hyphen',
    );
    expect(rules(validateSkill(nulTxt, { namePolicy: 'slug' }).warnings)).not.toContain(
      'name_reserved_filename',
    );
    const stored = validateSkill(named('"NUL!"'), { namePolicy: 'slug' });
    const reserved = issue(stored.warnings, 'name_reserved_filename');
    expect(reserved?.message).toContain('"NUL!", stored as "nul",');
    expect(rules(validateSkill(named('NUL'), { namePolicy: 'strict' }).warnings)).toContain(
      'name_reserved_filename',
    );
  });

  it('refuses an unknown policy', () => {
    expect(() => validateSkill(nulTxt, { namePolicy: 'lenient' as never })).toThrow(
      /Unknown name policy "lenient"/,
    );
  });
});

describe('description_too_short message', () => {
  it.each([
    ['x', '"description" is 1 character long;'],
    ['xy', '"description" is 2 characters long;'],
  ])('description %j → %s', (description, start) => {
    const result = validateSkill(skillMd(['name: short', `description: ${description}`]));
    const issue = result.warnings.find((w) => w.rule === 'description_too_short');
    expect(issue?.message.startsWith(start), issue?.message).toBe(true);
  });
});

describe('name_matches_directory: the fix is a name add takes', () => {
  it.each([
    ['pdf', 'pdf'],
    ['pdf tools', undefined],
    ['café', undefined],
    ['nul.txt', undefined],
  ])('folder %j: fix %j', (dirName, fix) => {
    const [issue] = validateSkill(named('pdf-tools'), { dirName }).warnings;
    expect(issue?.rule).toBe('name_matches_directory');
    expect(issue?.fix).toBe(fix);
  });
});
