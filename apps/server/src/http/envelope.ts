/**
 * Builders of the response envelope (the `ErrorEnvelope` and success envelopes of the OpenAPI document).
 */
import { randomUUID } from 'node:crypto';
import type { ErrorCode } from '@skillport/core';
import type { Context } from 'hono';
import type { AppEnv, TelemetryState } from './context.js';

/** Seconds since the request arrived. */
export function elapsedSeconds(c: Context<AppEnv>): number {
  const started = c.get('startedAt') ?? performance.now();
  return Math.round(performance.now() - started) / 1000;
}

/**
 * Records the request's `telemetry` field so the response carries `telemetry`.
 *
 * @param c - request context
 * @param operation - operation name for the summary, e.g. `skills.add`
 * @param requested - the body's `telemetry` value (`true`, `{summary: true}`, or absent/null/false)
 */
export function requestTelemetry(c: Context<AppEnv>, operation: string, requested: unknown): void {
  if (requested === true) {
    c.set('telemetry', { operation, summary: false });
  } else if (requested !== null && typeof requested === 'object') {
    c.set('telemetry', { operation, summary: (requested as { summary?: unknown }).summary === true });
  }
}

function telemetryOf(state: TelemetryState | null | undefined, status: 'ok' | 'error', time: number) {
  if (!state) return undefined;
  const operationId = randomUUID();
  if (!state.summary) return { operation_id: operationId };
  return {
    operation_id: operationId,
    summary: { operation: state.operation, status, duration_ms: Math.round(time * 1000 * 1000) / 1000 },
  };
}

/**
 * The success envelope `{status: 'ok', result, telemetry?, time}`.
 *
 * @param c - request context
 * @param result - the route's result
 * @returns the envelope object (serialise with `c.json`)
 */
export function okBody<T>(c: Context<AppEnv>, result: T) {
  const time = elapsedSeconds(c);
  const telemetry = telemetryOf(c.get('telemetry'), 'ok', time);
  return telemetry
    ? { status: 'ok' as const, result, telemetry, time }
    : { status: 'ok' as const, result, time };
}

/** The start of every success envelope, in bytes. */
export const ENVELOPE_HEAD = Buffer.from('{"status":"ok","result":', 'latin1');

/**
 * {@link okBody} around a result that is UTF-8 JSON already (kept in the read cache as bytes): the
 * same bytes `c.json(okBody(c, JSON.parse(result)))` would send, without parsing nor serialising the
 * result again.
 *
 * @param c - request context
 * @param result - `JSON.stringify` of the result, as UTF-8
 * @returns the envelope's bytes (send with `content-type: application/json`)
 */
export function okBodyBytes(c: Context<AppEnv>, result: Uint8Array): Buffer<ArrayBuffer> {
  const time = elapsedSeconds(c);
  const telemetry = telemetryOf(c.get('telemetry'), 'ok', time);
  const tail = telemetry ? `,"telemetry":${JSON.stringify(telemetry)},"time":${time}}` : `,"time":${time}}`;
  return Buffer.concat([ENVELOPE_HEAD, result, Buffer.from(tail, 'utf8')]);
}

/**
 * The error envelope `{status: 'error', error: {code, message, details?}, time}`.
 */
export function errorBody(
  c: Context<AppEnv>,
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
) {
  const time = elapsedSeconds(c);
  const telemetry = telemetryOf(c.get('telemetry'), 'error', time);
  const error = details === undefined ? { code, message } : { code, message, details };
  return telemetry
    ? { status: 'error' as const, error, telemetry, time }
    : { status: 'error' as const, error, time };
}
