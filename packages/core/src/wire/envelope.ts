/**
 * Wire schemas of the response envelope shared by every route (API-CONTRACT §Envelope).
 * Plain zod 4: component names are given with `.meta({id})`, which `@hono/zod-openapi` reads.
 */
import { z } from 'zod';
import { ERROR_CODES } from '../errors.js';

/** One of the contract's error codes. @see API-CONTRACT §Envelope */
export const ErrorCodeSchema = z.enum(ERROR_CODES).meta({ id: 'ErrorCode' });

/** One entry of `error.details.validation_errors` (a request that did not match its schema). */
export const ValidationErrorItemSchema = z
  .object({
    loc: z.array(z.union([z.string(), z.number()])).meta({ description: 'Path to the offending field' }),
    message: z.string(),
    type: z.string().meta({ description: 'Machine-readable kind, e.g. `unrecognized_keys`, `invalid_type`' }),
  })
  .meta({ id: 'ValidationErrorItem' });

/** The `error` member of an error envelope. */
export const ErrorBodySchema = z
  .object({
    code: ErrorCodeSchema,
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'ErrorBody' });

/** Response telemetry, present when the request asked for it. */
export const TelemetrySchema = z
  .object({
    operation_id: z.string().meta({ description: 'UUID of this operation' }),
    summary: z
      .object({
        operation: z.string(),
        status: z.enum(['ok', 'error']),
        duration_ms: z.number(),
      })
      .catchall(z.unknown())
      .optional(),
  })
  .meta({ id: 'Telemetry' });

/** Request field `telemetry`: `true`, `{summary: true}`, or absent/`null`/`false`. */
export const TelemetryRequestSchema = z
  .union([z.boolean(), z.strictObject({ summary: z.boolean().nullish() }), z.null()])
  .optional()
  .meta({ description: 'Ask for `telemetry` in the response; `{summary: true}` adds a summary' });

/** Any non-2xx response. @see API-CONTRACT §Envelope */
export const ErrorEnvelopeSchema = z
  .object({
    status: z.literal('error'),
    error: ErrorBodySchema,
    time: z.number().meta({ description: 'Server time spent, seconds' }),
  })
  .meta({ id: 'ErrorEnvelope' });

/**
 * Builds the success envelope schema around a result schema.
 *
 * @param result - schema of `result`
 * @param id - component name of the envelope (e.g. `AddSkillResponse`)
 * @returns `{status: 'ok', result, telemetry?, time}`
 * @example okEnvelope(TempUploadResultSchema, 'TempUploadResponse')
 * @see API-CONTRACT §Envelope
 */
export function okEnvelope<T extends z.ZodType>(result: T, id: string) {
  return z
    .object({
      status: z.literal('ok'),
      result,
      telemetry: TelemetrySchema.optional(),
      time: z.number().meta({ description: 'Server time spent, seconds' }),
    })
    .meta({ id });
}

/**
 * An optional request field that clients of the seed API may also send as `null` or `false`,
 * both meaning "not given" (API-CONTRACT §Compatibility).
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
