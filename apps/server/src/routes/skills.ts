/**
 * The skill routes: add, list, find, validate, get, update, delete (see the OpenAPI document).
 */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import {
  AddSkillRequestSchema,
  DeleteSkillQuerySchema,
  DeleteSkillResultSchema,
  FindSkillsRequestSchema,
  FindSkillsResultSchema,
  GetSkillQuerySchema,
  GetSkillResultSchema,
  ListSkillsQuerySchema,
  ListSkillsResultSchema,
  SkillportError,
  SkillWriteResultSchema,
  ValidateSkillRequestSchema,
  ValidateSkillResultSchema,
} from '@skillport/core';
import type { Context } from 'hono';
import { z } from 'zod';
import { checkEntityTagList, matchesNoneMatch } from '../http/conditional.js';
import type { AppEnv } from '../http/context.js';
import { okBody, okBodyBytes, requestTelemetry } from '../http/envelope.js';
import { setResponseHeader } from '../http/response-header.js';
import { listSkillChanges, MAX_FEED_PAGE } from '../services/change-feed.js';
import type { ServiceDeps } from '../services/deps.js';
import { decodeListCursor } from '../services/list-cursor.js';
import { getSkillAtRevision } from '../services/skill-history.js';
import {
  DEFAULT_LIST_PAGE,
  deleteSkill,
  findSkillsJson,
  getSkillJson,
  getSkillRevision,
  listSkillsJson,
} from '../services/skill-reader.js';
import { validateSkillRequest } from '../services/skill-validate.js';
import { writeSkill } from '../services/skill-writer.js';
import {
  errorResponses,
  given,
  jsonBody,
  okResponse,
  openapiHeadersByName,
  optionalQuery,
  preconditionResponse,
  writeTimeoutResponse,
} from './common.js';

export const NameParams = z.object({
  name: z.string().meta({
    param: { name: 'name', in: 'path' },
    description:
      'Skill name: trimmed, 1–64 characters of `[A-Za-z0-9_-]` (else 400 with `details.field = "name"`)',
    example: 'my-skill',
  }),
});
export const IfMatchHeaders = z.object({
  'if-match': z
    .string()
    .optional()
    .meta({
      description:
        'Optional: the revision the add, update or delete expects to be current, as returned in `revision` or the ' +
        '`ETag` header (quoted or not; several comma-separated match any of them), compared strongly ' +
        '(RFC 9110 §13.1.1): a weak tag (`W/"…"`) or an empty value never matches. `*` matches any existing ' +
        'skill. No match → 412 `CONFLICT` and nothing changes. A value that is neither `*` nor a list of entity ' +
        'tags (e.g. an unbalanced quote, `*` inside a list, spaces inside a tag) → 400 `INVALID_ARGUMENT` ' +
        '(`details {field: "If-Match", reason: "malformed_entity_tag"}`), before anything is evaluated.',
    }),
});

const IfNoneMatchHeaders = z.object({
  'if-none-match': z
    .string()
    .optional()
    .meta({
      description:
        'Optional: the `ETag` of a copy the client holds (`"<revision>"`; several comma-separated, `W/` ' +
        'ignored, `*` any). When it names the current revision and the skill is settled → 304 without ' +
        "a body. A response sent before the skill's processing job ran (`Cache-Control: private, " +
        'no-store`: its overview is rendered on the fly) is never confirmed by a 304. A value that is neither ' +
        '`*` nor a list of entity tags → 400 `INVALID_ARGUMENT` (`details {field: "If-None-Match", reason: ' +
        '"malformed_entity_tag"}`).',
    }),
});

const IDEMPOTENCY_KEY = z
  .string()
  .optional()
  .meta({
    description:
      'Optional: a key of your choosing (1–255 printable ASCII characters, e.g. a UUID) that makes a retry safe. ' +
      'The first request with it runs; once it succeeds its response is kept 24 h, and a retry with the same ' +
      'key and the same request (method, path, query, body) gets that response again with ' +
      '`Idempotent-Replayed: true`, changing nothing. The same key with a different request → 422 ' +
      '`INVALID_ARGUMENT` (`details.reason` `idempotency_key_reused`); while the first still runs → 409 ' +
      '`CONFLICT` (`idempotency_key_in_progress`, `Retry-After`). A failed request is not kept, except a 504 ' +
      '`DEADLINE_EXCEEDED` of a write whose `wait` ran out (the skill is stored: that answer is kept). Keys are per user. ' +
      "A write from a temp upload is compared by the upload's file name and bytes, not its `temp_file_id`: a retry " +
      'that uploads the same folder or zip again (under a new id) is the same request, and its new upload is freed.',
    example: '5f0c6c1e-8a43-4c57-a0de-7f4f0f6b1e2d',
  });
/** Headers of add: `Idempotency-Key`. */
export const IdempotencyHeaders = z.object({ 'idempotency-key': IDEMPOTENCY_KEY });
/** Headers of update and restore: `If-Match` and `Idempotency-Key`. */
export const WriteHeaders = IfMatchHeaders.extend({ 'idempotency-key': IDEMPOTENCY_KEY });

const addRoute = createRoute({
  method: 'post',
  path: '/api/v1/skills',
  operationId: 'addSkill',
  tags: ['skills'],
  summary:
    'Add a skill (SKILL.md text, MCP tool, structured object or temp upload); replaces a same-named skill',
  description:
    'Stores a skill given as `data` (SKILL.md text, MCP tool with `inputSchema`, or structured object) or ' +
    'as `temp_file_id` (a temp upload). It is validated with profile `openviking`: errors → 400 ' +
    '`SKILL_INVALID` with `details.issues` and nothing stored; warnings come back as `warnings`. A host ' +
    'path as `data` → 403. Adding an existing name replaces that skill completely. The processing job ' +
    '(overview, search index, embedding) runs after the response unless `wait=true`; a server with the ' +
    'deterministic overview (no summary model) renders and stores it during the write, and without ' +
    'embeddings the task is already `completed` when the add returns (with embeddings its job only ' +
    'embeds the skill). With `If-Match` (the revision read, as `GET` gives it in `ETag`, or `*`) the add ' +
    'only replaces the same-named skill at that revision: a skill at another revision, or none, → 412 ' +
    '`CONFLICT` and nothing changes, so of concurrent writers that read the same revision one wins.',
  request: { headers: WriteHeaders, body: jsonBody(AddSkillRequestSchema) },
  responses: {
    ...okResponse(SkillWriteResultSchema, 'AddSkillResponse', 'Stored'),
    ...errorResponses,
    ...writeTimeoutResponse,
  },
});

const listRoute = createRoute({
  method: 'get',
  path: '/api/v1/skills',
  operationId: 'listSkills',
  tags: ['skills'],
  summary: 'List skills of the user root and the agent root, or of one root',
  description:
    'Without `target_uri`: the user root then the agent root, with `root_uris`; with it: that root, with ' +
    '`root_uri`. Skills come by name, a page at a time: `node_limit` per page (default 100, at most ' +
    '1000), `has_more`, and `next_cursor` to pass as `cursor` for the next page while more follow; ' +
    '`total` counts every skill of the root(s). An empty root gives an empty list, not 404. Unknown query ' +
    'parameters are ignored. With `updated_since` (or a cursor of a feed page) it is a change feed instead: the skills ' +
    'written (`skills`) and deleted (`deleted`) since that time, in the order the changes were made, ' +
    'each skill once with its latest state, a page at a time (`node_limit`, at most 1000) with ' +
    '`next_cursor` and `has_more` — for mirrors and caches that stay in sync.',
  request: { query: ListSkillsQuerySchema },
  responses: { ...okResponse(ListSkillsResultSchema, 'ListSkillsResponse', 'Skills'), ...errorResponses },
});

const findRoute = createRoute({
  method: 'post',
  path: '/api/v1/skills/find',
  operationId: 'findSkills',
  tags: ['skills'],
  summary: 'Search skills (lexical and semantic, best first)',
  description:
    'Ranks skills of both roots (or `target_uri`) against `query` over name, tags, description, overview ' +
    'and body (BM25 with field weights), fused with the similarity of meaning when the server has an ' +
    'embeddings endpoint (`SKILLPORT_EMBEDDINGS_URL`); hits carry `score` (0–1, descending) and ' +
    '`match_reason` (`name`, `lexical`, `semantic`, `hybrid`), are de-duplicated by name and cut to ' +
    '`limit`. Each API key has at most `SKILLPORT_MAX_FINDS_PER_KEY` finds running (default 4; MCP ' +
    '`find_skills` included) and 64 × as many waiting their turn; past that → 429 `RESOURCE_EXHAUSTED` ' +
    'with `Retry-After` (`details.reason` `finds_in_flight`).',
  request: { body: jsonBody(FindSkillsRequestSchema) },
  responses: { ...okResponse(FindSkillsResultSchema, 'FindSkillsResponse', 'Hits'), ...errorResponses },
});

const validateRoute = createRoute({
  method: 'post',
  path: '/api/v1/skills/validate',
  operationId: 'validateSkill',
  tags: ['skills'],
  summary: 'Validate a skill without storing it (always 200 for a readable request)',
  description:
    'Runs the validator on `data` in any form (SKILL.md text, MCP tool, structured object) with a profile ' +
    'and strictness, and returns the verdict with located issues. A skill that fails is still a 200 with ' +
    '`valid: false`; only a malformed request is a 4xx.',
  request: { body: jsonBody(ValidateSkillRequestSchema) },
  responses: {
    ...okResponse(ValidateSkillResultSchema, 'ValidateSkillResponse', 'Verdict'),
    ...errorResponses,
  },
});

const getRoute = createRoute({
  method: 'get',
  path: '/api/v1/skills/{name}',
  operationId: 'getSkill',
  tags: ['skills'],
  summary: 'Read a skill at level 0 (abstract), 1 (overview), 2 (SKILL.md) or all',
  description:
    'Looks in `target_uri` if given, else the user root then the agent root; missing → 404 `NOT_FOUND` ' +
    'with `details {type: "skill", resource}`. Without `level` returns `abstract`, `overview` and ' +
    '`content` (`include_content=false`: without `content`); with one, that level only. Also returns `frontmatter`, `revision` (as the `ETag` header ' +
    'too) and `files`. With `revision`, the skill as it was at that revision of its ' +
    'history (also for a deleted skill while its history is kept). Conditional: `If-None-Match` with ' +
    'the current `ETag` → 304 once the skill is settled; responses carry `Cache-Control: private, ' +
    'no-cache` (settled) or `private, no-store` (processing job still to run) and `Vary: ' +
    'Authorization, X-API-Key`.',
  request: { params: NameParams, query: GetSkillQuerySchema, headers: IfNoneMatchHeaders },
  responses: {
    ...okResponse(GetSkillResultSchema, 'GetSkillResponse', 'The skill (ETag = revision)'),
    304: {
      description:
        'Not modified: `If-None-Match` named the current revision and the skill is settled (its ' +
        'processing job has run); no body',
    },
    ...errorResponses,
  },
});

const updateRoute = createRoute({
  method: 'put',
  path: '/api/v1/skills/{name}',
  operationId: 'updateSkill',
  tags: ['skills'],
  summary: 'Replace a skill completely; the name in the content must equal {name}',
  description:
    'Body as add. The skill must exist (404 otherwise) and the name in the new content must equal ' +
    '`{name}` (400 with `details {field, expected, actual}`). All files are replaced in one transaction; ' +
    'with `If-Match`, a stale revision → 412. The result is add\'s plus `action: "update"`, and the ' +
    '`ETag` header carries the new revision.',
  request: { params: NameParams, headers: WriteHeaders, body: jsonBody(AddSkillRequestSchema) },
  responses: {
    ...okResponse(SkillWriteResultSchema, 'UpdateSkillResponse', 'Replaced'),
    ...errorResponses,
    ...preconditionResponse,
    ...writeTimeoutResponse,
  },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/api/v1/skills/{name}',
  operationId: 'deleteSkill',
  tags: ['skills'],
  summary: 'Delete a skill and its files',
  description:
    'Deletes the skill found as get finds it (`target_uri`, else user root then agent root); a later get ' +
    "answers 404. Its revisions stay in the skill's history for the retention period, so a restore can " +
    'bring it back; `purge=true` erases that history at once as well (also for a ' +
    'skill deleted earlier). With `If-Match`, a revision other than the current one → 412 and nothing is deleted.',
  request: { params: NameParams, query: DeleteSkillQuerySchema, headers: IfMatchHeaders },
  responses: {
    ...okResponse(DeleteSkillResultSchema, 'DeleteSkillResponse', 'Deleted'),
    ...errorResponses,
    ...preconditionResponse,
  },
});

/**
 * The entity tags an `If-Match` header lists (RFC 9110 §13.1.1: `*` or entity tags, comma separated;
 * quoted or not): `undefined` for no header, `['*']` when it holds `*`, else each tag — a strong one
 * unquoted (the revision), a weak one kept as `W/"…"` so that it never matches a write (strong
 * comparison). An empty value gives an empty list, which matches nothing.
 * @throws SkillportError 400 `INVALID_ARGUMENT` for a malformed value (see `checkEntityTagList`).
 */
export function parseIfMatch(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  checkEntityTagList('If-Match', value);
  const tags = value
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '')
    .map((tag) => {
      if (tag.startsWith('W/')) return `W/"${tag.slice(2).replace(/^"|"$/g, '')}"`;
      return tag.replace(/^"|"$/g, '').trim();
    });
  if (tags.includes('*')) return ['*'];
  return tags;
}

/** What a get reads: the level (null: all) and the optional parts. */
export interface GetOptions {
  level: 0 | 1 | 2 | null;
  /** `include_content`: true, false, or null when not given. */
  includeContent: boolean | null;
  includeFiles: boolean;
  includeSource: boolean;
  targetUri: string | null;
}

function parseLevel(value: string | undefined): 0 | 1 | 2 | null {
  return value === '0' ? 0 : value === '1' ? 1 : value === '2' ? 2 : null;
}

/** Values of a query flag (`QueryFlagSchema`), as the schema reads them. */
const FLAG_VALUES: Readonly<Record<string, boolean>> = {
  true: true,
  '1': true,
  True: true,
  false: false,
  '0': false,
  False: false,
};

/**
 * The options of a get whose query is in the common shape: empty, or `level=0|1|2` and the flags
 * `include_files`, `include_content`, `include_source`, `include_integrity` (`true`/`false`/`1`/`0`/
 * `True`/`False`), each at most once, nothing percent-encoded. Null for anything else (the route's
 * schemas then judge the query).
 */
export function commonGetQuery(url: string): GetOptions | null {
  const options: GetOptions = {
    level: null,
    includeContent: null,
    includeFiles: true,
    includeSource: false,
    targetUri: null,
  };
  const q = url.indexOf('?');
  if (q === -1) return options;
  let seen = 0;
  for (const part of url.slice(q + 1).split('&')) {
    const eq = part.indexOf('=');
    if (eq === -1) return null;
    const key = part.slice(0, eq);
    const value = part.slice(eq + 1);
    const bit =
      key === 'level'
        ? 1
        : key === 'include_files'
          ? 2
          : key === 'include_content'
            ? 4
            : key === 'include_source'
              ? 8
              : key === 'include_integrity'
                ? 16
                : 0;
    if (bit === 0 || (seen & bit) !== 0) return null;
    seen |= bit;
    if (bit === 1) {
      const level = parseLevel(value);
      if (level === null) return null;
      options.level = level;
      continue;
    }
    const flag = FLAG_VALUES[value];
    if (flag === undefined || !Object.hasOwn(FLAG_VALUES, value)) return null;
    if (bit === 2) options.includeFiles = flag;
    else if (bit === 4) options.includeContent = flag;
    else if (bit === 8) options.includeSource = flag;
  }
  return options;
}

/** Registers the skill routes on the app. */
export function registerSkillRoutes(app: OpenAPIHono<AppEnv>, deps: ServiceDeps): void {
  openapiHeadersByName(app, addRoute, async (c) => {
    const body = c.req.valid('json');
    requestTelemetry(c, 'skills.add', body.telemetry);
    const ifMatch = parseIfMatch(c.req.valid('header')['if-match']);
    const result = await writeSkill(deps, c.get('identity'), body, {
      action: 'add',
      ...(ifMatch !== undefined ? { ifMatch } : {}),
    });
    return c.json(okBody(c, result), 200);
  });

  app.openapi(listRoute, async (c) => {
    const query = c.req.valid('query');
    const nodeLimit = query.node_limit === undefined ? null : Number(query.node_limit);
    const updatedSince = optionalQuery(query.updated_since);
    const cursorText = optionalQuery(query.cursor);
    const cursor = cursorText === null ? null : decodeListCursor(cursorText);
    const targetUri = optionalQuery(query.target_uri);
    if (updatedSince !== null || cursor?.kind === 'feed') {
      if (cursor?.kind === 'name') {
        throw new SkillportError(
          'INVALID_ARGUMENT',
          'This cursor continues a listing by name, not a change feed: drop updated_since to use it, or start the feed without it',
          { details: { field: 'cursor' } },
        );
      }
      const page = await listSkillChanges(deps, c.get('identity'), {
        updatedSince,
        cursor: cursor?.kind === 'feed' ? cursor : null,
        limit: nodeLimit ?? MAX_FEED_PAGE,
        targetUri,
      });
      return c.json(okBody(c, page), 200);
    }
    const json = await listSkillsJson(
      deps,
      c.get('identity'),
      { limit: nodeLimit ?? DEFAULT_LIST_PAGE, cursor: cursor?.kind === 'name' ? cursor : null, targetUri },
      c.get('changeToken'),
    );
    // The result is UTF-8 JSON already (kept in the read cache while the store is unchanged): only the
    // envelope is added around it. (Typed as the JSON response it is: the route's schema describes it.)
    return c.body(okBodyBytes(c, json), 200, { 'content-type': 'application/json' }) as never;
  });

  app.openapi(findRoute, async (c) => {
    const body = c.req.valid('json');
    requestTelemetry(c, 'skills.find', body.telemetry);
    const level = given(body.level);
    const json = await findSkillsJson(
      deps,
      c.get('identity'),
      {
        query: body.query,
        limit: given(body.limit) ?? 10,
        scoreThreshold: given(body.score_threshold),
        targetUri: given(body.target_uri),
        levels: level === null ? null : Array.isArray(level) ? level : [level],
      },
      c.get('changeToken'),
    );
    // The result is UTF-8 JSON already (kept in the read cache while the store is unchanged): only the
    // envelope is added around it. (Typed as the JSON response it is: the route's schema describes it.)
    return c.body(okBodyBytes(c, json), 200, { 'content-type': 'application/json' }) as never;
  });

  app.openapi(validateRoute, async (c) => {
    const body = c.req.valid('json');
    requestTelemetry(c, 'skills.validate', body.telemetry);
    const result = await validateSkillRequest(deps, body);
    return c.json(okBody(c, result), 200);
  });

  /**
   * Answers a get of the current revision: `ETag`, `Cache-Control`, `Vary`, then 304 when
   * `If-None-Match` names the settled revision, else the cached result bytes inside the envelope.
   */
  const answerCurrent = async (c: Context<AppEnv>, name: string, options: GetOptions) => {
    const ifNoneMatch = c.req.header('if-none-match');
    if (ifNoneMatch) {
      // A client revalidating its copy: compare the current revision first (from the read cache, else
      // one index lookup), so a 304 never reads nor renders the skill.
      const current = await getSkillRevision(deps, c.get('identity'), name, options, c.get('changeToken'));
      if (current?.settled && matchesNoneMatch(ifNoneMatch, `"${current.revision}"`)) {
        setResponseHeader(c, 'ETag', `"${current.revision}"`);
        setResponseHeader(c, 'Cache-Control', 'private, no-cache');
        setResponseHeader(c, 'Vary', 'Authorization, X-API-Key');
        return c.body(null, 304);
      }
    }
    const read = await getSkillJson(deps, c.get('identity'), name, options, c.get('changeToken'));
    const etag = `"${read.revision}"`;
    setResponseHeader(c, 'ETag', etag);
    // Responses depend on the caller's key; until the processing job has run the overview is
    // rendered on the fly and the file list is still growing, so such a response is not kept.
    setResponseHeader(c, 'Cache-Control', read.settled ? 'private, no-cache' : 'private, no-store');
    setResponseHeader(c, 'Vary', 'Authorization, X-API-Key');
    if (read.settled && matchesNoneMatch(ifNoneMatch, etag)) {
      return c.body(null, 304);
    }
    // The result is UTF-8 JSON already (kept in the read cache): only the envelope is added around it.
    return c.body(okBodyBytes(c, read.json), 200, { 'content-type': 'application/json' });
  };

  // Fast path of get for the shapes agents and mirrors send in their loop — no query, or only `level`
  // (0, 1, 2) and the `include_*` flags, each once, in their plain spellings — registered before the
  // OpenAPI route: its answer is exactly the route's (the name and `If-None-Match` are any strings to
  // the route's schemas too), without running the schema validators. Any other query falls through
  // to the route below, whose schemas judge it (and word any error).
  app.get('/api/v1/skills/:name', async (c, next) => {
    const options = commonGetQuery(c.req.url);
    const name = c.req.param('name');
    if (options === null || name === undefined) return next();
    checkEntityTagList('If-None-Match', c.req.header('if-none-match'));
    return answerCurrent(c, name, options);
  });

  app.openapi(getRoute, async (c) => {
    const { name } = c.req.valid('param');
    checkEntityTagList('If-None-Match', c.req.header('if-none-match'));
    const query = c.req.valid('query');
    const options: GetOptions = {
      level: parseLevel(query.level),
      includeContent: query.include_content ?? null,
      includeFiles: query.include_files !== false,
      includeSource: query.include_source === true,
      targetUri: optionalQuery(query.target_uri),
    };
    const revision = optionalQuery(query.revision);
    if (revision !== null) {
      const result = await getSkillAtRevision(deps, c.get('identity'), name, revision, options);
      setResponseHeader(c, 'ETag', `"${result.revision}"`);
      return c.json(okBody(c, result), 200);
    }
    // (Typed as the JSON response it is: the route's schema describes these bytes.)
    return (await answerCurrent(c, name, options)) as never;
  });

  openapiHeadersByName(app, updateRoute, async (c) => {
    const { name } = c.req.valid('param');
    const headers = c.req.valid('header');
    const body = c.req.valid('json');
    requestTelemetry(c, 'skills.update', body.telemetry);
    const ifMatch = parseIfMatch(headers['if-match']);
    const result = await writeSkill(deps, c.get('identity'), body, {
      action: 'update',
      pathName: name,
      ...(ifMatch !== undefined ? { ifMatch } : {}),
    });
    setResponseHeader(c, 'ETag', `"${result.revision}"`);
    return c.json(okBody(c, result), 200);
  });

  app.openapi(deleteRoute, async (c) => {
    const { name } = c.req.valid('param');
    const query = c.req.valid('query');
    const headers = c.req.valid('header');
    const result = await deleteSkill(
      deps,
      c.get('identity'),
      name,
      optionalQuery(query.target_uri),
      parseIfMatch(headers['if-match']),
      { purge: query.purge === 'true' || query.purge === '1' || query.purge === 'True' },
    );
    return c.json(okBody(c, result), 200);
  });
}
