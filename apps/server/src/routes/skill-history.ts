/**
 * History routes of a skill: the revision list and restore. (Reading a skill or one of its files at
 * a revision is the `revision` query parameter of get and of the file route.)
 */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import {
  ListSkillRevisionsQuerySchema,
  ListSkillRevisionsResultSchema,
  RestoreSkillRequestSchema,
  SkillWriteResultSchema,
} from '@skillport/core';
import type { AppEnv } from '../http/context.js';
import { okBody, requestTelemetry } from '../http/envelope.js';
import { setResponseHeader } from '../http/response-header.js';
import type { ServiceDeps } from '../services/deps.js';
import { listSkillRevisions, restoreSkill } from '../services/skill-history.js';
import {
  errorResponses,
  jsonBody,
  okResponse,
  optionalQuery,
  preconditionResponse,
  writeTimeoutResponse,
} from './common.js';
import { NameParams, parseIfMatch, WriteHeaders } from './skills.js';

const revisionsRoute = createRoute({
  method: 'get',
  path: '/api/v1/skills/{name}/revisions',
  operationId: 'listSkillRevisions',
  tags: ['skills'],
  summary: "List a skill's kept revisions, newest first",
  description:
    'Every version the server keeps of the skill (looked up as get does: `target_uri`, else the user ' +
    'root then the agent root), newest first: revision, when and by whom it was written, size, and ' +
    'whether it is current. Also answers for a deleted skill while its history is kept (`deleted: ' +
    'true`). How much history is kept is the server’s retention policy (by default the last 10 ' +
    'revisions and every revision superseded in the last 30 days, at most 100 per skill). Unknown skill → 404.',
  request: { params: NameParams, query: ListSkillRevisionsQuerySchema },
  responses: {
    ...okResponse(ListSkillRevisionsResultSchema, 'ListSkillRevisionsResponse', 'The history'),
    ...errorResponses,
  },
});

const restoreRoute = createRoute({
  method: 'post',
  path: '/api/v1/skills/{name}/restore',
  operationId: 'restoreSkill',
  tags: ['skills'],
  summary: 'Make an earlier revision current again (a new version with the same files)',
  description:
    'Writes the files of `revision` (from the history, full or an unambiguous prefix) as a new version ' +
    'of the skill — byte for byte the same files, so the same `revision` — with a new processing job, ' +
    'like an update. Brings back a deleted skill while its history is kept. `If-Match` guards against ' +
    'restoring over a change made meanwhile (412). Result as update’s, with `action: "restore"` and ' +
    'the `ETag` header. Unknown skill or revision → 404 (`details.type` `skill` or `revision`); an ' +
    'ambiguous prefix → 400 with `details.candidates`.',
  request: { params: NameParams, headers: WriteHeaders, body: jsonBody(RestoreSkillRequestSchema) },
  responses: {
    ...okResponse(SkillWriteResultSchema, 'RestoreSkillResponse', 'Restored'),
    ...errorResponses,
    ...preconditionResponse,
    ...writeTimeoutResponse,
  },
});

/** Registers the history routes. */
export function registerSkillHistoryRoutes(app: OpenAPIHono<AppEnv>, deps: ServiceDeps): void {
  app.openapi(revisionsRoute, async (c) => {
    const { name } = c.req.valid('param');
    const query = c.req.valid('query');
    const result = await listSkillRevisions(deps, c.get('identity'), name, {
      targetUri: optionalQuery(query.target_uri),
      limit: query.limit === undefined ? 100 : Number(query.limit),
    });
    return c.json(okBody(c, result), 200);
  });

  app.openapi(restoreRoute, async (c) => {
    const { name } = c.req.valid('param');
    const body = c.req.valid('json');
    requestTelemetry(c, 'skills.restore', body.telemetry);
    const result = await restoreSkill(
      deps,
      c.get('identity'),
      name,
      body,
      parseIfMatch(c.req.valid('header')['if-match']),
    );
    setResponseHeader(c, 'ETag', `"${result.revision}"`);
    return c.json(okBody(c, result), 200);
  });
}
