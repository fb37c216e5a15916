/**
 * `POST /api/v1/resources/temp_upload` (see the OpenAPI document): multipart `file` (+ `upload_mode`);
 * `DELETE /api/v1/resources/temp_upload/{temp_file_id}` releases an upload that will not be used.
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import {
  SkillportError,
  TempUploadFormSchema,
  TempUploadReleaseResultSchema,
  TempUploadResultSchema,
} from '@skillport/core';
import { quotaBytes } from '../config.js';
import type { AppEnv } from '../http/context.js';
import { okBody } from '../http/envelope.js';
import { streamMultipart, uploadedBytes } from '../http/multipart-stream.js';
import type { ServiceDeps } from '../services/deps.js';
import { tempUploadGone } from '../store/write-checks.js';
import { errorResponses, okResponse } from './common.js';

const tempUploadRoute = createRoute({
  method: 'post',
  path: '/api/v1/resources/temp_upload',
  operationId: 'tempUpload',
  tags: ['resources'],
  summary: 'Upload a zipped skill folder or one SKILL.md; returns an id for add/update (used once)',
  description:
    'Multipart upload (`file`, optional `upload_mode`) for add and update (`temp_file_id`). A zip is ' +
    'recognised by content: the skill folder at the archive root or in its single top folder, `__MACOSX/` ' +
    'ignored; anything else is read as SKILL.md text. The id is bound to the uploading account, used up ' +
    'by the add or update that stores it (a refused one, e.g. invalid SKILL.md, leaves it for a retry), expires (default 12 h) and never names a host path. Over the size limit (default 25 MiB) → 413 ' +
    "`PAYLOAD_TOO_LARGE`. When the account's unused, unexpired uploads plus this one (each counted as at least " +
    '2 KiB) would pass the temp-upload ' +
    'quota (`SKILLPORT_TEMP_UPLOAD_QUOTA_MB`, default 256 MiB) → 507 `RESOURCE_EXHAUSTED` with `details ' +
    '{reason: "temp_upload_quota", limit, used, size, setting}`; nothing is stored.',
  request: {
    body: { required: true, content: { 'multipart/form-data': { schema: TempUploadFormSchema } } },
  },
  responses: {
    ...okResponse(TempUploadResultSchema, 'TempUploadResponse', 'Stored temporarily'),
    ...errorResponses,
  },
});

const releaseTempUploadRoute = createRoute({
  method: 'delete',
  path: '/api/v1/resources/temp_upload/{temp_file_id}',
  operationId: 'releaseTempUpload',
  tags: ['resources'],
  summary: 'Release a temp upload that will not be used',
  description:
    "Deletes an unused temp upload of the caller's account before it expires, so it no longer counts " +
    'toward the temp-upload quota: e.g. after the add or update naming it was refused (a refused write ' +
    'leaves the upload for a retry). Unknown, expired, already used, or of another account → 404 ' +
    '`NOT_FOUND` (`details {type: "temp_file", resource}`); nothing is deleted.',
  request: {
    params: z.object({
      temp_file_id: z.string().meta({
        param: { name: 'temp_file_id', in: 'path' },
        description: 'Id returned by `POST /api/v1/resources/temp_upload`',
        example: 'tmp_5d41402abc4b2a76b9719d911017c592',
      }),
    }),
  },
  responses: {
    ...okResponse(TempUploadReleaseResultSchema, 'TempUploadReleaseResponse', 'Released'),
    ...errorResponses,
  },
});

/** Registers the temp upload routes. */
export function registerResourceRoutes(app: OpenAPIHono<AppEnv>, deps: ServiceDeps): void {
  // The multipart body is parsed as it arrives, ahead of the form validator (which then reads the
  // parsed form instead of buffering and parsing the whole body in one pass).
  app.on('POST', tempUploadRoute.path, streamMultipart(deps.limits));
  app.openapi(tempUploadRoute, async (c) => {
    const form = c.req.valid('form') as Record<string, unknown>;
    const file = form.file;
    if (!(file instanceof Blob)) {
      throw new SkillportError(
        'INVALID_ARGUMENT',
        'Multipart field `file` is required and must be a file (e.g. `-F file=@skill.zip`)',
        {
          details: {
            field: 'file',
            validation_errors: [{ loc: ['form', 'file'], message: 'file required', type: 'missing' }],
          },
        },
      );
    }
    if (file.size > deps.limits.maxUploadBytes) {
      throw new SkillportError(
        'PAYLOAD_TOO_LARGE',
        `Upload is ${file.size} bytes; the limit is ${deps.limits.maxUploadBytes} bytes (SKILLPORT_MAX_UPLOAD_BYTES)`,
        { details: { field: 'file', size: file.size, limit: deps.limits.maxUploadBytes } },
      );
    }
    const content = uploadedBytes(file) ?? new Uint8Array(await file.arrayBuffer());
    const identity = c.get('identity');
    const now = deps.now();
    const upload = {
      accountId: identity.accountId,
      filename: file instanceof File ? file.name.slice(0, 255) : 'upload',
      content,
      expiresAt: now + deps.limits.tempUploadTtlSeconds * 1000,
    };
    const id = await deps.store.putTempUpload(upload, {
      quotaBytes: quotaBytes(deps.limits.tempUploadQuotaMb),
      now,
    });
    // The add that uses it (usually next) takes the bytes from here instead of the store.
    deps.recentUploads.remember({ id, ...upload });
    return c.json(okBody(c, { temp_file_id: id }), 200);
  });
  app.openapi(releaseTempUploadRoute, async (c) => {
    const { temp_file_id: id } = c.req.valid('param');
    const identity = c.get('identity');
    const now = deps.now();
    // The copy this process keeps for the next add goes too (the store stays the authority).
    deps.recentUploads.take(identity.accountId, id, now);
    if (!(await deps.store.releaseTempUpload(identity.accountId, id, now))) throw tempUploadGone(id);
    return c.json(okBody(c, { temp_file_id: id, released: true as const }), 200);
  });
}
