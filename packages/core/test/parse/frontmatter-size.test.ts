// frontmatterSize finds the fences exactly where splitFrontmatter (the parser) finds them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeCorpus, requireCorpus } from '../../../../scripts/test-corpus.js';
import { frontmatterSize, parseSkillMd } from '../../src/index.js';
import { splitFrontmatter } from '../../src/parse/split-frontmatter.js';

/** The size the parser's split implies: the YAML it reads, or the rest after an unclosed opening. */
function expected(text: string) {
  const split = splitFrontmatter(text);
  if (split.hasFrontmatter) return { chars: split.yaml.length, closed: true };
  if (split.issue?.message.includes('never closed')) {
    const body = split.text;
    const firstBreak = body.search(/\r\n|\r|\n/);
    const yamlStart =
      firstBreak === -1 ? body.length : body.startsWith('\r\n', firstBreak) ? firstBreak + 2 : firstBreak + 1;
    return { chars: body.length - yamlStart, closed: false };
  }
  return null;
}

const cases: Array<[string, string]> = [
  ['LF', '---\nname: a\ndescription: b\n---\n# Body\n'],
  ['CRLF', '---\r\nname: a\r\ndescription: b\r\n---\r\nBody'],
  ['CR only', '---\rname: a\r---\rBody'],
  ['a BOM and blanks after the fences', '\ufeff---  \nname: a\n---\t\nBody'],
  ['an empty frontmatter', '---\n---\nBody'],
  ['no final newline after the closing fence', '---\nname: a\n---'],
  ['dashed lines that are no fence', '---\nname: a\n----\n--- x\n ---\nk: v\n---\nBody'],
  ['a --- inside a value', '---\nname: a --- b\ndescription: |\n  ---\n---\nBody'],
  ['U+2028 is no line break', '---\nname: a\u2028---\nk: v\n---\nBody'],
  ['never closed', '---\nname: a\ndescription: b\n'],
  ['never closed, CRLF and a BOM', '\ufeff---\r\nname: a\r\n'],
  ['only the opening fence', '---'],
  ['no frontmatter', '# Title\n\n---\nname: a\n---\n'],
  ['an indented opening', ' ---\nname: a\n---\n'],
  ['empty text', ''],
];

describe('frontmatterSize', () => {
  it.each(cases)('%s: the fences the parser finds', (_label, text) => {
    expect(frontmatterSize(text)).toEqual(expected(text));
  });

  it('counts the YAML the parser reads, and says when the frontmatter is never closed', () => {
    expect(frontmatterSize('---\nname: a\n---\nBody')).toEqual({ chars: 8, closed: true });
    expect(frontmatterSize('---\nname: a\n')).toEqual({ chars: 8, closed: false });
    expect(frontmatterSize('# Title')).toBeNull();
    // An unclosed frontmatter is a yaml_format error of the parser, whatever its size.
    for (const text of ['---\nname: a\n', `---\n${'k: v\n'.repeat(5000)}`]) {
      expect(frontmatterSize(text)?.closed).toBe(false);
      expect(parseSkillMd(text).issues.map((i) => i.rule)).toEqual(['yaml_format']);
    }
  });
});

describeCorpus('frontmatterSize over the corpus', () => {
  it('agrees with the parser on every SKILL.md of the corpus', () => {
    const skills = join(requireCorpus(), 'skills');
    let checked = 0;
    for (const dir of readdirSync(skills).sort()) {
      let text: string;
      try {
        text = readFileSync(join(skills, dir, 'SKILL.md'), 'utf8');
      } catch {
        continue;
      }
      expect(frontmatterSize(text), dir).toEqual(expected(text));
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });
});
