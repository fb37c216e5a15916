import { describe, expect, it } from 'vitest';
import { SKILL_FILE_PATH_MAX_LENGTH, skillFilePathProblem, skillPathConflict } from '../src/index.js';

describe('skillFilePathProblem', () => {
  it.each(['SKILL.md', 'scripts/run.py', '.abstract.md', 'docs/deep/page one.md', '..x/y..', '%2e%2e/a'])(
    'accepts %j',
    (path) => {
      expect(skillFilePathProblem(path)).toBeNull();
    },
  );

  it.each([
    ['..', 'segment'],
    ['../../observer/queue', 'segment'],
    ['docs/../SKILL.md', 'segment'],
    ['./SKILL.md', 'segment'],
    ['docs/', 'segment'],
    ['/etc/passwd', 'segment'],
    ['docs//a.md', 'segment'],
    ['docs\\..\\a', 'characters'],
    ['a\u0000b', 'characters'],
    ['', 'length'],
    ['a'.repeat(SKILL_FILE_PATH_MAX_LENGTH + 1), 'length'],
  ])('refuses %j (%s)', (path, reason) => {
    const problem = skillFilePathProblem(path);
    expect(problem?.reason).toBe(reason);
    expect(problem?.message).toMatch(/^File path /);
  });
});

describe('skillPathConflict', () => {
  it.each([
    [['SKILL.md', 'Ref.md', 'ref.md'], { path: 'ref.md', other: 'Ref.md', kind: 'case' }],
    [['SKILL.md', 'skill.md'], { path: 'skill.md', other: 'SKILL.md', kind: 'case' }],
    // "é" precomposed (NFC) and as "e" + combining acute (NFD): one name on macOS.
    [['caf\u00e9.md', 'cafe\u0301.md'], { path: 'cafe\u0301.md', other: 'caf\u00e9.md', kind: 'case' }],
    [['docs', 'docs/a.txt'], { path: 'docs/a.txt', other: 'docs', kind: 'file_and_folder' }],
    [['Docs', 'docs/deep/a.txt'], { path: 'docs/deep/a.txt', other: 'Docs', kind: 'file_and_folder' }],
    [['SKILL.md/x', 'SKILL.md'], { path: 'SKILL.md/x', other: 'SKILL.md', kind: 'file_and_folder' }],
  ])('%j conflict', (paths, expected) => {
    const conflict = skillPathConflict(paths);
    expect(conflict).toMatchObject(expected);
    expect(conflict?.message).toContain(JSON.stringify(expected.path));
    expect(conflict?.message).toContain(JSON.stringify(expected.other));
  });

  it.each([
    [[]],
    [['SKILL.md', 'docs/a.md', 'docs/b.md', 'Docs2/a.md', 'docs.md']],
    [['a/b/c.md', 'a/b/d.md', 'a/bc.md']],
  ])('%j has none', (paths) => {
    expect(skillPathConflict(paths)).toBeNull();
  });
});
