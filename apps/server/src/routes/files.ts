/**
 * `GET /api/v1/skills/{name}/files/{path}`: one file of a skill as raw bytes (SKILL.md, auxiliary
 * files, the generated `.abstract.md` / `.overview.md`).
 */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { checkEntityTagList, matchesNoneMatch } from '../http/conditional.js';
import type { AppEnv } from '../http/context.js';
import { contentTypeOf } from '../http/file-type.js';
import type { ServiceDeps } from '../services/deps.js';
import { checkFilePath, readSkillFile } from '../services/skill-file.js';
import { readSkillFileAtRevision } from '../services/skill-history.js';
import { errorResponses, optionalQuery } from './common.js';

const FileParams = z.object({
  name: z.string().meta({
    param: { name: 'name', in: 'path' },
    description: 'Skill name: 1–64 characters of `[A-Za-z0-9_-]`',
    example: 'my-skill',
  }),
  path: z.string().meta({
    param: { name: 'path', in: 'path' },
    description:
      'File path inside the skill folder as listed in get `files[].path`; may contain `/` (sent as is, ' +
      'or percent-encoded). Empty, `.` and `..` segments, backslashes and control characters → 400.',
    example: 'scripts/helper.py',
  }),
});

const FileQuery = z.object({
  target_uri: z
    .string()
    .optional()
    .meta({
      description:
        'Look only in this root (`viking://user/{user_id}/skills`, `viking://~/skills` or ' +
        '`viking://agent/skills`). Absent, empty, `null` or `false`: the user root, then the agent root.',
      example: 'viking://agent/skills',
    }),
  revision: z
    .string()
    .optional()
    .meta({
      description:
        "Read the file as it was at this revision of the skill's history (see " +
        '`GET /api/v1/skills/{name}/revisions`): the 64-hex revision or an unambiguous prefix of at least 4. ' +
        'Works for a deleted skill while its history is kept; such a response never changes, so it is ' +
        'cacheable for good. Absent or empty: the current version.',
      example: '9b1d4f0c2e8a',
    }),
});

const fileRoute = createRoute({
  method: 'get',
  path: '/api/v1/skills/{name}/files/{path}',
  operationId: 'getSkillFile',
  tags: ['skills'],
  summary: 'Download one file of a skill (raw bytes)',
  description:
    'The bytes of one file of the skill, exactly as stored: `SKILL.md`, an auxiliary file, or the ' +
    'generated `.abstract.md` / `.overview.md`. The skill is found as get finds it. Headers: `ETag` = the ' +
    "file's sha-256 (`If-None-Match` → 304; a value that is not `*` or a list of entity tags → 400 " +
    "`INVALID_ARGUMENT`), `X-Skill-Revision` = the skill's revision (the one asked " +
    'for with `revision`, which reads the file from the history), ' +
    '`Content-Disposition: attachment`. Files are untrusted content: HTML, SVG and scripts are served as ' +
    '`text/plain`, with `X-Content-Type-Options: nosniff` and a sandboxing Content-Security-Policy. ' +
    'Unknown skill or file → 404 `NOT_FOUND` with `details.type` `skill` or `file`.',
  request: { params: FileParams, query: FileQuery },
  responses: {
    200: {
      description: 'The file (type from its extension; unknown → `application/octet-stream`)',
      content: { 'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) } },
    },
    304: { description: 'Not modified (`If-None-Match` matched the ETag)' },
    ...errorResponses,
  },
});

/** `attachment; filename="…"; filename*=UTF-8''…` for a path's last segment (RFC 6266). */
function contentDisposition(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const ascii = base.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(base)}`;
}

/** Registers the file route: documented as `{path}`, routed so that `path` may span segments. */
export function registerFileRoutes(app: OpenAPIHono<AppEnv>, deps: ServiceDeps): void {
  app.openAPIRegistry.registerPath(fileRoute);
  app.get('/api/v1/skills/:name/files/:path{.+}', async (c) => {
    const name = c.req.param('name');
    const path = c.req.param('path');
    checkEntityTagList('If-None-Match', c.req.header('if-none-match'));
    const query = FileQuery.parse({
      target_uri: c.req.query('target_uri'),
      revision: c.req.query('revision'),
    });
    const revision = optionalQuery(query.revision);
    const read =
      revision === null
        ? await readSkillFile(deps, c.get('identity'), name, path, optionalQuery(query.target_uri))
        : await readSkillFileAtRevision(
            deps,
            c.get('identity'),
            name,
            checkFilePath(path),
            revision,
            optionalQuery(query.target_uri),
          );
    const etag = `"${read.file.sha256}"`;
    const headers: Record<string, string> = {
      ETag: etag,
      'X-Skill-Revision': read.revision,
      // A file read at a revision never changes; the current one is revalidated with its ETag.
      'Cache-Control': revision === null ? 'private, no-cache' : 'private, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "sandbox; default-src 'none'",
    };
    if (matchesNoneMatch(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
    const content = read.file.content;
    return c.body(content as Uint8Array<ArrayBuffer>, 200, {
      ...headers,
      'Content-Type': contentTypeOf(path),
      'Content-Length': String(content.byteLength),
      'Content-Disposition': contentDisposition(path),
    });
  });
}
