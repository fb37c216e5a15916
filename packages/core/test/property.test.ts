// Property tests: no input makes the parser or the validator throw, and structured skills survive
// serialize → parse unchanged.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeCorpus, findCorpus } from '../../../scripts/test-corpus.js';
import {
  parseSkillMd,
  type StructuredSkill,
  serializeSkillMd,
  skillMdFromStructured,
  VALIDATION_PROFILES,
  validateSkill,
} from '../src/index.js';

/** Deeper runs on demand: SKILLPORT_FC_RUNS=20000 pnpm vitest run packages/core/test/property.test.ts */
const RUNS = Number(process.env.SKILLPORT_FC_RUNS ?? 0) || undefined;
const runs = (usual: number): number => RUNS ?? usual;

/** Fragments that exercise YAML and the fence scanner: indicators, fences, line breaks, BOM. */
const yamlish = fc.constantFrom(
  '---',
  '--- ',
  '----',
  '...',
  ':',
  ': ',
  '- ',
  '|',
  '|-',
  '>',
  '"',
  "'",
  '[',
  ']',
  '{',
  '}',
  ',',
  '#',
  '&a',
  '*a',
  '!!str',
  '!x',
  '@',
  '`',
  '%YAML 1.2',
  '? ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '\r',
  '\ufeff',
  'name',
  'description',
  'allowed-tools',
  'allowed_tools',
  'tags',
  'metadata',
  '😀',
  '\u0000',
  '\ud800',
);

const documents = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.array(fc.oneof(yamlish, fc.string({ maxLength: 8 })), { maxLength: 60 }).map((parts) => parts.join('')),
  fc
    .array(fc.array(fc.oneof(yamlish, fc.string({ maxLength: 6 })), { maxLength: 8 }), { maxLength: 12 })
    .map((lines) => `---\n${lines.map((l) => l.join('')).join('\n')}\n---\nbody`),
);

describe('no input makes parse or validate throw', () => {
  it('arbitrary text', () => {
    fc.assert(
      fc.property(
        documents,
        fc.boolean(),
        fc.constantFrom(...VALIDATION_PROFILES),
        (text, strict, profile) => {
          const parsed = parseSkillMd(text);
          const result = validateSkill(text, { strict, profile, dirName: 'some-dir' });
          expect(result.valid).toBe(result.errors.length === 0);
          expect(result.name).toBe(parsed.skill.name);
          for (const issue of [...parsed.issues, ...result.errors, ...result.warnings]) {
            if (issue.line !== undefined) expect(issue.line).toBeGreaterThanOrEqual(1);
            if (issue.column !== undefined) expect(issue.column).toBeGreaterThanOrEqual(1);
          }
          serializeSkillMd(parsed.skill);
        },
      ),
      { numRuns: runs(1500) },
    );
  });

  it('arbitrary frontmatter maps written as YAML', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.oneof(fc.constantFrom('name', 'description', 'tags', 'allowed-tools', 'metadata'), fc.string()),
          fc.jsonValue(),
        ),
        fc.constantFrom(...VALIDATION_PROFILES),
        (frontmatter, profile) => {
          const text = serializeSkillMd({ name: null, frontmatter, body: '# Body\n' });
          validateSkill(text, { profile, strict: true });
          validateSkill({ ...frontmatter, name: frontmatter.name as string }, { profile });
        },
      ),
      { numRuns: runs(500) },
    );
  });
});

const corpus = findCorpus();
/** The frontmatter region (first 2 KiB) of every corpus SKILL.md: real YAML to mutate. */
const heads = corpus
  ? readdirSync(join(corpus, 'skills'))
      .sort()
      .map((dir) => readFileSync(join(corpus, 'skills', dir, 'SKILL.md'), 'utf8').slice(0, 2048))
  : [];

describeCorpus('mutated real files never make parse or validate throw', () => {
  it('random edits of corpus frontmatters', () => {
    const edit = fc.record({
      at: fc.nat(),
      remove: fc.nat({ max: 8 }),
      insert: fc.oneof(yamlish, fc.string({ maxLength: 4 })),
    });
    fc.assert(
      fc.property(
        fc.constantFrom(...heads),
        fc.array(edit, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(...VALIDATION_PROFILES),
        (head, edits, profile) => {
          let text = head;
          for (const { at, remove, insert } of edits) {
            const i = at % (text.length + 1);
            text = text.slice(0, i) + insert + text.slice(i + remove);
          }
          const result = validateSkill(text, { profile, strict: true });
          expect(result.valid).toBe(result.errors.length === 0);
          serializeSkillMd(parseSkillMd(text).skill);
        },
      ),
      { numRuns: runs(1000) },
    );
  });
});

/** Keys the structured form treats itself. */
const RESERVED = new Set([
  'name',
  'description',
  'content',
  'tags',
  'allowed_tools',
  'allowed-tools',
  'allowedTools',
  '__proto__',
]);
/** Any Unicode text, control characters, BOM and line breaks included. */
const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom('\n', '\r', '\ufeff', '\t', ' ', ':', '#', '-'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
});
const listItem = text.filter((s) => s.trim() === s && s.length > 0);

const structured = fc.record({
  name: text,
  description: text,
  content: fc.string({ unit: 'binary', maxLength: 200 }),
  tags: fc.array(listItem, { maxLength: 5 }),
  allowed_tools: fc.array(listItem, { maxLength: 5 }),
  extra: fc.dictionary(
    text.filter((k) => !RESERVED.has(k)),
    fc.jsonValue({ stringUnit: 'binary' }),
    { maxKeys: 4 },
  ),
});

describe('serialize → parse round-trips', () => {
  it('arbitrary frontmatter maps', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          text.filter((k) => k !== '__proto__'),
          fc.jsonValue({ stringUnit: 'binary' }),
          { maxKeys: 6 },
        ),
        (frontmatter) => {
          const serialized = serializeSkillMd({ name: null, frontmatter });
          expect(parseSkillMd(serialized).skill.frontmatter).toEqual(frontmatter);
        },
      ),
      { numRuns: runs(500) },
    );
  });

  it('structured skills', () => {
    fc.assert(
      fc.property(structured, ({ extra, ...fields }) => {
        const input: StructuredSkill = { ...extra, ...fields };
        const text = skillMdFromStructured(input);
        const { skill, issues } = parseSkillMd(text);
        expect(issues.filter((i) => i.severity === 'error')).toEqual([]);
        expect(skill.name).toBe(fields.name);
        expect(skill.description).toBe(fields.description);
        expect(skill.tags).toEqual(fields.tags);
        expect(skill.allowedTools).toEqual(fields.allowed_tools);
        const body = fields.content;
        expect(skill.body).toBe(body === '' || /^[\r\n]/.test(body) ? body : `\n${body}`);
        for (const [key, value] of Object.entries(extra)) expect(skill.frontmatter[key]).toEqual(value);
        // Serializing what was parsed gives the same text again.
        expect(serializeSkillMd(skill)).toBe(text);
      }),
      { numRuns: runs(500) },
    );
  });
});
