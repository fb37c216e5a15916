// The direct frontmatter reader (readSimpleYaml) against the YAML parser (readParsedYaml): wherever
// the reader answers, readYaml's data, issues and every located field must be the parser's; where
// the text is not of its shape it must leave the text to the parser.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeCorpus, findCorpus } from '../../../../scripts/test-corpus.js';
import { normalizeLineBreaks } from '../../src/internal/text.js';
import { readParsedYaml, readYaml } from '../../src/parse/read-yaml.js';
import { readSimpleYaml } from '../../src/parse/simple-yaml.js';
import { splitFrontmatter } from '../../src/parse/split-frontmatter.js';

/** Every field a caller may locate: each key, each `key.child` of a mapping, and a few absent ones. */
function fieldsOf(data: Record<string, unknown>): string[] {
  const fields = ['absent', 'name.absent', 'tags.0'];
  for (const [key, value] of Object.entries(data)) {
    fields.push(key);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const child of Object.keys(value)) fields.push(`${key}.${child}`);
    }
  }
  return fields;
}

/**
 * Asserts that the direct reader, when it reads `yaml`, agrees with the parser; returns whether it
 * read it.
 */
function agreesWithParser(yaml: string, yamlLine = 2): boolean {
  const source = normalizeLineBreaks(yaml);
  if (readSimpleYaml(source) === null) return false;
  const direct = readYaml(yaml, yamlLine);
  const parsed = readParsedYaml(source, yamlLine);
  expect(direct.readable, yaml).toBe(parsed.readable);
  expect(direct.issues, yaml).toEqual(parsed.issues);
  expect(direct.data, yaml).toStrictEqual(parsed.data);
  for (const field of fieldsOf(parsed.data)) {
    expect(direct.locate(field), `${field} in ${yaml}`).toEqual(parsed.locate(field));
  }
  return true;
}

describe('readSimpleYaml', () => {
  it.each([
    ['plain strings', 'name: pdf-tools\ndescription: Read PDFs, fill forms [and more] {fast}.\n'],
    ['blank lines between keys', 'name: a\n\n\ndescription: b\n'],
    ['no final line break', 'name: a\ndescription: b'],
    ['a "#" without a blank before it', 'name: a\ndescription: Use C#, F# and a#b\n'],
    ['colons without a blank after them', 'name: a\ndescription: see https://x.dev:8080/a and 10:30\n'],
    ['quotes inside a plain value', 'name: a\ndescription: it\'s "fine"\n'],
    ['numbers that are not numbers', 'name: a\nversion: 1.0.0\ndate: 2024-01-02\nport: 0x1G\n'],
    ['YAML 1.1 booleans stay strings', 'name: a\ndescription: b\nenabled: yes\noff: on\n'],
    ['double-quoted values', 'name: "a"\ndescription: "Say \\"hi\\": a\\tb\\\\c \\/ # not a comment"\n'],
    ['single-quoted values', "name: 'a'\ndescription: 'It''s: here # too'\n"],
    ['flow lists', 'name: a\ndescription: b\ntags: [pdf, "x, y", \'z\', two words]\nempty: []\nblank: [ ]\n'],
    ['a block list', 'name: a\ndescription: b\nallowed-tools:\n  - Bash(git add:*)\n  - Read\n'],
    [
      'a block mapping',
      'name: a\ndescription: b\nmetadata:\n  author: Jane Doe\n  version: "1.0"\n  tags: [a, b]\n',
    ],
    ['a block indented four spaces', 'name: a\ndescription: b\nmetadata:\n    author: Jane\n'],
    [
      'keys with dashes and underscores',
      'name: a\ndescription: b\nallowed_tools: Read\nuser-invocable: maybe\n',
    ],
    ['non-ASCII text', 'name: données\ndescription: Lit les PDF — vite 📄 日本語\n'],
    ['many spaces after the colon', 'name:     a\ndescription:  b\n'],
    ['a multi-line plain value', 'name: a\ndescription: one\n  two\n'],
    [
      'a multi-line plain value with empty lines',
      'name: a\ndescription: one two\n\n    three, four\n\n\n    five [x] {y} C# a:b\n\nother: c\n',
    ],
    ['a multi-line plain value at the end', 'name: a\ndescription: one\n  two'],
    ['a literal block scalar', 'name: a\ndescription: |\n  one: # not a comment\n  - two\n'],
    ['a literal block scalar, stripped', 'name: a\ndescription: |-\n  one\n\n\n  two  \n\nother: c\n'],
    ['a literal block scalar with more-indented lines', 'description: |\n  one\n    two\n  three\nname: a\n'],
    ['a folded block scalar', 'name: a\ndescription: >\n  one  \n  two\n\n  three\n'],
    ['a folded block scalar, stripped', 'name: a\ndescription: >-\n    one\n    two\n\n\n    three\nx: y\n'],
    ['a block scalar at the end', 'name: a\ndescription: >-\n  one\n  two'],
    ['a block scalar holding "---"', 'name: a\ndescription: |\n  ---\n  ...\n'],
  ])('reads %s as the parser does', (_case, yaml) => {
    expect(agreesWithParser(yaml)).toBe(true);
  });

  it.each([
    ['a comment line', '# note\nname: a\n'],
    ['a comment after a value', 'name: a # note\n'],
    ['a null value', 'name: a\ndescription:\n'],
    ['an empty value after blanks', 'name: a\ndescription: \n'],
    ['a boolean', 'name: a\nflag: true\n'],
    ['a number', 'name: a\nversion: 1.5\n'],
    ['an integer', 'name: a\nversion: 2\n'],
    ['a tilde', 'name: a\nx: ~\n'],
    ['a non-string key', 'true: a\n'],
    ['a duplicate key', 'name: a\nname: b\n'],
    ['a duplicate nested key', 'metadata:\n  a: b\n  a: c\n'],
    ['a multi-line quoted value', 'name: a\ndescription: "one\n  two"\n'],
    ['a flow list over lines', 'name: a\ntags: [one,\n  two]\n'],
    ['continuation lines indented unlike', 'name: a\ndescription: one\n  two\n    three\n'],
    ['a continuation line with ": "', 'name: a\ndescription: one\n  two: three\n'],
    ['a continuation line with " #"', 'name: a\ndescription: one\n  two #c\n'],
    ['a comment line after a value', 'name: a\ndescription: one\n  # two\n'],
    ['a continuation line starting with an indicator', 'name: a\ndescription: one\n  - two\n'],
    ['a continuation line ending with ":"', 'name: a\ndescription: one\n  two:\n'],
    ['a continuation line with trailing blanks', 'name: a\ndescription: one\n  two \n'],
    ['a line of blanks in a value', 'name: a\ndescription: one\n  \n  two\n'],
    ['a number continued', 'name: a\nversion: 1\n  2\n'],
    ['a continued value in a block', 'metadata:\n  a: one\n    two\n'],
    ['a kept block scalar', 'name: a\ndescription: |+\n  text\n'],
    ['a block scalar with an indentation indicator', 'name: a\ndescription: |2\n  text\n'],
    ['a block scalar header with a comment', 'name: a\ndescription: | # note\n  text\n'],
    ['an empty block scalar', 'name: a\ndescription: |\nother: b\n'],
    ['a block scalar after an empty line', 'name: a\ndescription: |\n\n  text\n'],
    ['a folded block scalar with more-indented lines', 'name: a\ndescription: >\n  one\n    two\n'],
    ['a block scalar with a less-indented line', 'name: a\ndescription: |\n    one\n  two\n'],
    ['a block scalar with a line of blanks', 'name: a\ndescription: |\n  one\n   \n  two\n'],
    ['a block scalar with a tab', 'name: a\ndescription: |\n  one\ttwo\n'],
    ['a block scalar in a block', 'metadata:\n  a: |\n    text\n'],
    ['an unquoted ": "', 'name: a\ndescription: Trigger words: pdf\n'],
    ['a final colon', 'name: a\ndescription: note:\n'],
    ['trailing blanks', 'name: a \n'],
    ['a tab', 'name:\ta\n'],
    ['a tab in a value', 'name: a\tb\n'],
    ['an anchor', 'name: &x a\n'],
    ['an alias', 'name: *x\n'],
    ['a tag', 'name: !str a\n'],
    ['an escape JSON lacks', 'name: "a\\x41"\n'],
    ['a unicode escape', 'name: "\\u0041"\n'],
    ['a quoted value then text', 'name: "a" b\n'],
    ['an unclosed quote', 'name: "a\n'],
    ['a flow mapping', 'name: a\nmeta: {a: b}\n'],
    ['a list with an empty item', 'tags: [a,,b]\n'],
    ['a list with a trailing comma', 'tags: [a, ]\n'],
    ['a number in a list', 'tags: [a, 1]\n'],
    ['a colon in a list item', 'tags: [a:b]\n'],
    ['a nested list', 'tags: [[a]]\n'],
    ['a list item that is a list', 'tags:\n  - [a]\n'],
    ['a mapping in a list', 'tags:\n  - a: b\n'],
    ["a list at the key's indentation", 'tags:\n- a\n'],
    ['uneven indentation', 'metadata:\n  a: b\n   c: d\n'],
    ['a deeper block', 'metadata:\n  a:\n    b: c\n'],
    ['a blank line inside a block', 'tags:\n  - a\n\n  - b\n'],
    ['mixed list and mapping items', 'meta:\n  a: b\n  - c\n'],
    ['a key with nothing under it', 'name: a\nmetadata:\nother: b\n'],
    ['a document marker', 'name: a\n...\n'],
    ['a directive', '%YAML 1.2\nname: a\n'],
    ['a quoted key', '"name": a\n'],
    ['a key with a dot', 'a.b: c\n'],
    ['__proto__', '__proto__: a\n'],
    ['a control character', 'name: a\u0007b\n'],
    ['a byte order mark inside', 'name: a\ufeffb\n'],
    ['a lone surrogate', 'name: a\ud800b\n'],
    ['a value starting with a dash', 'name: -a\n'],
    ['a value starting with "@"', 'name: @a\n'],
    ['nothing', '\n\n'],
  ])('leaves %s to the parser', (_case, yaml) => {
    expect(readSimpleYaml(normalizeLineBreaks(yaml))).toBeNull();
  });

  it('locates fields on the lines of the original file, CRLF or not', () => {
    const yaml = 'name: a\r\ndescription: "b"\r\nmetadata:\r\n  author: "c"\r\n';
    expect(agreesWithParser(yaml, 5)).toBe(true);
    expect(readYaml(yaml, 5).locate('metadata.author')).toEqual({ line: 8, column: 11 });
  });

  it.each([
    [
      'one-line values',
      'name: pdf-tools\ndescription: Read PDFs and fill forms\ntags: [pdf, "forms"]\n' +
        "metadata:\n  author: 'Jane'\n  version: 1.0.0\nallowed-tools:\n  - Read\n  - Bash(git:*)\n",
    ],
    [
      'multi-line values',
      'name: pdf-tools\ndescription: Read PDFs and\n  fill forms, fast\n\n  and well\n' +
        'usage: |\n  Run it:\n    pdf fill x\n\n  Done\nnotes: >-\n  One\n  two\n\n  three\ntags: [pdf]\n',
    ],
  ])('agrees with the parser on mutated frontmatters of %s', (_case, base) => {
    const pieces = fc.constantFrom(
      ' ',
      ':',
      ': ',
      '#',
      ' #',
      '-',
      '- ',
      ',',
      '[',
      ']',
      '{',
      '}',
      '"',
      "'",
      '\\',
      '\\"',
      "''",
      '\n',
      '\n  ',
      '  ',
      '\t',
      '&',
      '*',
      '!',
      '|',
      '>',
      '%',
      '@',
      '`',
      '~',
      '?',
      '.',
      '0',
      '1.5',
      'true',
      'null',
      'é',
      '📄',
      '\u00a0',
      '\u3000',
      '\u0085',
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(base.length), pieces), { maxLength: 3 }), (edits) => {
        let yaml = base;
        for (const [at, piece] of edits)
          yaml = yaml.slice(0, at % (yaml.length + 1)) + piece + yaml.slice(at % (yaml.length + 1));
        agreesWithParser(yaml);
      }),
      { numRuns: 3000 },
    );
  });
});

/** The frontmatters of the SKILL.md files under `dir`. */
function frontmattersUnder(dir: string): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder)) {
      const path = join(folder, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry === 'SKILL.md') {
        const split = splitFrontmatter(readFileSync(path, 'utf8'));
        if (split.hasFrontmatter) found.push(split.yaml);
      }
    }
  };
  walk(dir);
  return found;
}

describeCorpus('readSimpleYaml on the corpus', () => {
  it('reads a good share of real frontmatters, each as the parser does', () => {
    const frontmatters = frontmattersUnder(join(findCorpus() as string, 'skills'));
    let read = 0;
    for (const yaml of frontmatters) if (agreesWithParser(yaml)) read++;
    // This corpus gathers unusual frontmatters (block scalars, booleans, deep metadata), yet many are
    // of the simple shape; a reader that gave up on them would save nothing.
    expect(read / frontmatters.length).toBeGreaterThan(0.3);
  });
});
