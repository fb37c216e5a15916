/**
 * Request body size limits: the upload limit on temp upload, the JSON limit everywhere else.
 * Declared `Content-Length` is checked first; streamed bodies are cut off as they arrive.
 */
import { SkillportError } from '@skillport/core';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ServerLimits } from '../config.js';
import type { AppEnv } from './context.js';

const MULTIPART_OVERHEAD = 64 * 1024;

/** Middleware enforcing {@link ServerLimits.maxBodyBytes} / `maxUploadBytes` with 413 `PAYLOAD_TOO_LARGE`. */
export function bodyLimits(limits: ServerLimits): MiddlewareHandler<AppEnv> {
  const make = (maxSize: number, message: string, details: Record<string, unknown>) =>
    bodyLimit({
      maxSize,
      onError: () => {
        throw new SkillportError('PAYLOAD_TOO_LARGE', message, { details });
      },
    });
  const jsonMax = limits.maxBodyBytes;
  // The request may exceed the file's limit by the multipart framing around it; the answer names
  // the file's limit, the one `GET /api/v1/system/limits` serves and the operator sets.
  const uploadMax = limits.maxUploadBytes + MULTIPART_OVERHEAD;
  const json = make(
    jsonMax,
    `Request body is larger than its limit of ${jsonMax} bytes (SKILLPORT_MAX_BODY_BYTES); ` +
      'send a skill folder or a large SKILL.md as a file: POST /api/v1/resources/temp_upload, then add its temp_file_id',
    { limit: jsonMax },
  );
  const upload = make(
    uploadMax,
    `Upload is larger than its limit: the limit is ${limits.maxUploadBytes} bytes (SKILLPORT_MAX_UPLOAD_BYTES) for the file`,
    { field: 'file', limit: limits.maxUploadBytes },
  );
  return async (c, next) => {
    // Bodiless requests skip the limiter (it would materialise the full fetch Request for nothing).
    const method = c.req.method;
    if (
      (method === 'GET' || method === 'HEAD' || method === 'DELETE') &&
      c.req.header('content-length') === undefined
    ) {
      if (c.req.header('transfer-encoding') === undefined) return next();
    }
    const isUpload = c.req.path === '/api/v1/resources/temp_upload';
    // A declared length, not streamed: judged from the header alone, as Hono's limiter would, but
    // without touching `c.req.raw.body` (which turns Node's request into a web stream and costs the
    // body reads their fast path).
    const declared = c.req.header('content-length');
    if (declared !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (Number.parseInt(declared, 10) > (isUpload ? uploadMax : jsonMax)) {
        return (isUpload ? upload : json)(c, next);
      }
      return next();
    }
    return (isUpload ? upload : json)(c, next);
  };
}
