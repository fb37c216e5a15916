import { describe, expect, it } from 'vitest';
import { findSuperLinearRung } from '../../../../scripts/test-support/linear-growth.js';
import { parseSkillMd, validateSkill } from '../../src/index.js';
import { findTooDeep, MAX_FRONTMATTER_DEPTH } from '../../src/parse/frontmatter-depth.js';
import { readSimpleYaml } from '../../src/parse/simple-yaml.js';

const fm = (...lines: string[]) =>
  `---\nname: deep\ndescription: A skill with nested frontmatter\n${lines.join('\n')}\n---\nbody\n`;

/** `metadata:` then `k0:`, `k1:`, … each indented one step deeper, `levels` mappings in all. */
function indented(levels: number): string {
  const lines = ['metadata:'];
  for (let i = 1; i < levels; i++) lines.push(`${'  '.repeat(i)}k${i}:`);
  lines.push(`${'  '.repeat(levels)}x`);
  return lines.join('\n');
}

describe('frontmatter nesting depth', () => {
  it.each([
    ['block sequences on one line', `metadata:\n  ${'- '.repeat(20_000)}x`, 5],
    ['nested flow sequences', `metadata: ${'['.repeat(20_000)}${']'.repeat(20_000)}`, 4],
    ['nested flow mappings', `metadata: ${'{a: '.repeat(5_000)}1${'}'.repeat(5_000)}`, 4],
    ['indented mappings', indented(200), 4 + MAX_FRONTMATTER_DEPTH],
    ['explicit keys on one line', `${'? '.repeat(20_000)}x`, 4],
    ['explicit keys under an explicit value', `? a\n: ${'? '.repeat(300)}x`, 5],
  ])('%s: one frontmatter_too_deep error at the first level past the bound', (_label, yaml, line) => {
    const { issues, skill } = parseSkillMd(fm(yaml));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({
      rule: 'frontmatter_too_deep',
      severity: 'error',
      field: 'frontmatter',
      line,
    });
    expect(issues[0]?.message).toContain(`nesting deeper than ${MAX_FRONTMATTER_DEPTH} levels`);
    // The location is the issue's line and column, which every report adds (`file:4:67`, the
    // server's `(line 4, column 67)`): the message does not say it a second time.
    expect(issues[0]?.message).not.toMatch(/line \d+, column \d+/);
    expect(issues[0]?.column).toBeGreaterThan(1);
    expect(skill.frontmatter).toEqual({});
    // The validator gives the same verdict, without a stack overflow reported as a syntax error.
    const validation = validateSkill(fm(yaml), { profile: 'openviking' });
    expect(validation.valid).toBe(false);
    expect(validation.errors.map((e) => e.rule)).toEqual(['frontmatter_too_deep']);
  });

  it('points at the first bracket past the bound (line and column)', () => {
    const { issues } = parseSkillMd(fm(`metadata: ${'['.repeat(100)}${']'.repeat(100)}`));
    // Level 1 is the top-level mapping, so the 64th level is the 63rd bracket, the 65th the 64th.
    expect(issues[0]).toMatchObject({ line: 4, column: 'metadata: '.length + MAX_FRONTMATTER_DEPTH });
  });

  it.each([
    ['indented mappings up to the bound', indented(MAX_FRONTMATTER_DEPTH - 1)],
    [
      'flow sequences up to the bound',
      `m: ${'['.repeat(MAX_FRONTMATTER_DEPTH - 1)}${']'.repeat(MAX_FRONTMATTER_DEPTH - 1)}`,
    ],
    ['brackets inside quotes', `q: "${'['.repeat(200)}"\ns: '${'{'.repeat(200)}'`],
    ['brackets inside a comment', `c: 1 # ${'['.repeat(200)}`],
    ['brackets inside a plain value', `p: it's a[${'['.repeat(200)}`],
    [
      'a block scalar indented ever deeper',
      `code: |\n${Array.from({ length: 200 }, (_, i) => `${' '.repeat(i + 2)}x`).join('\n')}\nafter: 1`,
    ],
  ])('reads %s', (_label, yaml) => {
    const { issues } = parseSkillMd(fm(yaml));
    expect(issues.filter((i) => i.rule === 'frontmatter_too_deep')).toEqual([]);
  });

  // A plain value with `- [` opens flow collections as the scan counts them (it errs toward
  // counting), though YAML reads one string: frontmatters the direct reader reads still get the
  // scan's verdict, on each side of the bound (63 brackets are 64 levels at the top level, 65 in
  // a key's block).
  it.each([
    ['a top-level value', (n: number) => `description: x - ${'['.repeat(n)}`, 64],
    ['a value in a block mapping', (n: number) => `description: d\nmetadata:\n  k: x - ${'['.repeat(n)}`, 63],
  ])('gives the depth scan verdict for brackets in %s', (_label, yaml, first) => {
    for (const n of [60, 61, 62, 63, 64, 65, 70, 200]) {
      const tooDeep = findTooDeep(`name: deep\n${yaml(n)}`, MAX_FRONTMATTER_DEPTH) !== null;
      expect(tooDeep, `${n} brackets`).toBe(n >= first);
      // The direct reader reads it (one string), so the scan is what decides.
      expect(readSimpleYaml(`name: deep\n${yaml(n)}`), `${n} brackets`).not.toBeNull();
      const { issues } = parseSkillMd(`---\nname: deep\n${yaml(n)}\n---\nbody\n`);
      expect(
        issues.some((i) => i.rule === 'frontmatter_too_deep'),
        `${n} brackets`,
      ).toBe(tooDeep);
    }
  });

  it('counts a flow collection continued on more indented lines', () => {
    expect(findTooDeep(`a: [\n${Array.from({ length: 10 }, () => '  [').join('\n')}`, 5)).not.toBeNull();
  });

  it('counts brackets after a quoted value ends', () => {
    expect(findTooDeep(`a: ["x", ${'['.repeat(10)}`, 5)).not.toBeNull();
    expect(findTooDeep(`a: ['it''s', ${'['.repeat(10)}]`, 5)).not.toBeNull();
  });

  // Linear in the input: the scan runs before the YAML parser on every frontmatter.
  it.each([
    ['dashes', (n: number) => `m:\n  ${'- '.repeat(n / 2)}x`],
    ['brackets', (n: number) => `m: ${'['.repeat(n)}`],
    ['quotes', (n: number) => `m: "${'\\"['.repeat(n / 3)}`],
    [
      'indentation',
      (n: number) => Array.from({ length: n / 64 }, (_, i) => `${' '.repeat(i % 60)}k: v`).join('\n'),
    ],
    ['block scalar', (n: number) => `m: |\n${'  x\n'.repeat(n / 4)}`],
  ])('scan time grows linearly: %s', (_label, build) => {
    expect(
      findSuperLinearRung((yaml: string) => findTooDeep(yaml, 1e9), build, { from: 4096, to: 1024 * 1024 }),
    ).toBeNull();
  });
});
