/**
 * List, find, get and delete (the OpenAPI document: `GET /api/v1/skills`, `POST /api/v1/skills/find`, `GET /api/v1/skills/{name}`, `DELETE /api/v1/skills/{name}`). Every lookup is confined
 * to the caller's account and to the caller's own user root or the account's agent root.
 */
import {
  AGENT_SKILL_ROOT,
  type DeleteSkillResult,
  type FindSkillItem,
  type FindSkillsResult,
  type GetSkillResult,
  type ListSkillsResult,
  type SkillListItem,
  SkillportError,
  userSkillRoot,
} from '@skillport/core';
import {
  iso,
  skillResultJson,
  skillResultOf,
  viewOptionsFor,
  wantsContent,
  wantsOverview,
} from '../store/skill-json.js';
import { skillItemUris, skillUri } from '../store/skill-uri.js';
import type { Identity, SearchHit, SearchHitSkill, SkillRecord, SkillRevisionState } from '../store/types.js';
import type { ServiceDeps } from './deps.js';
import { checkCursorRoot, encodeListCursor, type NameCursor } from './list-cursor.js';
import { ownedBytes } from './read-cache.js';
import { applyDeletedCap, applyRetention, purgeHistory } from './retention.js';
import { resolveSkillName } from './skill-name.js';
import { resolveCallerRoot } from './skill-roots.js';

export { iso, skillFilesOf } from '../store/skill-json.js';

/** The roots a request looks at: the given one, or the user root then the agent root. */
export function rootsFor(identity: Identity, targetUri: string | null | undefined): string[] {
  if (typeof targetUri === 'string' && targetUri.trim() !== '') {
    return [resolveCallerRoot(identity, targetUri)];
  }
  return [userSkillRoot(identity.userId), AGENT_SKILL_ROOT];
}

/** A stored skill as a list item. */
export function toListItem(skill: SearchHitSkill): SkillListItem {
  return {
    type: 'skill',
    name: skill.name,
    ...skillItemUris(skill.rootUri, skill.name),
    description: skill.description,
    tags: skill.tags,
    allowed_tools: skill.allowedTools,
    level: 0,
    revision: skill.revision,
    updated_at: iso(skill.updatedAt),
  };
}

/** Skills per page of the listing by name when `node_limit` is not given. */
export const DEFAULT_LIST_PAGE = 100;
/** Most skills per page of the listing by name; a larger `node_limit` is clamped to it. */
export const MAX_LIST_PAGE = 1000;

/** Most hits a find returns; a larger `limit` is clamped to it, as `node_limit` is to {@link MAX_LIST_PAGE}. */
export const MAX_FIND_LIMIT = 1000;

/** `node_limit` as the page size: clamped to 0–{@link MAX_LIST_PAGE}. */
function pageSizeOf(limit: number): number {
  return Math.min(Math.max(0, Math.floor(limit)), MAX_LIST_PAGE);
}

/**
 * Lists skills by name, user root first, a page at a time (keyset pagination: a page costs the
 * same wherever it starts).
 *
 * @param options.limit - skills per page (`node_limit`), clamped to 0–{@link MAX_LIST_PAGE}
 * @param options.cursor - where to continue (a previous page's `next_cursor`, decoded), or null
 * @param options.targetUri - one root, or both roots when absent
 * @returns `skills`, `total` (all skills of the listed roots), `has_more`, and `next_cursor` when
 *   more follow
 * @throws SkillportError `INVALID_ARGUMENT` for a cursor of another root
 */
export async function listSkills(
  deps: ServiceDeps,
  identity: Identity,
  options: { limit: number; cursor?: NameCursor | null; targetUri: string | null },
): Promise<ListSkillsResult> {
  const roots = rootsFor(identity, options.targetUri);
  const root = options.targetUri === null ? null : (roots[0] as string);
  const cursor = options.cursor ?? null;
  if (cursor !== null) {
    checkCursorRoot(cursor, root);
    if (cursor.rootIndex >= roots.length) {
      throw new SkillportError('INVALID_ARGUMENT', 'Invalid cursor: not a cursor of this listing', {
        details: { field: 'cursor' },
      });
    }
  }
  const pageSize = pageSizeOf(options.limit);
  const skills: SkillListItem[] = [];
  let total = 0;
  let more = false;
  // The position after the last skill returned: the root it came from and its name.
  let position = { rootIndex: cursor?.rootIndex ?? 0, after: cursor?.after ?? '' };
  for (const [index, rootUri] of roots.entries()) {
    if (index < position.rootIndex || more) {
      total += (await deps.store.listSkills(identity.accountId, rootUri, { limit: 0 })).total;
      continue;
    }
    const want = pageSize - skills.length;
    const after = index === position.rootIndex ? position.after : '';
    // One more than the page needs tells whether the listing goes on past it.
    const page = await deps.store.listSkills(identity.accountId, rootUri, {
      limit: want + 1,
      ...(after !== '' ? { after } : {}),
      summary: true,
    });
    total += page.total;
    const taken = page.skills.slice(0, want);
    for (const s of taken) skills.push(toListItem(s));
    const last = taken[taken.length - 1];
    if (last !== undefined) position = { rootIndex: index, after: last.name };
    if (page.skills.length > want) more = true;
  }
  const paging = more
    ? {
        has_more: true,
        next_cursor: encodeListCursor({ kind: 'name', ...position, root }),
      }
    : { has_more: false };
  return root !== null
    ? { root_uri: root, skills, total, ...paging }
    : { root_uris: roots, skills, total, ...paging };
}

/** Read-cache key prefix of list pages (a NUL cannot start the account id of a get key). */
const LIST_KEY = '\u0000list\n';

/**
 * {@link listSkills} as UTF-8 JSON, from the read cache when the store has not changed since the same
 * page (same caller, root, cursor and page size) was built: a hit costs no store call but the change
 * token. A page is a pure function of the database, so the token makes it safe across replicas.
 *
 * @param changeToken - the store's change token read for this request before any store read (else
 *   read here)
 * @returns `JSON.stringify` of the list result, encoded as UTF-8 (kept and sent as these bytes)
 * @throws SkillportError `INVALID_ARGUMENT` for a cursor of another root (never cached)
 */
export async function listSkillsJson(
  deps: ServiceDeps,
  identity: Identity,
  options: { limit: number; cursor?: NameCursor | null; targetUri: string | null },
  changeToken?: string,
): Promise<Buffer> {
  const cursor = options.cursor ?? null;
  const position = cursor === null ? '-' : `${cursor.rootIndex}\n${cursor.root ?? '\u0000'}\n${cursor.after}`;
  const key =
    `${LIST_KEY}${identity.accountId}\n${identity.userId}\n${options.targetUri ?? '\u0000'}\n` +
    `${pageSizeOf(options.limit)}\n${position}`;
  // The token is read before the store, so what is kept is never older than the token says.
  const token = changeToken ?? (await deps.store.changeToken());
  const hit = deps.readCache.get(key, token);
  if (Buffer.isBuffer(hit)) return hit;
  const json = ownedBytes(Buffer.from(JSON.stringify(await listSkills(deps, identity, options))));
  deps.readCache.set(key, token, json, json.byteLength + key.length * 2 + 100);
  return json;
}

/** Inputs of {@link findSkills}. */
export interface FindSkillsOptions {
  query: string;
  limit: number;
  scoreThreshold: number | null;
  targetUri: string | null;
  levels: number[] | null;
}

/**
 * Finds skills over both roots (or one), de-duplicated by name, best first: lexical search, fused
 * with semantic search when an embeddings endpoint is configured (the query is embedded here; when
 * that fails, lexical only). Runs when the caller's turn comes (`deps.findGate`).
 *
 * @param options.limit - most hits (at least 1); above {@link MAX_FIND_LIMIT} it is clamped to it
 * @throws SkillportError 429 `RESOURCE_EXHAUSTED` (`finds_in_flight`) past the caller's finds at once
 */
export async function findSkills(
  deps: ServiceDeps,
  identity: Identity,
  options: FindSkillsOptions,
): Promise<FindSkillsResult> {
  return (await findSkillsAnswer(deps, identity, options)).result;
}

/** Read-cache key prefix of find results (a NUL cannot start the account id of a get key). */
const FIND_KEY = '\u0000find\n';

/**
 * Longest query whose result is kept, characters: a longer one (rarely asked twice) is ranked every
 * time, so a kept key stays small next to its result.
 */
const MAX_KEPT_QUERY_LENGTH = 2048;

/**
 * {@link findSkills} as UTF-8 JSON, from the read cache when the store has not changed since the same
 * find (same caller, query, limit, threshold, levels and root) was answered: a hit costs no store
 * call, no ranking and no rendering, only the change token, and does not wait for the caller's turn.
 * A result is kept only when it is a function of the database state and the inputs alone
 * (`SearchAnswer.stable`, and with semantic search configured, the query's vector was had: a find
 * ranked lexically because the embedder failed or was slow is not kept). The token is read before the
 * store, so a kept result is never older than its token says, on any replica.
 *
 * @param changeToken - the store's change token read for this request before any store read (else
 *   read here)
 * @returns `JSON.stringify` of the find result, encoded as UTF-8 (kept and sent as these bytes)
 * @throws as {@link findSkills}
 */
export async function findSkillsJson(
  deps: ServiceDeps,
  identity: Identity,
  options: FindSkillsOptions,
  changeToken?: string,
): Promise<Buffer> {
  const limit = Math.min(options.limit, MAX_FIND_LIMIT);
  const key =
    options.query.length > MAX_KEPT_QUERY_LENGTH
      ? null
      : FIND_KEY +
        JSON.stringify([
          identity.accountId,
          identity.userId,
          options.targetUri,
          limit,
          options.scoreThreshold,
          options.levels,
          options.query,
        ]);
  const token = changeToken ?? (await deps.store.changeToken());
  const hit = key === null ? undefined : deps.readCache.get(key, token);
  if (Buffer.isBuffer(hit)) return hit;
  const { result, stable } = await findSkillsAnswer(deps, identity, options);
  const json = ownedBytes(Buffer.from(JSON.stringify(result)));
  // In the find share of the cache: distinct queries, each asked once, cannot push get results out.
  if (key !== null && stable)
    deps.readCache.set(key, token, json, json.byteLength + key.length * 2 + 100, 'find');
  return json;
}

/** {@link findSkills}, with whether its result may be kept under the change token read before it. */
async function findSkillsAnswer(
  deps: ServiceDeps,
  identity: Identity,
  options: FindSkillsOptions,
): Promise<{ result: FindSkillsResult; stable: boolean }> {
  // A client asking for more than the most (OpenViking's accept any limit) gets the most, not a 400.
  const clamped = { ...options, limit: Math.min(options.limit, MAX_FIND_LIMIT) };
  return deps.findGate.run(identity, () => rankSkills(deps, identity, clamped));
}

const FIELD_LEVEL: Record<string, number> = { name: 0, tags: 0, description: 0, overview: 1, body: 2 };

/** {@link findSkillsAnswer} once the caller's turn has come. */
async function rankSkills(
  deps: ServiceDeps,
  identity: Identity,
  options: FindSkillsOptions,
): Promise<{ result: FindSkillsResult; stable: boolean }> {
  const roots = rootsFor(identity, options.targetUri);
  const semantic = deps.queryVectors ? await deps.queryVectors(options.query) : null;
  // The store ranks, de-duplicates by name across the roots and cuts to `limit`. A lexical find gets
  // the same hits for `limit` as for more (its candidates are the exact best by words), so it asks for
  // `limit`: more cost the search thread ~17% more CPU per first-time find (10 → 20 hits, 10,000
  // skills) for hits never sent. A semantic find asks for one `limit` per root: the meaning re-ranks
  // the lexical candidates the engine drew for that many, so fewer would drop hits the meaning lifts
  // (at `limit` 50 against two roots, 23 of the exhaustive top 50 instead of 9).
  const answer = await deps.store.searchAnswer(identity.accountId, roots, options.query, {
    limit: options.levels
      ? Math.max(options.limit * 4, 50)
      : semantic !== null
        ? options.limit * roots.length
        : options.limit,
    ...(semantic ? { semantic } : {}),
  });
  const seen = new Set<string>();
  const skills: FindSkillItem[] = [];
  for (const hit of answer.hits) {
    if (options.scoreThreshold !== null && hit.score < options.scoreThreshold) continue;
    const level = Math.min(...hit.matchedFields.map((f) => FIELD_LEVEL[f] ?? 2), 2);
    if (options.levels && !options.levels.includes(level)) continue;
    if (seen.has(hit.skill.name)) continue;
    seen.add(hit.skill.name);
    // The L0 abstract is a pure function of fields the hit carries (it is rendered from them at write
    // time), so it is rendered again here rather than read: no file of the hit is read.
    const abstract = deps.renderAbstract({
      name: hit.skill.name,
      description: hit.skill.description,
      tags: hit.skill.tags,
      allowedTools: hit.skill.allowedTools,
    });
    skills.push(toFindItem(hit, abstract, level));
    if (skills.length >= options.limit) break;
  }
  return {
    result: { query: options.query, root_uris: roots, skills, total: skills.length },
    // Lexical only because the query's vector was not had (embedder failed or slow): not kept.
    stable: answer.stable && (deps.queryVectors === null || semantic !== null),
  };
}

/**
 * A search hit as a find item: the list item's fields in its order, then `abstract`, `score` and
 * `match_reason`. Written out as one literal: spreading the list item into a new object (V8's
 * slow path for copying an object of that many properties) cost ~6 µs per hit, most of the CPU of
 * turning a find's hits into its result.
 */
function toFindItem(hit: SearchHit, abstract: string, level: number): FindSkillItem {
  const { skill } = hit;
  const { uri, root_uri, skill_md_uri } = skillItemUris(skill.rootUri, skill.name);
  return {
    type: 'skill',
    name: skill.name,
    uri,
    root_uri,
    skill_md_uri,
    description: skill.description,
    tags: skill.tags,
    allowed_tools: skill.allowedTools,
    level,
    revision: skill.revision,
    updated_at: iso(skill.updatedAt),
    abstract,
    score: hit.score,
    match_reason: hit.matchReason,
  };
}

/** The contract's 404 for a skill missing from `roots`. */
export function notFound(name: string, roots: readonly string[]): SkillportError {
  return new SkillportError('NOT_FOUND', `Skill ${JSON.stringify(name)} not found in ${roots.join(' or ')}`, {
    details: { type: 'skill', resource: `${roots[0]}/${name}` },
  });
}

/** Options of {@link getSkill}. */
export interface GetSkillOptions {
  level: 0 | 1 | 2 | null;
  /** `include_content`: true, false, or null when not given (see `wantsContent`). */
  includeContent: boolean | null;
  includeFiles: boolean;
  includeSource: boolean;
  targetUri: string | null;
}

/**
 * Reads one skill at the requested level(s).
 *
 * @returns the get result and the revision for the `ETag` header
 * @throws SkillportError `NOT_FOUND` with `details {type: 'skill', resource}`
 */
export async function getSkill(
  deps: ServiceDeps,
  identity: Identity,
  rawName: string,
  options: GetSkillOptions,
): Promise<GetSkillResult> {
  return (await readSkill(deps, identity, rawName, options)).result;
}

/** A get result as JSON, as {@link getSkillJson} returns it (and its read cache keeps it). */
export interface SkillJson {
  /**
   * `JSON.stringify` of the get result, encoded as UTF-8: kept and sent as these bytes (half the
   * memory of the string for mostly-ASCII text, and no encoding per response).
   */
  json: Buffer;
  /** The skill's revision (the `ETag`). */
  revision: string;
  /**
   * True once the processing job has written the skill's overview: the result no longer changes
   * until the skill does (before, the overview is rendered on the fly and the file list lacks
   * `.overview.md`).
   */
  settled: boolean;
  /**
   * The skill's stamp read with the result when settled (see `SkillRevisionState.stamp`), else null:
   * while the skill's current stamp is the same, so is this result, whatever else was committed.
   */
  stamp: string | null;
}

/**
 * {@link getSkill} as UTF-8 JSON, from the read cache when the store has not changed since the same
 * read (same caller, name and options) was rendered: a hit costs no store call but the change token.
 * After a commit, a kept result of a settled skill is checked against the skill's current stamp
 * (`Store.readSkillRevision`: an index probe, no body, no contents) and served again when the skill is
 * unchanged — so writes to other skills do not empty the cache of this one. The stamp is read from the
 * database, so this holds with several replicas on one database too.
 *
 * @param changeToken - the store's change token read for this request before any store read (else
 *   read here)
 * @returns the JSON bytes, the revision and whether the skill is settled
 * @throws SkillportError `NOT_FOUND` (never cached)
 */
export async function getSkillJson(
  deps: ServiceDeps,
  identity: Identity,
  rawName: string,
  options: GetSkillOptions,
  changeToken?: string,
): Promise<SkillJson> {
  const key = getKey(identity, rawName, options);
  // The token is read before the store, so what is kept is never older than the token says.
  const token = changeToken ?? (await deps.store.changeToken());
  const kept = deps.readCache.lookup(key, token);
  if (kept?.fresh) return kept.value as SkillJson;
  const { name } = resolveSkillName(rawName, deps.namePolicy);
  const roots = rootsFor(identity, options.targetUri);
  const stale = kept?.value as SkillJson | undefined;
  if (stale?.stamp) {
    // Read after the token: a stamp equal to the kept one means the kept result is the current one.
    const state = await deps.store.readSkillRevision(identity.accountId, roots, name);
    if (state?.stamp === stale.stamp) {
      deps.readCache.restamp(key, token);
      return stale;
    }
  }
  // One store call answers the JSON itself (on SQLite built inside the database thread, from the stored
  // UTF-8 bytes of the abstract and SKILL.md); only a skill whose overview is still to be rendered comes
  // back as a view, and is finished here.
  const read = await deps.store.readSkillJson(identity.accountId, roots, name, options);
  if (read === null) throw notFound(name, roots);
  let entry: SkillJson;
  if ('json' in read) {
    const { json } = read;
    entry = {
      json: ownedBytes(Buffer.from(json.buffer, json.byteOffset, json.byteLength)),
      revision: read.revision,
      settled: read.settled,
      stamp: read.settled ? read.stamp : null,
    };
  } else {
    const overview = await renderedOverview(deps, read.view.skill);
    entry = {
      json: ownedBytes(skillResultJson(read.view, options, overview)),
      revision: read.view.skill.revision,
      settled: false,
      stamp: null,
    };
  }
  deps.readCache.set(
    key,
    token,
    entry,
    entry.json.byteLength + (key.length + (entry.stamp?.length ?? 0)) * 2 + 200,
  );
  return entry;
}

/** The overview of a skill whose processing job has not written it yet, rendered from its body. */
async function renderedOverview(deps: ServiceDeps, skill: SkillRecord): Promise<string> {
  return (
    skill.overview ??
    (await deps.renderOverview?.({
      name: skill.name,
      description: skill.description,
      tags: skill.tags,
      allowedTools: skill.allowedTools,
      body: skill.body,
    })) ??
    ''
  );
}

/** Read-cache key of a get result: caller, root, name as sent and options. */
function getKey(identity: Identity, rawName: string, options: GetSkillOptions): string {
  return (
    `${identity.accountId}\n${identity.userId}\n${options.targetUri ?? ''}\n${rawName}\n${options.level}` +
    `${wantsContent(options) ? 'c' : ''}${options.includeFiles ? 'f' : ''}${options.includeSource ? 's' : ''}`
  );
}

/** Read-cache key prefix of revision lookups (a NUL cannot start the account id of a get key). */
const REVISION_KEY = '\u0000revision\n';

/** Read-cache key of a revision lookup: caller, root and name as sent. */
function revisionKey(identity: Identity, rawName: string, options: GetSkillOptions): string {
  return `${REVISION_KEY}${identity.accountId}\n${identity.userId}\n${options.targetUri ?? ''}\n${rawName}`;
}

/**
 * The get result kept for exactly this read (same caller, name as sent and options) when it was kept
 * under `changeToken` — what {@link getSkillJson} would answer without any store call — else
 * undefined. Reads memory only (the entry counts as used); never reads the store, never throws.
 *
 * @param changeToken - the store's change token read for this request after it arrived
 */
export function keptSkillJson(
  deps: Pick<ServiceDeps, 'readCache'>,
  identity: Identity,
  rawName: string,
  options: GetSkillOptions,
  changeToken: string,
): SkillJson | undefined {
  const kept = deps.readCache.lookup(getKey(identity, rawName, options), changeToken);
  return kept?.fresh ? (kept.value as SkillJson) : undefined;
}

/**
 * The revision state {@link getSkillRevision} would answer from memory under `changeToken` (the kept
 * get result of the same read, else a kept revision lookup of the name), else undefined — also when
 * answering would need the store. Memory only; never throws.
 *
 * @param changeToken - the store's change token read for this request after it arrived
 */
export function keptSkillRevision(
  deps: Pick<ServiceDeps, 'readCache'>,
  identity: Identity,
  rawName: string,
  options: GetSkillOptions,
  changeToken: string,
): SkillRevisionState | undefined {
  const full = keptSkillJson(deps, identity, rawName, options, changeToken);
  if (full !== undefined) return { revision: full.revision, settled: full.settled, stamp: full.stamp };
  const kept = deps.readCache.lookup(revisionKey(identity, rawName, options), changeToken);
  return kept?.fresh ? (kept.value as SkillRevisionState) : undefined;
}

/**
 * The current revision of the skill a get names, and whether it is settled — what answering
 * `If-None-Match` needs — without building the result: from the read cache while the store is
 * unchanged (the result kept for the same get, or an earlier lookup of the same name), else one
 * revision lookup (`Store.readSkillRevision`: an index probe, no body, no files). Kept under the same
 * change token as get results, so it is never older than the database, on any replica. A lookup that
 * finds the skill's stamp unchanged since a kept get result was read stamps that result current too.
 *
 * @param changeToken - the store's change token read for this request before any store read (else
 *   read here)
 * @returns the state, or null when no root holds the skill (a get then words the 404)
 * @throws SkillportError `INVALID_ARGUMENT` for a name the name policy refuses (as a get does)
 */
export async function getSkillRevision(
  deps: ServiceDeps,
  identity: Identity,
  rawName: string,
  options: GetSkillOptions,
  changeToken?: string,
): Promise<SkillRevisionState | null> {
  const token = changeToken ?? (await deps.store.changeToken());
  const fullKey = getKey(identity, rawName, options);
  const keptFull = deps.readCache.lookup(fullKey, token);
  const full = keptFull?.value as SkillJson | undefined;
  if (keptFull?.fresh && full !== undefined) {
    return { revision: full.revision, settled: full.settled, stamp: full.stamp };
  }
  const key = revisionKey(identity, rawName, options);
  const kept = deps.readCache.get(key, token);
  if (kept !== undefined) return kept as SkillRevisionState;
  const { name } = resolveSkillName(rawName, deps.namePolicy);
  const roots = rootsFor(identity, options.targetUri);
  const state = await deps.store.readSkillRevision(identity.accountId, roots, name);
  if (state !== null) {
    deps.readCache.set(
      key,
      token,
      state,
      (key.length + state.revision.length + (state.stamp?.length ?? 0)) * 2 + 100,
    );
    if (full?.stamp && state.stamp === full.stamp) deps.readCache.restamp(fullKey, token);
  }
  return state;
}

/** Reads one skill into a get result (with the overview rendered while the skill is not settled). */
async function readSkill(
  deps: ServiceDeps,
  identity: Identity,
  rawName: string,
  options: GetSkillOptions,
): Promise<{ result: GetSkillResult; settled: boolean }> {
  const { name } = resolveSkillName(rawName, deps.namePolicy);
  const roots = rootsFor(identity, options.targetUri);
  // One read: the row of the first root holding the skill, the needed contents and the file list.
  const view = await deps.store.readSkillView(identity.accountId, roots, name, viewOptionsFor(options));
  if (view === null) throw notFound(name, roots);
  const overview = wantsOverview(options) ? await renderedOverview(deps, view.skill) : '';
  return { result: skillResultOf(view, options, overview), settled: view.skill.overview !== null };
}

/**
 * Deletes one skill (lookup as get). Its history is kept for the retention period (restorable)
 * unless `purge` is set: then the history is erased too, with every file content only it used —
 * also for a skill deleted earlier whose history is still kept.
 *
 * @throws SkillportError `NOT_FOUND` (neither the skill nor, with `purge`, a history of it);
 *   `CONFLICT` 412 on a stale `If-Match`
 */
export async function deleteSkill(
  deps: ServiceDeps,
  identity: Identity,
  rawName: string,
  targetUri: string | null,
  ifMatch?: readonly string[],
  options: { purge?: boolean } = {},
): Promise<DeleteSkillResult> {
  const purge = options.purge === true;
  const { name } = resolveSkillName(rawName, deps.namePolicy);
  const roots = rootsFor(identity, targetUri);
  let skill: SkillRecord | null = null;
  for (const root of roots) {
    skill = await deps.store.getSkill(identity.accountId, root, name);
    if (skill) break;
  }
  if (skill === null) {
    if (purge && ifMatch === undefined) return purgeDeleted(deps, identity, name, roots);
    throw notFound(name, roots);
  }
  const deleted = await deps.store.deleteSkill(
    identity.accountId,
    skill.rootUri,
    skill.name,
    ifMatch !== undefined ? { ifMatch } : {},
  );
  const uri = skillUri(skill.rootUri, skill.name);
  if (deleted === null) {
    throw new SkillportError('NOT_FOUND', `Skill ${JSON.stringify(skill.name)} not found`, {
      details: { type: 'skill', resource: uri },
    });
  }
  const scope = { accountId: identity.accountId, rootUri: skill.rootUri, name: skill.name };
  if (purge) await purgeHistory(deps, scope);
  else {
    await applyRetention(deps, scope);
    await applyDeletedCap(deps, identity.accountId);
  }
  return {
    name: skill.name,
    uri,
    root_uri: skill.rootUri,
    estimated_deleted_count: deleted,
    privacy_deleted: purge,
  };
}

/** `DELETE …?purge=true` of a skill already deleted: erases the history still kept, if any. */
async function purgeDeleted(
  deps: ServiceDeps,
  identity: Identity,
  name: string,
  roots: readonly string[],
): Promise<DeleteSkillResult> {
  for (const rootUri of roots) {
    const history = await deps.store.listRevisions(identity.accountId, rootUri, name);
    if (history.length === 0) continue;
    await purgeHistory(deps, { accountId: identity.accountId, rootUri, name });
    return {
      name,
      uri: skillUri(rootUri, name),
      root_uri: rootUri,
      estimated_deleted_count: 0,
      privacy_deleted: true,
    };
  }
  throw notFound(name, roots);
}
