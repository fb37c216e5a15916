/**
 * Tasks, waiting, the queue observer and the limits (the OpenAPI document: `GET /api/v1/tasks/{task_id}`,
 * `POST /api/v1/system/wait`, `GET /api/v1/system/limits`, `GET /health`).
 */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import {
  QueueStatusSchema,
  ServerLimitsSchema,
  SystemStatusSchema,
  TaskListQuerySchema,
  TaskListResultSchema,
  TaskResultSchema,
  WaitRequestSchema,
} from '@skillport/core';
import { z } from 'zod';
import { LIMIT_ENV, quotaBytes, type ServerLimits } from '../config.js';
import type { AppEnv } from '../http/context.js';
import { okBody, requestTelemetry } from '../http/envelope.js';
import type { ServiceDeps } from '../services/deps.js';
import { cancelTask, getTask, listTasks, systemStatus } from '../services/tasks.js';
import { effectiveTimeout, waitForQueue } from '../services/wait.js';
import { errorResponses, jsonBody, okResponse, timeoutResponse } from './common.js';

const taskRoute = createRoute({
  method: 'get',
  path: '/api/v1/tasks/{task_id}',
  operationId: 'getTask',
  tags: ['system'],
  summary: "One of the caller's processing tasks",
  description:
    'The state of a processing job (L1 overview and search index) enqueued by add or update. Only the ' +
    "caller's own tasks: unknown ids and other users' tasks answer 404.",
  request: {
    params: z.object({
      task_id: z.string().meta({
        param: { name: 'task_id', in: 'path' },
        description: 'Id of the task, as returned by add/update (`task_id`)',
      }),
    }),
  },
  responses: { ...okResponse(TaskResultSchema, 'TaskResponse', 'The task'), ...errorResponses },
});

const taskIdParam = z.object({
  task_id: z.string().meta({
    param: { name: 'task_id', in: 'path' },
    description: 'Id of the task, as returned by add/update (`task_id`)',
  }),
});

const listTasksRoute = createRoute({
  method: 'get',
  path: '/api/v1/tasks',
  operationId: 'listTasks',
  tags: ['system'],
  summary: "The caller's processing tasks",
  description:
    "The caller's processing jobs (L1 overview and search index), newest first, filtered by `task_type`, " +
    '`status` and `resource_id` (the skill URI); at most `limit` (default 50, at most 200). The result is a ' +
    "bare list, as the seed clients' `list_tasks` reads it. Finished tasks are kept for a while (see the " +
    'server README), then purged.',
  request: { query: TaskListQuerySchema },
  responses: { ...okResponse(TaskListResultSchema, 'TaskListResponse', 'The tasks'), ...errorResponses },
});

const cancelTaskRoute = createRoute({
  method: 'post',
  path: '/api/v1/tasks/{task_id}/cancel',
  operationId: 'cancelTask',
  tags: ['system'],
  summary: 'Cancel a pending processing task',
  description:
    'A `pending` task becomes `cancelled` and never runs: the skill stays stored with its L0 abstract, but ' +
    'keeps the overview and search entry of its previous revision (a new skill is not findable until it is ' +
    'updated again). Cancelling a cancelled task returns it unchanged; a running or finished task answers 409 ' +
    "`CONFLICT` with `details {task_id, status}`; unknown ids and other users' tasks answer 404. No body.",
  request: { params: taskIdParam },
  responses: {
    ...okResponse(TaskResultSchema, 'CancelTaskResponse', 'The cancelled task'),
    ...errorResponses,
  },
});

const systemStatusRoute = createRoute({
  method: 'get',
  path: '/api/v1/observer/system',
  operationId: 'observeSystem',
  tags: ['system'],
  summary: 'Overall server state',
  description:
    '`{is_healthy, errors, components}` with the components `store` (the database answers), `queue` (the ' +
    "caller's processing jobs; `has_errors` when some failed) and `jobs` (whether this server runs processing " +
    "jobs). What the seed clients' `get_status()` and `is_healthy()` read.",
  responses: { ...okResponse(SystemStatusSchema, 'SystemStatusResponse', 'The state'), ...errorResponses },
});

const waitRoute = createRoute({
  method: 'post',
  path: '/api/v1/system/wait',
  operationId: 'waitProcessed',
  tags: ['system'],
  summary: "Wait until the caller's pending jobs are done",
  description:
    "Blocks until none of the caller's jobs is pending or running, then returns the counts; past " +
    '`timeout` (seconds, capped at the server limit, default 300) → 504 `DEADLINE_EXCEEDED` with ' +
    '`details {timeout, queue_status}`. The body is optional.',
  request: { body: jsonBody(WaitRequestSchema, false) },
  responses: {
    ...okResponse(QueueStatusSchema, 'WaitResponse', 'Queue drained'),
    ...errorResponses,
    ...timeoutResponse,
  },
});

const queueRoute = createRoute({
  method: 'get',
  path: '/api/v1/observer/queue',
  operationId: 'observeQueue',
  tags: ['system'],
  summary: "The caller's queue counts",
  description:
    "Counts of the caller's processing jobs by state, without waiting (what the seed CLI's `ov observer queue` shows).",
  responses: { ...okResponse(QueueStatusSchema, 'QueueResponse', 'Counts'), ...errorResponses },
});

const limitsRoute = createRoute({
  method: 'get',
  path: '/api/v1/system/limits',
  operationId: 'getLimits',
  tags: ['system'],
  summary: 'The limits this server enforces',
  description:
    'Sizes and times past which requests are refused (bytes, counts, seconds), with the server setting behind ' +
    'each in `settings`, so a client can refuse an oversized skill folder before zipping or uploading it, and ' +
    "the caller's account usage against the per-account quotas (`account_usage`: stored bytes of live skills, " +
    "bytes of unused temp uploads, live skills), and the name policy (`name_policy`) under which add judges a skill's name. " +
    'The limits are the same for every caller; any user or admin key (or dev ' +
    'mode) may read it.',
  responses: { ...okResponse(ServerLimitsSchema, 'LimitsResponse', 'The limits'), ...errorResponses },
});

/** The limits a client can check before sending, in wire form. */
const WIRE_LIMITS = {
  max_body_bytes: 'maxBodyBytes',
  max_upload_bytes: 'maxUploadBytes',
  max_zip_entries: 'maxZipEntries',
  max_uncompressed_bytes: 'maxUncompressedBytes',
  max_compression_ratio: 'maxCompressionRatio',
  max_files_per_skill: 'maxFilesPerSkill',
  max_skill_md_bytes: 'maxSkillMdBytes',
  max_path_depth: 'maxPathDepth',
  max_json_depth: 'maxJsonDepth',
  max_json_values: 'maxJsonValues',
  max_json_object_keys: 'maxJsonObjectKeys',
  max_wait_seconds: 'maxWaitSeconds',
  temp_upload_ttl_seconds: 'tempUploadTtlSeconds',
  request_timeout_seconds: 'requestTimeoutSeconds',
} as const satisfies Record<string, keyof ServerLimits>;

function wireLimits(limits: ServerLimits) {
  const values = {} as Record<keyof typeof WIRE_LIMITS, number>;
  const settings: Record<string, string> = {};
  for (const [wire, key] of Object.entries(WIRE_LIMITS) as Array<
    [keyof typeof WIRE_LIMITS, keyof ServerLimits]
  >) {
    values[wire] = limits[key];
    settings[wire] = LIMIT_ENV[key];
  }
  settings.account_quota_bytes = LIMIT_ENV.accountQuotaMb;
  settings.temp_upload_quota_bytes = LIMIT_ENV.tempUploadQuotaMb;
  settings.name_policy = 'SKILLPORT_NAME_POLICY';
  settings.account_max_skills = LIMIT_ENV.accountMaxSkills;
  return {
    ...values,
    account_quota_bytes: quotaBytes(limits.accountQuotaMb),
    temp_upload_quota_bytes: quotaBytes(limits.tempUploadQuotaMb),
    account_max_skills: limits.accountMaxSkills,
    settings,
  };
}

/** Registers tasks, wait, queue and limits routes. */
export function registerSystemRoutes(app: OpenAPIHono<AppEnv>, deps: ServiceDeps): void {
  app.openapi(taskRoute, async (c) => {
    const { task_id } = c.req.valid('param');
    return c.json(okBody(c, await getTask(deps, c.get('identity'), task_id)), 200);
  });

  app.openapi(listTasksRoute, async (c) => {
    return c.json(okBody(c, await listTasks(deps, c.get('identity'), c.req.valid('query'))), 200);
  });

  app.openapi(cancelTaskRoute, async (c) => {
    const { task_id } = c.req.valid('param');
    return c.json(okBody(c, await cancelTask(deps, c.get('identity'), task_id)), 200);
  });

  app.openapi(limitsRoute, async (c) => {
    const usage = await deps.store.accountUsage(c.get('identity').accountId, deps.now());
    return c.json(
      okBody(c, {
        ...wireLimits(deps.limits),
        name_policy: deps.namePolicy,
        account_usage: {
          stored_bytes: usage.storedBytes,
          temp_upload_bytes: usage.tempUploadBytes,
          skills: usage.skills,
        },
      }),
      200,
    );
  });

  app.openapi(systemStatusRoute, async (c) => {
    return c.json(okBody(c, await systemStatus(deps, c.get('identity'))), 200);
  });

  app.openapi(waitRoute, async (c) => {
    const body = c.req.valid('json');
    requestTelemetry(c, 'system.wait', body.telemetry);
    const counts = await waitForQueue(deps, c.get('identity'), {
      timeoutSeconds: effectiveTimeout(body.timeout, deps.limits.maxWaitSeconds),
    });
    return c.json(okBody(c, counts), 200);
  });

  app.openapi(queueRoute, async (c) => {
    const identity = c.get('identity');
    return c.json(okBody(c, await deps.store.queueCounts(identity.accountId, identity.userId)), 200);
  });
}
