/**
 * Wire schemas of the response envelope shared by every route (the `ErrorEnvelope` and success envelopes of the OpenAPI document).
 * Plain zod 4: component names are given with `.meta({id})`, which `@hono/zod-openapi` reads.
 */
import { z } from 'zod';
import { ERROR_CODES } from '../errors.js';

/** One of the contract's error codes. @see the `ErrorEnvelope` schema of the OpenAPI document */
export const ErrorCodeSchema = z.enum(ERROR_CODES).meta({
  id: 'ErrorCode',
  description:
    'Machine-readable error code; it fixes the HTTP status: ' +
    '`INVALID_ARGUMENT`, `INVALID_URI`, `SKILL_INVALID` → 400; `UNAUTHENTICATED` → 401; ' +
    '`PERMISSION_DENIED` → 403; `NOT_FOUND` → 404; `CONFLICT` → 409, or 412 for a stale `If-Match`; ' +
    '`PAYLOAD_TOO_LARGE` → 413; `RESOURCE_EXHAUSTED` → 429; `INTERNAL`, `PROCESSING_ERROR` → 500; ' +
    '`UNAVAILABLE` → 503; `DEADLINE_EXCEEDED` → 504.',
  example: 'NOT_FOUND',
});

/** One entry of `error.details.validation_errors` (a request that did not match its schema). */
export const ValidationErrorItemSchema = z
  .object({
    loc: z.array(z.union([z.string(), z.number()])).meta({
      description:
        'Path to the offending field: the request part (`body`, `query`, `param`, `header`, `form`) ' +
        'followed by keys and array indexes',
      example: ['body', 'limit'],
    }),
    message: z.string().meta({ description: 'Human-readable explanation of what was expected' }),
    type: z.string().meta({ description: 'Machine-readable kind, e.g. `unrecognized_keys`, `invalid_type`' }),
  })
  .meta({
    id: 'ValidationErrorItem',
    description:
      'One entry of `error.details.validation_errors`: a request field that did not match its schema ' +
      '(unknown body fields are refused too)',
  });

/** The `error` member of an error envelope. */
export const ErrorBodySchema = z
  .object({
    code: ErrorCodeSchema,
    message: z.string().meta({
      description:
        'What failed and what was expected, for humans (do not parse it; use `code` and `details`)',
      example: 'Skill "my-skill" not found in viking://user/alice/skills or viking://agent/skills',
    }),
    details: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({
        description:
          'Machine-readable context, by code: schema errors → `{validation_errors: [ValidationErrorItem]}`; ' +
          'name errors → `{field: "name"}` (update mismatch adds `expected`, `actual`); `INVALID_URI` → ' +
          '`{uri, reason}`; `NOT_FOUND` → `{type, resource}` (`type` is `skill` with the skill URI as ' +
          '`resource`, or `task`, `temp_file`, `account`, `user`, `api_key`); `SKILL_INVALID` → ' +
          '`{issues: [SkillIssue]}` (errors and warnings); a host path as `data` → `{field: "data", reason: ' +
          '"host_path"}`; `DEADLINE_EXCEEDED` → `{timeout, queue_status}`, and after a write (add, update, restore) that is ' +
          "stored all the same also `task_id` and the write's result fields (`name`, `uri`, `root_uri`, " +
          '`revision`, …). Absent when there is nothing to add.',
        example: { type: 'skill', resource: 'viking://user/alice/skills/my-skill' },
      }),
  })
  .meta({
    id: 'ErrorBody',
    description: 'The `error` member of an error envelope',
  });

/** Response telemetry, present when the request asked for it. */
export const TelemetrySchema = z
  .object({
    operation_id: z.string().meta({
      description: 'UUID of this operation (new for every request)',
      example: '3f2b8c1e-9a4d-4e0f-8b6a-2d7c5e1f0a93',
    }),
    summary: z
      .object({
        operation: z.string().meta({ description: 'Operation name, e.g. `skills.add`, `skills.find`' }),
        status: z.enum(['ok', 'error']).meta({ description: 'Outcome of the request: `ok` or `error`' }),
        duration_ms: z.number().meta({ description: 'Server time spent, milliseconds (float)' }),
      })
      .catchall(z.unknown())
      .optional()
      .meta({
        description: 'Present when the request sent `telemetry: {"summary": true}`; may carry further keys',
      }),
  })
  .meta({
    id: 'Telemetry',
    description:
      'Response telemetry, present only when the request sent `telemetry: true` or ' + '`{"summary": true}`',
  });

/** Request field `telemetry`: `true`, `{summary: true}`, or absent/`null`/`false`. */
export const TelemetryRequestSchema = z
  .union([
    z.boolean(),
    z.strictObject({
      summary: z.boolean().nullish().meta({
        description: 'True adds `telemetry.summary` `{operation, status, duration_ms}` to the response',
      }),
    }),
    z.null(),
  ])
  .optional()
  .meta({
    description:
      'Ask for `telemetry` in the response: `true` adds `{operation_id}`, `{"summary": true}` also adds ' +
      '`summary`. Absent, `null` or `false`: no telemetry.',
    example: true,
  });

/** Any non-2xx response. @see the `ErrorEnvelope` schema of the OpenAPI document */
export const ErrorEnvelopeSchema = z
  .object({
    status: z.literal('error').meta({ description: 'Always `error` for a non-2xx response' }),
    error: ErrorBodySchema,
    time: z.number().meta({ description: 'Server time spent on the request, seconds (float)' }),
  })
  .meta({
    id: 'ErrorEnvelope',
    description:
      'Body of every non-2xx response: `{status: "error", error: {code, message, details?}, time}`. ' +
      'The `X-Request-Id` response header names the request.',
  });

/** The description of a success envelope, naming its result component when it has one. */
function envelopeDescription(result: z.ZodType): string {
  const resultId = z.globalRegistry.get(result)?.id;
  const shape = resultId === undefined ? 'result' : `result: ${resultId}`;
  return (
    `Success envelope (HTTP 200): \`{status: "ok", ${shape}, telemetry?, time}\`; ` +
    '`telemetry` only when the request asked for it'
  );
}

/**
 * Builds the success envelope schema around a result schema.
 *
 * @param result - schema of `result`
 * @param id - component name of the envelope (e.g. `AddSkillResponse`)
 * @returns `{status: 'ok', result, telemetry?, time}`, described as the envelope of `result`'s component
 * @example okEnvelope(TempUploadResultSchema, 'TempUploadResponse')
 * @see the `ErrorEnvelope` schema of the OpenAPI document
 */
export function okEnvelope<T extends z.ZodType>(result: T, id: string) {
  return z
    .object({
      status: z.literal('ok').meta({ description: 'Always `ok` for a 2xx response' }),
      result,
      telemetry: TelemetrySchema.optional(),
      time: z.number().meta({ description: 'Server time spent on the request, seconds (float)' }),
    })
    .meta({ id, description: envelopeDescription(result) });
}

/**
 * An optional request field that clients of the seed API may also send as `null` or `false`,
 * both meaning "not given" (compatibility with the seed clients).
 *
 * @param schema - the schema of a real value
 * @returns `schema | null | false | undefined`
 */
export function looseOptional<T extends z.ZodType>(schema: T) {
  return z.union([schema, z.null(), z.literal(false)]).optional();
}

export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
export type ValidationErrorItem = z.infer<typeof ValidationErrorItemSchema>;
export type Telemetry = z.infer<typeof TelemetrySchema>;
export type TelemetryRequest = z.infer<typeof TelemetryRequestSchema>;
