import { describe, expect, it, vi } from 'vitest';
import { isSkillportError } from '../src/errors.js';
import {
  AGENT_SKILL_ROOT,
  HOME_SKILL_ROOT,
  parseVikingUri,
  resolveSkillRoot,
  userSkillRoot,
  type VikingUri,
} from '../src/uri.js';

function catchError(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    if (isSkillportError(error)) return error;
    throw error;
  }
  throw new Error('expected the call to throw');
}

describe('constants', () => {
  it('spell the roots of DESIGN §2', () => {
    expect(AGENT_SKILL_ROOT).toBe('viking://agent/skills');
    expect(HOME_SKILL_ROOT).toBe('viking://~/skills');
  });
});

describe('userSkillRoot', () => {
  it.each(['alice', 'default', 'a.b@example.com', 'u_1-2'])('%s', (id) => {
    expect(userSkillRoot(id)).toBe(`viking://user/${id}/skills`);
  });

  it.each(['', '.', '..', 'a/b', 'a b', 'ålice'])('rejects %j', (id) => {
    const error = catchError(() => userSkillRoot(id));
    expect(error.code).toBe('INVALID_URI');
    expect(error.details).toMatchObject({ uri: `viking://user/${id}/skills` });
    expect(String(error.details?.reason)).toMatch(/user id/);
  });
});

describe('parseVikingUri', () => {
  const ok: Array<[string, string | undefined, VikingUri]> = [
    [
      'viking://agent/skills',
      undefined,
      { scope: 'agent', userId: null, rootUri: AGENT_SKILL_ROOT, skillName: null, path: null },
    ],
    [
      'viking://agent/skills/',
      undefined,
      { scope: 'agent', userId: null, rootUri: AGENT_SKILL_ROOT, skillName: null, path: null },
    ],
    [
      'VIKING://agent/skills',
      undefined,
      { scope: 'agent', userId: null, rootUri: AGENT_SKILL_ROOT, skillName: null, path: null },
    ],
    [
      'viking://agent/skills/search-web',
      undefined,
      { scope: 'agent', userId: null, rootUri: AGENT_SKILL_ROOT, skillName: 'search-web', path: null },
    ],
    [
      'viking://user/alice/skills/my-skill/scripts/run.sh',
      undefined,
      {
        scope: 'user',
        userId: 'alice',
        rootUri: 'viking://user/alice/skills',
        skillName: 'my-skill',
        path: 'scripts/run.sh',
      },
    ],
    [
      'viking://user/a.b@example.com/skills',
      'bob',
      {
        scope: 'user',
        userId: 'a.b@example.com',
        rootUri: 'viking://user/a.b@example.com/skills',
        skillName: null,
        path: null,
      },
    ],
    [
      'viking://user/skills/skills',
      undefined,
      {
        scope: 'user',
        userId: 'skills',
        rootUri: 'viking://user/skills/skills',
        skillName: null,
        path: null,
      },
    ],
    [
      'viking://~/skills',
      'alice',
      { scope: 'user', userId: 'alice', rootUri: 'viking://user/alice/skills', skillName: null, path: null },
    ],
    [
      'viking://~/skills/x/SKILL.md',
      'alice',
      {
        scope: 'user',
        userId: 'alice',
        rootUri: 'viking://user/alice/skills',
        skillName: 'x',
        path: 'SKILL.md',
      },
    ],
    [
      'viking://~/skills',
      undefined,
      { scope: 'user', userId: null, rootUri: HOME_SKILL_ROOT, skillName: null, path: null },
    ],
    // The uid-less spelling OpenViking's clients send is the home alias.
    [
      'viking://user/skills',
      'alice',
      { scope: 'user', userId: 'alice', rootUri: 'viking://user/alice/skills', skillName: null, path: null },
    ],
    [
      'viking://user/skills/',
      undefined,
      { scope: 'user', userId: null, rootUri: HOME_SKILL_ROOT, skillName: null, path: null },
    ],
    [
      'viking://user/skills/my-skill/scripts/run.sh',
      'alice',
      {
        scope: 'user',
        userId: 'alice',
        rootUri: 'viking://user/alice/skills',
        skillName: 'my-skill',
        path: 'scripts/run.sh',
      },
    ],
    [
      'viking://user/skills/skills/x',
      'alice',
      { scope: 'user', userId: 'skills', rootUri: 'viking://user/skills/skills', skillName: 'x', path: null },
    ],
  ];

  it.each(ok)('%s (user %s)', (uri, userId, expected) => {
    expect(parseVikingUri(uri, userId === undefined ? {} : { userId })).toEqual(expected);
  });

  const bad: Array<[string, RegExp]> = [
    ['https://agent/skills', /unsupported scheme 'https'/],
    ['agent/skills', /not a viking:\/\/ URI/],
    ['', /not a viking:\/\/ URI/],
    ['viking://', /names no space/],
    ['viking://user', /viking:\/\/user\/\{user_id\}\/skills.*viking:\/\/~\/skills/],
    ['viking://user/skills/bad name', /invalid skill name "bad name"/],
    ['viking://user/skills/x/../y', /'\.' or '\.\.' segment/],
    ['viking://user//skills', /the user id is empty/],
    ['viking://user/al ice/skills', /invalid user id "al ice"/],
    ['viking://user/a%2Fb/skills', /invalid user id/],
    ['viking://user/../skills', /'\.' or '\.\.' segment/],
    ['viking://user/alice', /not a skill root \(expected 'viking:\/\/user\/alice\/skills'\)/],
    ['viking://user/alice/files', /not a skill root/],
    ['viking://agent', /not a skill root/],
    ['viking://agent/memories', /not a skill root/],
    ['viking://~', /not a skill root/],
    ['viking://resources/x', /unknown space/],
    ['viking://agent/skills/../x', /'\.' or '\.\.' segment/],
    ['viking://agent/skills/x/./a', /'\.' or '\.\.' segment/],
    ['viking://agent/skills/x//a', /empty path segment/],
    ['viking://agent/skills/bad name', /invalid skill name "bad name"/],
    ['viking://agent/skills/x?y=1', /contains the character "\?"/],
    ['viking://agent/skills/x#frag', /contains the character "#"/],
    ['viking://agent/skills/x\\y', /contains the character/],
    ['viking://agent/skills/x\u0000', /contains the character/],
  ];

  it.each(bad)('rejects %j', (uri, reason) => {
    const error = catchError(() => parseVikingUri(uri, { userId: 'alice' }));
    expect(error.code).toBe('INVALID_URI');
    expect(error.status).toBe(400);
    expect(error.details?.uri).toBe(uri);
    expect(String(error.details?.reason)).toMatch(reason);
    expect(error.message).toContain(String(error.details?.reason));
  });
});

describe('parseVikingUri on a file path of very many segments', () => {
  // 1.5 million segments (3 MB, an MCP resources/read URI): splitting it all into segments took 0.8 s
  // of the request thread; only the segments naming the root and the skill are split off now.
  const path = 'x/'.repeat(1_500_000).slice(0, -1);

  it('splits off only the root and skill segments, and gives the path unchanged', () => {
    const split = vi.spyOn(String.prototype, 'split');
    try {
      const parsed = parseVikingUri(`viking://agent/skills/pdf-tools/${path}`);
      expect(parsed.skillName).toBe('pdf-tools');
      expect(parsed.path).toBe(path);
      // Before: the whole URI was split into 1,500,004 segments.
      expect(split.mock.calls.filter(([separator]) => (separator as unknown) === '/')).toEqual([]);
    } finally {
      split.mockRestore();
    }
  });

  it.each([
    [`${path}//x`, 'has an empty path segment'],
    [`${path}/../x`, "has a '.' or '..' segment"],
    [`${path}/.`, "has a '.' or '..' segment"],
  ])('still finds a bad segment deep in the path (%#)', (tail, reason) => {
    const error = catchError(() => parseVikingUri(`viking://~/skills/pdf-tools/${tail}`));
    expect(error?.message).toContain(reason);
  });
});

describe('resolveSkillRoot', () => {
  it.each<[string | null | undefined, string]>([
    [undefined, 'viking://user/alice/skills'],
    [null, 'viking://user/alice/skills'],
    ['', 'viking://user/alice/skills'],
    ['viking://~/skills', 'viking://user/alice/skills'],
    ['viking://~/skills/', 'viking://user/alice/skills'],
    ['viking://agent/skills', 'viking://agent/skills'],
    ['viking://agent/skills/', 'viking://agent/skills'],
    ['viking://user/alice/skills', 'viking://user/alice/skills'],
    ['viking://user/bob/skills', 'viking://user/bob/skills'],
  ])('%j → %s', (target, expected) => {
    expect(resolveSkillRoot(target, { userId: 'alice' })).toBe(expected);
  });

  it('refuses a skill URI inside a root', () => {
    const error = catchError(() => resolveSkillRoot('viking://agent/skills/search-web', { userId: 'alice' }));
    expect(error.code).toBe('INVALID_URI');
    expect(error.details).toEqual({
      uri: 'viking://agent/skills/search-web',
      reason: "names a skill or file, not a skill root (expected a root such as 'viking://agent/skills')",
    });
  });

  it("reads the uid-less viking://user/skills as the caller's own root", () => {
    expect(resolveSkillRoot('viking://user/skills', { userId: 'alice' })).toBe('viking://user/alice/skills');
    expect(resolveSkillRoot('viking://user/skills/', { userId: 'alice' })).toBe('viking://user/alice/skills');
    expect(catchError(() => resolveSkillRoot('viking://user/skills/x', { userId: 'alice' })).code).toBe(
      'INVALID_URI',
    );
  });

  it('refuses a bare viking://user with a hint naming both spellings', () => {
    const error = catchError(() => resolveSkillRoot('viking://user', { userId: 'alice' }));
    expect(error.code).toBe('INVALID_URI');
    expect(error.details?.uri).toBe('viking://user');
    expect(error.details?.reason).toContain('viking://user/{user_id}/skills');
    expect(error.details?.reason).toContain('viking://~/skills');
  });

  it('refuses an invalid caller id', () => {
    expect(catchError(() => resolveSkillRoot(undefined, { userId: '' })).code).toBe('INVALID_URI');
  });
});
