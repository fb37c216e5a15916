/**
 * `viking://` URIs of skill roots and skills.
 *
 * Grammar (one optional trailing `/` tolerated, scheme case-insensitive):
 * ```
 * viking://agent/skills[/<skill>[/<path>]]
 * viking://user/<user_id>/skills[/<skill>[/<path>]]
 * viking://~/skills[/<skill>[/<path>]]          (home alias: the caller's own user root)
 * viking://user/skills[/<skill>[/<path>]]       (the same alias, as OpenViking's clients spell it)
 * ```
 * `viking://user/skills/skills[/…]` is the root of the user `skills`, not the alias.
 * `<user_id>` is `[A-Za-z0-9_.@-]+` (not `.` or `..`), `<skill>` follows the add-time name rule, and
 * `<path>` segments are non-empty, never `.` or `..`, without `\`, control characters, `?` or `#`.
 *
 * @see the skill model of the @skillport/core README, the OpenAPI document: `POST /api/v1/skills` (`target_uri`, `INVALID_URI` details)
 */
import { SkillportError } from './errors.js';
import { SKILL_NAME_PATTERN } from './names.js';

/** The shared skill root of an account. @see the skill model of the @skillport/core README */
export const AGENT_SKILL_ROOT = 'viking://agent/skills';

/** The home alias: the calling user's own skill root. @see the skill model of the @skillport/core README */
export const HOME_SKILL_ROOT = 'viking://~/skills';

/** Characters allowed in a user id inside a URI. */
export const USER_ID_PATTERN: RegExp = /^[A-Za-z0-9_.@-]+$/;

const SCHEME = 'viking://';
const UIDLESS_HINT =
  "the user root needs a user id: use 'viking://user/{user_id}/skills' or the home alias 'viking://~/skills'";

/** A parsed `viking://` skill URI. */
export interface VikingUri {
  /** `user` for `viking://user/…` and `viking://~/…`, `agent` for `viking://agent/…`. */
  scope: 'user' | 'agent';
  /** The user id (the `~` alias resolved to the caller's id when known), `null` for the agent root or an unresolved `~`. */
  userId: string | null;
  /** The canonical skill root, e.g. `viking://user/alice/skills` (`viking://~/skills` when `~` is unresolved). */
  rootUri: string;
  /** The skill folder named by the URI, or `null` for a bare root. */
  skillName: string | null;
  /** The file path inside the skill folder (`a/b.md`), or `null`. */
  path: string | null;
}

/** Options of {@link parseVikingUri}. */
export interface ParseVikingUriOptions {
  /** The caller's user id; `~` resolves to it. Without it `~` stays unresolved (`userId: null`). */
  userId?: string;
}

/**
 * Builds the private skill root of one user.
 *
 * @param userId - the user id, `[A-Za-z0-9_.@-]+` (not `.` or `..`)
 * @returns `viking://user/{userId}/skills`
 * @throws SkillportError `INVALID_URI` with `details: {uri, reason}` for an empty or ill-formed id
 * @example
 * ```ts
 * userSkillRoot('alice'); // 'viking://user/alice/skills'
 * ```
 * @see the skill model of the @skillport/core README
 */
export function userSkillRoot(userId: string): string {
  const uri = `${SCHEME}user/${userId}/skills`;
  checkUserId(userId, uri);
  return uri;
}

/**
 * Parses a `viking://` skill URI into its scope, user, root, skill name and path.
 *
 * @param uri - the URI as received
 * @param options - `userId`: the caller's id, used for the `~` alias (default: unresolved)
 * @returns a {@link VikingUri}; `rootUri` is canonical (lowercase scheme, no trailing `/`, `~` resolved)
 * The uid-less `viking://user/skills` is the home alias (`viking://~/skills`): OpenViking's clients
 * and older docs spell the caller's own root that way.
 *
 * @throws SkillportError `INVALID_URI` (400) with `details: {uri, reason}` for another scheme, a bare
 *   `viking://user` (the reason names `viking://user/{user_id}/skills` and `viking://~/skills`), an
 *   empty or ill-formed user id, a bad skill name, `.`/`..` or empty segments
 * @example
 * ```ts
 * parseVikingUri('viking://~/skills/search-web/SKILL.md', { userId: 'alice' });
 * // { scope: 'user', userId: 'alice', rootUri: 'viking://user/alice/skills',
 * //   skillName: 'search-web', path: 'SKILL.md' }
 * ```
 * @see the skill model of the @skillport/core README
 */
export function parseVikingUri(uri: string, options: ParseVikingUriOptions = {}): VikingUri {
  if (typeof uri !== 'string') throw uriError(String(uri), 'must be a string');
  if (uri.slice(0, SCHEME.length).toLowerCase() !== SCHEME) {
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(uri)?.[1];
    throw uriError(
      uri,
      scheme === undefined
        ? "not a viking:// URI (expected e.g. 'viking://agent/skills')"
        : `unsupported scheme '${scheme}' (expected 'viking://')`,
    );
  }
  const rest = uri.slice(SCHEME.length).replace(/\/$/, '');
  const bad = /[?#\\\u0000-\u001f\u007f]/.exec(rest);
  if (bad) throw uriError(uri, `contains the character ${JSON.stringify(bad[0])}`);
  if (rest === '') throw uriError(uri, "names no space (expected e.g. 'viking://agent/skills')");
  // Only the segments naming the root and the skill are split off; the file path after them stays one
  // substring (splitting a path of 1.5 million segments took 0.8 s), its segments checked by scanning.
  const { parts, remainder } = splitFirstSegments(rest, 4);
  if (parts[0] === 'user' && parts[1] === '') throw uriError(uri, 'the user id is empty');
  if (rest.startsWith('/') || rest.endsWith('/') || rest.includes('//')) {
    throw uriError(uri, 'has an empty path segment');
  }
  if (DOT_SEGMENT.test(rest)) throw uriError(uri, "has a '.' or '..' segment");

  const [head, ...tail] = parts;
  let scope: VikingUri['scope'];
  let userId: string | null;
  let rootUri: string;
  /** Segments of `parts` naming the root. */
  let rootLength: number;
  if (head === 'agent') {
    if (tail[0] !== 'skills') throw uriError(uri, "not a skill root (expected 'viking://agent/skills')");
    scope = 'agent';
    userId = null;
    rootUri = AGENT_SKILL_ROOT;
    rootLength = 2;
  } else if (head === '~' || (head === 'user' && tail[0] === 'skills' && tail[1] !== 'skills')) {
    // `viking://user/skills[/…]` (no user id) is the home alias too, unless the next segment is
    // `skills` again: `viking://user/skills/skills` is the root of the user `skills`.
    if (tail[0] !== 'skills') throw uriError(uri, "not a skill root (expected 'viking://~/skills')");
    scope = 'user';
    if (options.userId === undefined) {
      userId = null;
      rootUri = HOME_SKILL_ROOT;
    } else {
      userId = options.userId;
      rootUri = userSkillRoot(userId);
    }
    rootLength = 2;
  } else if (head === 'user') {
    const [id, skills] = tail;
    if (id === undefined) throw uriError(uri, UIDLESS_HINT);
    checkUserId(id, uri);
    if (skills !== 'skills') {
      throw uriError(uri, `not a skill root (expected 'viking://user/${id}/skills')`);
    }
    scope = 'user';
    userId = id;
    rootUri = `${SCHEME}user/${id}/skills`;
    rootLength = 3;
  } else {
    throw uriError(
      uri,
      "unknown space (expected 'viking://user/{user_id}/skills', 'viking://~/skills' or 'viking://agent/skills')",
    );
  }

  const skillName = parts[rootLength];
  if (skillName !== undefined && !SKILL_NAME_PATTERN.test(skillName)) {
    throw uriError(
      uri,
      `invalid skill name ${JSON.stringify(skillName.slice(0, 80))} (expected 1-64 of [A-Za-z0-9_-], e.g. 'search-web')`,
    );
  }
  const pathSegments = parts.slice(rootLength + 1);
  if (remainder !== null) pathSegments.push(remainder);
  return {
    scope,
    userId,
    rootUri,
    skillName: skillName ?? null,
    path: pathSegments.length > 0 ? pathSegments.join('/') : null,
  };
}

/** A `.` or `..` segment of a `/`-separated path. */
const DOT_SEGMENT = /(?:^|\/)\.\.?(?:\/|$)/;

/**
 * The first `count` segments of a `/`-separated path, and the rest of it unsplit (null when the path
 * has no more than `count` segments).
 */
function splitFirstSegments(text: string, count: number): { parts: string[]; remainder: string | null } {
  const parts: string[] = [];
  let start = 0;
  while (parts.length < count) {
    const slash = text.indexOf('/', start);
    if (slash < 0) {
      parts.push(text.slice(start));
      return { parts, remainder: null };
    }
    parts.push(text.slice(start, slash));
    start = slash + 1;
  }
  return { parts, remainder: text.slice(start) };
}

/**
 * Resolves a request's `target_uri` to a canonical skill root.
 *
 * Not given (`undefined`, `null` or `''`, as existing clients send) → the caller's user root. The
 * `~` alias resolves to `userId`. A URI naming a skill inside a root is refused. This function does
 * not authorise: whether the caller may use another user's root is the server's decision.
 *
 * @param targetUri - the `target_uri` field, or nothing
 * @param options - `userId`: the caller's user id
 * @returns `viking://user/{id}/skills` or `viking://agent/skills`
 * @throws SkillportError `INVALID_URI` (400) with `details: {uri, reason}` for anything
 *   {@link parseVikingUri} rejects and for a URI below a root
 * @example
 * ```ts
 * resolveSkillRoot(undefined, { userId: 'alice' });          // 'viking://user/alice/skills'
 * resolveSkillRoot('viking://agent/skills/', { userId: 'alice' }); // 'viking://agent/skills'
 * ```
 * @see the OpenAPI document: `POST /api/v1/skills` (`target_uri`), the skill model of the @skillport/core README
 */
export function resolveSkillRoot(targetUri: string | null | undefined, options: { userId: string }): string {
  if (targetUri === undefined || targetUri === null || targetUri === '') return userSkillRoot(options.userId);
  const parsed = parseVikingUri(targetUri, { userId: options.userId });
  if (parsed.skillName !== null) {
    throw uriError(
      targetUri,
      `names a skill or file, not a skill root (expected a root such as '${parsed.rootUri}')`,
    );
  }
  return parsed.rootUri;
}

function checkUserId(userId: string, uri: string): void {
  if (typeof userId !== 'string' || userId === '') throw uriError(uri, 'the user id is empty');
  if (!USER_ID_PATTERN.test(userId) || userId === '.' || userId === '..') {
    throw uriError(
      uri,
      `invalid user id ${JSON.stringify(userId.slice(0, 80))} (expected [A-Za-z0-9_.@-], e.g. 'alice')`,
    );
  }
}

function uriError(uri: string, reason: string): SkillportError {
  const shown = uri.length > 200 ? `${uri.slice(0, 199)}…` : uri;
  return new SkillportError('INVALID_URI', `Invalid URI ${JSON.stringify(shown)}: ${reason}`, {
    details: { uri: shown, reason },
  });
}
