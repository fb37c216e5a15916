import { describe, expect, it } from 'vitest';
import { SKILL_FILE_PATH_MAX_LENGTH, skillFilePathProblem, skillUploadPathProblem } from '../src/index.js';

describe('skillUploadPathProblem', () => {
  it.each([
    'SKILL.md',
    'scripts/run.py',
    'docs/deep/page one.md',
    '..x/.y',
    'docs/',
    'auxiliary.py',
    'con-fig.md',
    'com10.txt',
    'console.log',
    'a.b.c',
    'a'.repeat(255),
    // 85 CJK characters: 255 bytes in UTF-8.
    '\u6587'.repeat(85),
    // 63 emoji (surrogate pairs): 252 bytes.
    '\u{1F600}'.repeat(63),
    Array.from({ length: 16 }, (_, i) => `d${i}`).join('/'),
  ])('accepts %j', (path) => {
    expect(skillUploadPathProblem(path)).toBeNull();
  });

  // Each is the server's refusal of a zip entry so named (400 INVALID_ARGUMENT, `details.reason`).
  it.each([
    ['', 'empty', 'Unsafe file path "": the path is empty'],
    ['/', 'empty', 'Unsafe file path "/": the path is empty'],
    [
      'a\u0001b',
      'control_character',
      'Unsafe file path "a\\u0001b": control characters (NUL included) are not allowed',
    ],
    [
      'a\u007f',
      'control_character',
      'Unsafe file path "a\u007f": control characters (NUL included) are not allowed',
    ],
    ['a\\b.txt', 'backslash', 'Unsafe file path "a\\\\b.txt": backslashes are not allowed (use `/`)'],
    ['/etc/passwd', 'absolute', 'Unsafe file path "/etc/passwd": absolute paths are not allowed'],
    ['C:/evil.dll', 'drive_letter', 'Unsafe file path "C:/evil.dll": drive letters are not allowed'],
    ['../x', 'traversal', 'Unsafe file path "../x": `..` segments are not allowed'],
    ['a/./b', 'empty_segment', 'Unsafe file path "a/./b": `.` and empty segments are not allowed'],
    ['a//b', 'empty_segment', 'Unsafe file path "a//b": `.` and empty segments are not allowed'],
    [
      'a'.repeat(256),
      'segment_too_long',
      `Unsafe file path "${'a'.repeat(200)}": a file or folder name is longer than 255 bytes in UTF-8, more than file systems hold (256 bytes: "${'a'.repeat(40)}"…)`,
    ],
    [
      `${'\u6587'.repeat(100)}.md`,
      'segment_too_long',
      `Unsafe file path "${'\u6587'.repeat(100)}.md": a file or folder name is longer than 255 bytes in UTF-8, more than file systems hold (303 bytes: "${'\u6587'.repeat(40)}"…)`,
    ],
    [
      'aux.py',
      'windows_name',
      'Unsafe file path "aux.py": "aux.py" is a device name Windows reserves in every folder (con, prn, aux, nul, com1–9, lpt1–9, with any extension)',
    ],
    [
      'notes: draft.md',
      'windows_name',
      'Unsafe file path "notes: draft.md": "notes: draft.md" contains ":", which Windows does not allow in a name (none of < > : " | ? *)',
    ],
    [
      'draft.',
      'windows_name',
      'Unsafe file path "draft.": "draft." ends with a dot or a space, which Windows drops from a name (it would be another file there)',
    ],
    ['docs /a.md', 'windows_name', expect.stringContaining('"docs " ends with a dot or a space')],
    ['what?.md', 'windows_name', expect.stringContaining('contains "?"')],
    ['<tag>.md', 'windows_name', expect.stringContaining('contains "<"')],
    ['a|b', 'windows_name', expect.stringContaining('contains "|"')],
    ['say"hi".md', 'windows_name', expect.stringContaining('contains "\\""')],
    ['star*.txt', 'windows_name', expect.stringContaining('contains "*"')],
    ['CON', 'windows_name', expect.stringContaining('is a device name')],
    ['scripts/com1.txt', 'windows_name', expect.stringContaining('"com1.txt" is a device name')],
    ['Lpt9.tar.gz', 'windows_name', expect.stringContaining('is a device name')],
    ['com\u00b9', 'windows_name', expect.stringContaining('is a device name')],
    ['aux/readme.md', 'windows_name', expect.stringContaining('"aux" is a device name')],
    [
      Array.from({ length: 17 }, (_, i) => `d${i}`).join('/'),
      'too_deep',
      `Unsafe file path "${Array.from({ length: 17 }, (_, i) => `d${i}`).join('/')}": nested 17 levels deep; the limit is 16`,
    ],
  ])('refuses %j: %s', (path, reason, message) => {
    expect(skillUploadPathProblem(path)).toEqual({ reason, message });
  });

  it('checks the rules in the server order: the first rule broken is reported', () => {
    // A control character before a backslash, a backslash before `..`, `..` before depth.
    expect(skillUploadPathProblem('..\\a\u0000')?.reason).toBe('control_character');
    expect(skillUploadPathProblem('../a\\b')?.reason).toBe('backslash');
    expect(skillUploadPathProblem('a/b/../c', { maxDepth: 1 })?.reason).toBe('traversal');
    // Segment by segment: a too long name before a Windows name after it, and the depth last.
    expect(skillUploadPathProblem(`${'x'.repeat(300)}/aux`)?.reason).toBe('segment_too_long');
    expect(skillUploadPathProblem('aux/b/c/d', { maxDepth: 2 })?.reason).toBe('windows_name');
  });

  it('takes the depth limit given, and names the entry as the upload spells it', () => {
    expect(skillUploadPathProblem('a/b/c.md', { maxDepth: 3 })).toBeNull();
    expect(skillUploadPathProblem('a/b/c.md', { maxDepth: 2 })).toEqual({
      reason: 'too_deep',
      message: 'Unsafe file path "a/b/c.md": nested 3 levels deep; the limit is 2',
    });
    expect(skillUploadPathProblem('../x', { written: '..\\x' })).toEqual({
      reason: 'traversal',
      message: 'Unsafe file path "..\\\\x" (read as "../x"): `..` segments are not allowed',
    });
    expect(skillUploadPathProblem('x.md', { written: 'x.md' })).toBeNull();
  });

  it('counts UTF-8 bytes as an encoder does, lone surrogates as U+FFFD (3 bytes)', () => {
    const cases = [
      // 127 lone high surrogates: 381 bytes, though 127 UTF-16 units.
      '\ud800'.repeat(127),
      // 86 lone low surrogates: 258 bytes.
      '\udc00'.repeat(86),
      // 64 emoji: 256 bytes; 63 emoji and a 3-byte character: 255.
      '\u{1F600}'.repeat(64),
      `${'\u{1F600}'.repeat(63)}\u6587`,
      // Two-byte characters: 128 of them are 256 bytes.
      '\u00e9'.repeat(128),
      '\u00e9'.repeat(127),
      // A high surrogate at the very end.
      `${'a'.repeat(252)}\ud800`,
    ];
    for (const segment of cases) {
      const bytes = new TextEncoder().encode(segment).byteLength;
      const problem = skillUploadPathProblem(segment);
      if (bytes > 255) {
        expect(problem?.reason, segment).toBe('segment_too_long');
        expect(problem?.message).toContain(`(${bytes} bytes: `);
      } else expect(problem, segment).toBeNull();
    }
  });

  it('answers long input, naming only the start of it', () => {
    const long = 'x'.repeat(8_000_000);
    const tooLong = skillUploadPathProblem(long);
    expect(tooLong?.reason).toBe('segment_too_long');
    expect(tooLong?.message).toContain('(8000000 bytes: ');
    expect(tooLong?.message.length).toBeLessThan(500);
    // Many short segments: refused for depth once every segment is checked.
    const deep = Array.from({ length: 500_000 }, () => 'd').join('/');
    expect(skillUploadPathProblem(deep)?.message).toMatch(/nested 500000 levels deep; the limit is 16$/);
    // Multi-byte text past 255 units is refused without encoding it.
    expect(skillUploadPathProblem('\u6587'.repeat(4_000_000))?.message).toContain('(12000000 bytes: ');
  });

  // The file route reads paths of up to 1,024 characters: a longer stored path (16 names of up to
  // 255 bytes pass every other rule) could be listed but never read back nor installed.
  it('refuses a path longer than the file route reads back, after every other rule', () => {
    const exact = `${'a'.repeat(200)}/`.repeat(5).concat('b'.repeat(SKILL_FILE_PATH_MAX_LENGTH - 1005));
    expect(exact.length).toBe(SKILL_FILE_PATH_MAX_LENGTH);
    expect(skillUploadPathProblem(exact)).toBeNull();
    const over = `${exact}c`;
    expect(skillUploadPathProblem(over)).toEqual({
      reason: 'too_long',
      message: `Unsafe file path ${JSON.stringify(over.slice(0, 200))}: the path is 1025 characters long; the limit is 1024, the longest path a skill's files are read back by`,
    });
    // Depth is reported first, as before this rule.
    expect(skillUploadPathProblem(Array.from({ length: 17 }, () => 'x'.repeat(200)).join('/'))?.reason).toBe(
      'too_deep',
    );
    // What is accepted can be read back: the read rule takes it.
    expect(skillFilePathProblem(exact)).toBeNull();
    expect(skillFilePathProblem(over)?.reason).toBe('length');
  });
});
