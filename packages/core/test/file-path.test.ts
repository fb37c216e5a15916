import { describe, expect, it } from 'vitest';
import { SKILL_FILE_PATH_MAX_LENGTH, skillFilePathProblem } from '../src/index.js';

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
