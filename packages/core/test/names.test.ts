import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { isSkillportError } from '../src/errors.js';
import {
  isValidSkillName,
  normalizeSkillName,
  SKILL_NAME_MAX_LENGTH,
  SKILL_NAME_PATTERN,
  storedSkillName,
  toKebabCase,
  toSkillSlug,
  toToolSlug,
} from '../src/names.js';

/** The blanks the name rule trims: ASCII spaces, tabs and line breaks. */
const trimBlanks = (text: string): string => text.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');

describe('toKebabCase', () => {
  it.each([
    ['search_web', 'search-web'],
    ['searchWeb', 'search-web'],
    ['SearchWeb', 'search-web'],
    ['Search Web', 'search-web'],
    ['search.web', 'search-web'],
    ['search-web', 'search-web'],
    ['HTTPServer', 'http-server'],
    ['getHTTPResponseCode', 'get-http-response-code'],
    ['sampleLLM', 'sample-llm'],
    ['annotatedMessage', 'annotated-message'],
    ['ispn.customer.lookup', 'ispn-customer-lookup'],
    ['oauth2Token', 'oauth2-token'],
    ['browser_fill_form', 'browser-fill-form'],
    ['__private__name__', 'private-name'],
    ['a  --  b', 'a-b'],
    ['  padded  ', 'padded'],
    ['Café au lait', 'cafe-au-lait'],
    ['检索web', 'web'],
    ['x', 'x'],
    ['', ''],
    ['---', ''],
    ['検索', ''],
  ])('%j → %j', (input, expected) => {
    expect(toKebabCase(input)).toBe(expected);
  });

  it('always returns lowercase kebab-case without edge or double hyphens', () => {
    for (const input of ['A_B__C', '-x-', 'X.Y.Z', 'ABC', 'aB1cD2', '!!a!!b!!']) {
      expect(toKebabCase(input)).toMatch(/^(?:[a-z0-9]+(?:-[a-z0-9]+)*)?$/);
    }
  });
});

describe('toToolSlug', () => {
  it.each([
    ['search-web', 'search_web'],
    ['Search Web', 'search_web'],
    ['__x__', 'x'],
    ['ispn.customer.lookup', 'ispn_customer_lookup'],
    ['my-skill-2', 'my_skill_2'],
    ['', ''],
    ['---', ''],
  ])('%j → %j', (input, expected) => {
    expect(toToolSlug(input)).toBe(expected);
  });
});

describe('toSkillSlug', () => {
  it.each([
    ['\u00a0search-web\u00a0', 'U+00A0', '"\\u00a0search-web\\u00a0"'],
    ['\ufeffsearch-web', 'U+FEFF', '"\\ufeffsearch-web"'],
    ['search-web\u2028', 'U+2028', '"search-web\\u2028"'],
  ])('rejects %j around the name, naming the invisible character by its code point', (raw, code, shown) => {
    let caught: unknown;
    try {
      normalizeSkillName(raw);
    } catch (error) {
      caught = error;
    }
    if (!isSkillportError(caught)) throw new Error('expected a SkillportError');
    expect(caught.details?.value).toBe(raw);
    expect(caught.details?.fix).toBe('search-web');
    expect(caught.message).toContain(`contains character ${code}`);
    expect(caught.message).toContain(`Invalid skill name ${shown}:`);
    expect(caught.message).not.toMatch(/[\u00a0\ufeff\u2028]/);
  });

  it.each([
    ['ElevenLabs Automation', 'elevenlabs-automation'],
    ['search-web', 'search-web'],
    ['Search_Web Tool', 'search-web-tool'],
    ['--Hello,  World!--', 'hello-world'],
    ['Crème brûlée', 'creme-brulee'],
    ['検索', ''],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(toSkillSlug(input)).toBe(expected);
  });

  it('is a valid name or empty, at most 64 characters, and idempotent', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (input) => {
        const slug = toSkillSlug(input);
        expect(slug === '' || SKILL_NAME_PATTERN.test(slug)).toBe(true);
        expect(slug).not.toMatch(/^-|-$|[A-Z_]/);
        expect(toSkillSlug(slug)).toBe(slug);
      }),
    );
  });
});

describe('isValidSkillName', () => {
  it.each<[unknown, boolean]>([
    ['search-web', true],
    ['Search_Web_2', true],
    ['a'.repeat(SKILL_NAME_MAX_LENGTH), true],
    ['a'.repeat(SKILL_NAME_MAX_LENGTH + 1), false],
    ['', false],
    [' search-web', false],
    ['search web', false],
    ['search.web', false],
    ['café', false],
    [42, false],
    [null, false],
  ])('%j → %s', (name, expected) => {
    expect(isValidSkillName(name)).toBe(expected);
    if (typeof name === 'string') expect(SKILL_NAME_PATTERN.test(name)).toBe(expected);
  });
});

describe('normalizeSkillName', () => {
  it.each([
    ['search-web', 'search-web'],
    ['  search-web\n', 'search-web'],
    ['\tA_b-9 ', 'A_b-9'],
  ])('accepts %j as %j', (raw, expected) => {
    expect(normalizeSkillName(raw)).toBe(expected);
  });

  it.each([
    ['', /is empty/],
    ['   ', /is empty/],
    ['a'.repeat(65), /is 65 characters long \(at most 64\)/],
    ['search web', /contains character " "/],
    ['search.web/x', /contains characters "\.", "\/"/],
    ['café', /contains character "é"/],
  ])('rejects %j', (raw, reason) => {
    let caught: unknown;
    try {
      normalizeSkillName(raw);
    } catch (error) {
      caught = error;
    }
    expect(isSkillportError(caught)).toBe(true);
    if (!isSkillportError(caught)) return;
    expect(caught.code).toBe('INVALID_ARGUMENT');
    expect(caught.status).toBe(400);
    expect(caught.details?.field).toBe('name');
    expect(caught.details?.value).toBe(raw);
    expect(caught.message).toMatch(reason);
    expect(caught.message).toContain('e.g. "search-web"');
    expect(caught.message).toContain(JSON.stringify(raw));
  });

  it.each([
    ['ElevenLabs Automation', 'elevenlabs-automation'],
    ['  Café & Bar_Tools ', 'cafe-bar-tools'],
    ['search.web/x', 'search-web-x'],
    [`${'a'.repeat(40)} ${'b'.repeat(40)}`, `${'a'.repeat(40)}-${'b'.repeat(23)}`],
  ])('names the kebab-case fix of %j: %j', (raw, fix) => {
    let caught: unknown;
    try {
      normalizeSkillName(raw);
    } catch (error) {
      caught = error;
    }
    if (!isSkillportError(caught)) throw new Error('expected a SkillportError');
    expect(caught.details?.fix).toBe(fix);
    expect(caught.message).toContain(`Use the kebab-case name "${fix}" instead.`);
    expect(normalizeSkillName(fix)).toBe(fix);
  });

  it('suggests no fix when the name has no ASCII letter or digit', () => {
    let caught: unknown;
    try {
      normalizeSkillName('検索 ツール');
    } catch (error) {
      caught = error;
    }
    if (!isSkillportError(caught)) throw new Error('expected a SkillportError');
    expect(caught.details).not.toHaveProperty('fix');
    expect(caught.message).not.toContain('kebab-case name');
  });

  it('truncates a long offending input in the message and details', () => {
    const raw = `${'x'.repeat(100)} y`;
    let caught: unknown;
    try {
      normalizeSkillName(raw);
    } catch (error) {
      caught = error;
    }
    if (!isSkillportError(caught)) throw new Error('expected a SkillportError');
    const shown = caught.details?.value;
    expect(typeof shown).toBe('string');
    expect([...(shown as string)]).toHaveLength(80);
    expect(shown as string).toMatch(/…$/);
    expect(caught.message.length).toBeLessThan(400);
  });

  it('rejects a non-string at runtime', () => {
    expect(() => normalizeSkillName(42 as unknown as string)).toThrow(/must be a string, got number/);
  });
});

describe('names of megabytes (an MCP prompt name has no length limit of its own)', () => {
  /** Runs `fn`, and returns the lengths of the strings over 10,000 characters a string method ran on. */
  function longStringWork(fn: () => unknown): number[] {
    const spies = (['replace', 'normalize', 'toLowerCase', 'split'] as const).map((method) =>
      vi.spyOn(String.prototype, method),
    );
    try {
      fn();
    } catch {
      // the refusal is checked by the test
    }
    // Read before restoring: restoring a spy clears what it recorded.
    const lengths = spies.flatMap((spy) => spy.mock.contexts.map((s) => String(s).length));
    for (const spy of spies) spy.mockRestore();
    return lengths.filter((n) => n > 10_000);
  }

  it.each([
    // Before: '/[ \t\r\n]+$/' retried at every blank of the run (quadratic: 50,000 blanks held the
    // server 2.7 s, a million would take minutes), then the whole name was slugged for the fix.
    ['a run of blanks inside', `a${' '.repeat(50_000)}b`, 50_002, 'a-b'],
    ['3 million characters', 'p q'.repeat(1_000_000), 3_000_000, `p-${'qp-'.repeat(20)}qp`],
    ['3 million accented letters', 'é'.repeat(3_000_000), 3_000_000, 'e'.repeat(64)],
  ])('%s: refused with its length and fix, reading no more than the fix needs', (_, name, length, fix) => {
    expect(storedSkillName(name)).toBeNull();
    const refusal = (() => {
      try {
        normalizeSkillName(name);
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(isSkillportError(refusal) && refusal.details).toMatchObject({
      reason: `is ${length} characters long (at most 64)`,
      fix,
    });
    expect(longStringWork(() => storedSkillName(name, 'slug'))).toEqual([]);
    expect(longStringWork(() => normalizeSkillName(name))).toEqual([]);
  });
});

describe('name properties', () => {
  it('toKebabCase always gives lowercase kebab-case, idempotently', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (input) => {
        const kebab = toKebabCase(input);
        expect(kebab).toMatch(/^(?:[a-z0-9]+(?:-[a-z0-9]+)*)?$/);
        expect(toKebabCase(kebab)).toBe(kebab);
      }),
      { numRuns: 500 },
    );
  });

  it('toToolSlug always gives [a-z0-9_] without edge or double underscores', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (input) => {
        expect(toToolSlug(input)).toMatch(/^(?:[a-z0-9]+(?:_[a-z0-9]+)*)?$/);
      }),
      { numRuns: 500 },
    );
  });

  it('normalizeSkillName accepts exactly what trims to a valid name', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 70 }), (input) => {
        const valid = SKILL_NAME_PATTERN.test(trimBlanks(input));
        if (valid) expect(normalizeSkillName(input)).toBe(trimBlanks(input));
        else expect(() => normalizeSkillName(input)).toThrow(/^Invalid skill name /);
      }),
      { numRuns: 500 },
    );
  });
});

describe('storedSkillName', () => {
  it.each([
    ['search-web', 'strict', 'search-web'],
    ['search-web', 'slug', 'search-web'],
    ['  Search_Web ', 'strict', 'Search_Web'],
    ['  Search_Web ', 'slug', 'Search_Web'],
    ['ElevenLabs Automation', 'strict', null],
    ['ElevenLabs Automation', 'slug', 'elevenlabs-automation'],
    ['  Café & Bar_Tools ', 'slug', 'cafe-bar-tools'],
    ['検索', 'slug', null],
    ['---', 'strict', '---'],
    ['', 'slug', null],
    ['   ', 'strict', null],
    ['a'.repeat(65), 'strict', null],
    ['a'.repeat(65), 'slug', 'a'.repeat(64)],
    ['\tsearch-web\r\n', 'strict', 'search-web'],
    // Only ASCII blanks are trimmed: an invisible character is part of the name the SKILL.md holds.
    ['\u00a0search-web\u00a0', 'strict', null],
    ['\ufeffsearch-web', 'strict', null],
    ['search-web\u2028', 'strict', null],
    ['\u3000search-web', 'strict', null],
    ['\u00a0search-web\u00a0', 'slug', 'search-web'],
  ] as const)('%j under %s → %j', (name, policy, stored) => {
    expect(storedSkillName(name, policy)).toBe(stored);
  });

  it('defaults to the strict policy', () => {
    expect(storedSkillName('ElevenLabs Automation')).toBeNull();
    expect(storedSkillName(' pdf ')).toBe('pdf');
  });

  it('refuses a policy other than strict or slug, and a name that is not a string', () => {
    for (const call of [
      () => storedSkillName('pdf', 'lenient' as never),
      () => storedSkillName(42 as never, 'strict'),
    ]) {
      let thrown: unknown;
      try {
        call();
      } catch (error) {
        thrown = error;
      }
      expect(isSkillportError(thrown) && thrown.code).toBe('INVALID_ARGUMENT');
    }
  });

  it('stores what add accepts: the trimmed name under strict, a valid name under slug, null only when add refuses', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (raw) => {
        let accepted: string | null = null;
        try {
          accepted = normalizeSkillName(raw);
        } catch {
          accepted = null;
        }
        expect(storedSkillName(raw, 'strict')).toBe(accepted);
        const slugged = storedSkillName(raw, 'slug');
        if (accepted !== null) expect(slugged).toBe(accepted);
        else if (slugged !== null) {
          expect(slugged).toBe(toSkillSlug(trimBlanks(raw)));
          expect(SKILL_NAME_PATTERN.test(slugged)).toBe(true);
        } else expect(SKILL_NAME_PATTERN.test(toSkillSlug(trimBlanks(raw)))).toBe(false);
      }),
    );
  });
});
