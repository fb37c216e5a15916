/**
 * Wire schemas of temp upload, tasks, waiting, the queue observer and health
 * (the OpenAPI document: `POST /api/v1/resources/temp_upload`, `GET /api/v1/tasks/{task_id}`, `POST /api/v1/system/wait`, `GET /api/v1/system/limits`, `GET /health`).
 */
import { z } from 'zod';
import { looseOptional, TelemetryRequestSchema } from './envelope.js';

/** Multipart form of `POST /api/v1/resources/temp_upload`. */
export const TempUploadFormSchema = z
  .object({
    file: z.any().meta({
      type: 'string',
      format: 'binary',
      description:
        'Required. A zipped skill folder (SKILL.md at the archive root or in its single top folder; ' +
        '`__MACOSX/` ignored; recognised by content, whatever the file name) or one SKILL.md file. ' +
        'Larger than the upload limit (default 25 MiB) → 413 `PAYLOAD_TOO_LARGE`.',
    }),
    upload_mode: z
      .enum(['local', 'shared'])
      .optional()
      .meta({
        description:
          'Accepted for seed clients: `local` (default) or `shared`; every ' +
          'upload is stored the same way, bound to the uploading account',
        example: 'local',
      }),
  })
  .meta({
    id: 'TempUploadForm',
    description: 'Multipart form of temp upload: `file` (required) and `upload_mode`',
  });

/** Result of temp upload. */
export const TempUploadResultSchema = z
  .object({
    temp_file_id: z.string().meta({
      description:
        'Opaque id (`tmp_` + 32 hex, never a host path) to pass as `temp_file_id` to add or update. Bound to ' +
        'the uploading account, used up by the first add or update that stores it (one refused leaves it for a retry), ' +
        'expires after 12 h by default.',
      example: 'tmp_5d41402abc4b2a76b9719d911017c592',
    }),
  })
  .meta({ id: 'TempUploadResult', description: 'Result of temp upload' });

/** Result of `DELETE /api/v1/resources/temp_upload/{temp_file_id}`. */
export const TempUploadReleaseResultSchema = z
  .object({
    temp_file_id: z.string().meta({
      description: 'The temp upload released',
      example: 'tmp_5d41402abc4b2a76b9719d911017c592',
    }),
    released: z.literal(true).meta({
      description: 'Always true: the upload is deleted and no longer counts toward the temp-upload quota',
    }),
  })
  .meta({ id: 'TempUploadReleaseResult', description: 'Result of releasing a temp upload' });

/** Result of `GET /api/v1/tasks/{task_id}`. */
export const TaskResultSchema = z
  .object({
    task_id: z.string().meta({ description: 'Id of the task, as returned by add/update as `task_id`' }),
    task_type: z.enum(['add_skill', 'update_skill']).meta({
      description: 'What enqueued it: `add_skill` (add) or `update_skill` (update)',
      example: 'add_skill',
    }),
    status: z.enum(['pending', 'running', 'completed', 'failed', 'cancelled']).meta({
      description:
        '`pending` (waiting, or waiting for a retry after a failure), `running`, `completed`, `failed` ' +
        '(retries exhausted), or `cancelled` (by `POST /api/v1/tasks/{task_id}/cancel` while pending)',
      example: 'completed',
    }),
    resource_id: z.string().nullable().optional().meta({
      description:
        'URI of the skill the task processes (`viking://…/skills/<name>`); `null` once that skill was deleted',
      example: 'viking://user/alice/skills/search-web',
    }),
    created_at: z.string().meta({
      description: 'When the task was enqueued, ISO 8601 UTC with milliseconds',
      example: '2026-01-31T09:30:00.000Z',
    }),
    updated_at: z.string().meta({
      description: 'When its state last changed, ISO 8601 UTC with milliseconds',
      example: '2026-01-31T09:30:00.120Z',
    }),
    result: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({
        description:
          'Outcome of a completed task, e.g. `{revision, overview_bytes, indexed: true}`, or `{skipped: <reason>}` ' +
          'when the skill was deleted or superseded before the task ran',
        example: { revision: '9b1d4f0c…', overview_bytes: 412, indexed: true },
      }),
    error: z
      .string()
      .optional()
      .meta({ description: 'Why the last attempt failed (failed or retrying tasks)' }),
  })
  .meta({
    id: 'TaskResult',
    description: "One of the caller's processing tasks; other users' tasks answer 404",
  });

/** Body of `POST /api/v1/system/wait`. */
export const WaitRequestSchema = z
  .strictObject({
    timeout: looseOptional(z.number().nonnegative()).meta({
      description:
        'Longest wait, seconds (float), capped at the server limit (default 300 s). 0, absent, `null` or ' +
        '`false`: the server limit. Past it → 504 `DEADLINE_EXCEEDED`.',
      example: 60,
    }),
    telemetry: TelemetryRequestSchema,
  })
  .meta({
    id: 'WaitRequest',
    description:
      "Body of `POST /api/v1/system/wait` (optional: no body waits up to the server limit); waits until the caller's " +
      'pending and running jobs are done',
    examples: [{ timeout: 60 }],
  });

const limit = (description: string, example: number) =>
  z.number().int().nonnegative().meta({ description, example });

/** Result of `GET /api/v1/system/limits`: the size and time limits this server enforces. */
export const ServerLimitsSchema = z
  .object({
    max_body_bytes: limit('Largest JSON request body, bytes → 413 `PAYLOAD_TOO_LARGE`', 4194304),
    max_upload_bytes: limit(
      'Largest file sent to `POST /api/v1/resources/temp_upload` (a zipped folder or one SKILL.md), bytes → 413',
      26214400,
    ),
    max_zip_entries: limit('Most entries in an uploaded zip → 413', 1000),
    max_uncompressed_bytes: limit(
      'Largest total uncompressed size of an uploaded zip, bytes → 413',
      67108864,
    ),
    max_compression_ratio: limit('Highest uncompressed/compressed ratio of one zip entry → 413', 200),
    max_files_per_skill: limit(
      'Most files stored per skill: SKILL.md, the generated L0 abstract and the auxiliary files → 413',
      500,
    ),
    max_skill_md_bytes: limit('Largest SKILL.md, bytes → 413', 1048576),
    max_path_depth: limit('Deepest auxiliary file path, in folders', 16),
    max_json_depth: limit('Deepest nesting of a JSON request body → 400', 64),
    max_json_values: limit('Most values in one JSON request body → 400', 200000),
    max_json_object_keys: limit('Most keys of one object in a JSON request body → 400', 20000),
    max_wait_seconds: limit(
      'Longest `wait=true` / `POST /api/v1/system/wait`, seconds (longer values are capped)',
      300,
    ),
    temp_upload_ttl_seconds: limit('How long an unused `temp_file_id` stays valid, seconds', 43200),
    request_timeout_seconds: limit('Longest time a request may take before 503, seconds (0 = no limit)', 60),
    account_quota_bytes: limit(
      "Storage quota of the caller's account, bytes (0 = none): the file sizes of its live skills (SKILL.md, " +
        'L0 abstract, auxiliary files; not the generated L1 overview, not kept history). An add, update or ' +
        'restore that would pass it → 507 `RESOURCE_EXHAUSTED` with `details.reason` `account_quota`. Set in MiB ' +
        '(`SKILLPORT_ACCOUNT_QUOTA_MB`)',
      1073741824,
    ),
    temp_upload_quota_bytes: limit(
      'Most bytes of unused, unexpired temp uploads per account (0 = none); past it → 507 `RESOURCE_EXHAUSTED` ' +
        'with `details.reason` `temp_upload_quota`. Set in MiB (`SKILLPORT_TEMP_UPLOAD_QUOTA_MB`)',
      268435456,
    ),
    name_policy: z.enum(['strict', 'slug']).meta({
      description:
        'What add and update do with a `name` that breaks the name rule (1–64 of `[A-Za-z0-9_-]`), set by ' +
        '`SKILLPORT_NAME_POLICY`: `strict` (the default) refuses it with 400 `INVALID_ARGUMENT` naming the fix; ' +
        '`slug` stores the skill under its slug (`ElevenLabs Automation` → `elevenlabs-automation`) with a ' +
        '`name_slugged` warning. `POST /api/v1/skills/validate` reports the name rule as a warning under either ' +
        'policy; a client checks a skill against this server by validating with this policy (`namePolicy` of ' +
        '`validateSkill` in `@skillport/core`, `skillport skills validate --name-policy`)',
      example: 'strict',
    }),
    account_max_skills: limit(
      "Most live skills of the caller's account, in all its roots (0 = none). An add or restore of one " +
        'skill more → 403 `RESOURCE_EXHAUSTED` with `details {reason: "account_skill_limit", limit, used, ' +
        'setting}`; replacing a skill is not one more (`SKILLPORT_ACCOUNT_MAX_SKILLS`)',
      1000000,
    ),
    account_usage: z
      .object({
        stored_bytes: limit(
          "What the caller's account stores now, bytes, counted as for `account_quota_bytes`",
          52431,
        ),
        temp_upload_bytes: limit(
          "Bytes of the caller's account's unused, unexpired temp uploads, counted against `temp_upload_quota_bytes`",
          0,
        ),
        skills: limit("Live skills of the caller's account, counted against `account_max_skills`", 12),
      })
      .meta({
        id: 'AccountUsage',
        description: "The caller's account's current usage against the quotas and the skill limit above",
      }),
    settings: z.record(z.string(), z.string()).meta({
      description:
        'The server setting (environment variable) behind each limit above, so a refusal can name what an ' +
        'operator raises',
      example: { max_upload_bytes: 'SKILLPORT_MAX_UPLOAD_BYTES' },
    }),
  })
  .meta({
    id: 'ServerLimits',
    description:
      'The limits this server enforces on requests, so clients can refuse an oversized skill before uploading it, ' +
      "and the caller's account usage against its quotas",
  });

export type ServerLimitsResult = z.infer<typeof ServerLimitsSchema>;

/** `GET /health` (not enveloped). */
export const HealthResultSchema = z
  .object({
    status: z.literal('ok').meta({ description: 'Always `ok`' }),
    healthy: z.boolean().meta({ description: 'True when the server is serving requests' }),
    version: z.string().meta({ description: 'Server version', example: '0.1.0' }),
    auth_mode: z.enum(['dev', 'api_key']).meta({
      description:
        '`dev`: no API keys configured — loopback only, every request is user `default` of account `default`; ' +
        '`api_key`: requests need `X-API-Key` or `Authorization: Bearer`',
      example: 'api_key',
    }),
    account_id: z.string().optional().meta({
      description: "The caller's account; only when a valid API key was sent",
      example: 'acme',
    }),
    user_id: z.string().optional().meta({
      description: "The caller's user id; only when a valid API key was sent",
      example: 'alice',
    }),
    role: z.enum(['root', 'admin', 'user']).optional().meta({
      description: "The caller's role (`root` > `admin` > `user`); only when a valid API key was sent",
      example: 'user',
    }),
  })
  .meta({
    id: 'HealthResult',
    description: 'Body of `GET /health` (not enveloped, no auth needed)',
  });

/** `GET /ready` (not enveloped): 200 when ready, 503 with `reason` when not. */
export const ReadyResultSchema = z
  .object({
    status: z.enum(['ready', 'unavailable']).meta({
      description: '`ready` (HTTP 200) or `unavailable` (HTTP 503)',
      example: 'ready',
    }),
    ready: z.boolean().meta({ description: 'True when this replica can serve requests now' }),
    version: z.string().meta({ description: 'Server version', example: '0.1.0' }),
    engine: z.string().meta({
      description: 'Storage engine of this replica: `sqlite` or `postgres`',
      example: 'postgres',
    }),
    schema_version: z.number().int().nullable().meta({
      description: 'Schema version found in the database; null when the database could not be reached',
      example: 4,
    }),
    expected_schema_version: z.number().int().meta({
      description: 'Schema version this server build needs',
      example: 4,
    }),
    reason: z
      .string()
      .optional()
      .meta({
        description:
          'Why the replica is not ready: the database is unreachable, its schema is older or newer than ' +
          'this build, or the replica is shutting down. Absent when ready',
        example: 'database unreachable: connect ECONNREFUSED 127.0.0.1:5432',
      }),
  })
  .meta({
    id: 'ReadyResult',
    description:
      'Body of `GET /ready` (not enveloped, no auth needed): readiness for load balancers. Ready means the ' +
      'database answers a query, its schema is the version this build needs, and the replica is not shutting ' +
      'down. `GET /health` stays the liveness probe (the process is up).',
  });

export type TempUploadResult = z.infer<typeof TempUploadResultSchema>;
export type TempUploadReleaseResult = z.infer<typeof TempUploadReleaseResultSchema>;
export type TaskResult = z.infer<typeof TaskResultSchema>;
export type WaitRequest = z.infer<typeof WaitRequestSchema>;
export type HealthResult = z.infer<typeof HealthResultSchema>;
export type ReadyResult = z.infer<typeof ReadyResultSchema>;
