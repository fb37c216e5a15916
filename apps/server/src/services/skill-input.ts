/**
 * Turning the body of add/update into SKILL.md text plus auxiliary files, whatever the input form
 * (the OpenAPI document: `POST /api/v1/skills`): SKILL.md string, MCP tool, structured object, or a temp upload.
 */
import {
  fromMcpTool,
  isMcpTool,
  type SkillIssue,
  SkillportError,
  type StructuredSkill,
  skillMdFromStructured,
} from '@skillport/core';
import type { ServerLimits } from '../config.js';
import type { Identity } from '../store/types.js';
import { tempUploadGone } from '../store/write-checks.js';
import { EXTRACT_UPLOADED_SKILL } from '../uploads/skill-folder.js';
import type { ZipFile } from '../uploads/zip-reader.js';
import { convertsInline, uploadRunsInline } from '../workers/inline-policy.js';
import { defineWorkerTask } from '../workers/worker-task.js';
import type { ServiceDeps } from './deps.js';
import { checkNoNul, checkSkillMdSize, decodeSkillMd } from './skill-text.js';

/** Which request form a skill came from. */
export type SkillInputForm = 'skill_md' | 'mcp' | 'structured' | 'upload';

/** A skill ready to validate and store. */
export interface SkillSource {
  form: SkillInputForm;
  /** SKILL.md text. */
  text: string;
  /** SKILL.md bytes to store: the uploaded bytes for SKILL.md input, else the UTF-8 of `text`. */
  bytes: Uint8Array;
  auxiliary: ZipFile[];
  /** The folder the upload's SKILL.md sat in, if any. */
  folderName: string | null;
  /** Issues raised by a conversion (MCP). */
  conversionIssues: SkillIssue[];
  /** The original MCP tool name (`search_web`) of an MCP input, kept outside SKILL.md; else null. */
  mcpTool?: string | null;
  /** The temp upload read (used up by the write that stores the skill, not before). */
  tempUploadId?: string;
}

const encoder = new TextEncoder();
const PATH_PREFIX = /^(\.\/|\.\.\/|~\/|[A-Za-z]:\\)/;

/**
 * True when a `data` string is a host path rather than SKILL.md content: one line that contains
 * `/` or `\`, or starts with `./`, `../`, `~/` or a drive letter.
 */
export function looksLikeHostPath(value: string): boolean {
  const s = value.trim();
  if (s.length === 0 || /[\r\n]/.test(s)) return false;
  return s.includes('/') || s.includes('\\') || PATH_PREFIX.test(s);
}

/** The add/update body fields this module reads. */
export interface SkillInputBody {
  data?: unknown;
  temp_file_id?: string | null | false | undefined;
}

/**
 * Resolves the body of add/update to a {@link SkillSource}.
 *
 * @param body - request body (`data` XOR `temp_file_id`)
 * @param identity - the caller (temp uploads are bound to the account)
 * @param deps - store, limits, clock
 * @throws SkillportError `INVALID_ARGUMENT` (both/neither given, bad `data`), `PERMISSION_DENIED`
 *   (a host path), `NOT_FOUND` (unknown/expired/consumed temp file), and the upload and text errors
 */
export async function resolveSkillSource(
  body: SkillInputBody,
  identity: Identity,
  deps: ServiceDeps,
): Promise<SkillSource> {
  const hasData = body.data !== undefined && body.data !== null;
  const tempId = typeof body.temp_file_id === 'string' && body.temp_file_id !== '' ? body.temp_file_id : null;
  if (hasData && tempId !== null) {
    throw new SkillportError('INVALID_ARGUMENT', 'Give either `data` or `temp_file_id`, not both', {
      details: { field: 'data' },
    });
  }
  if (tempId !== null) return fromTempUpload(tempId, identity, deps);
  if (!hasData) {
    throw new SkillportError(
      'INVALID_ARGUMENT',
      'Missing skill: give `data` (SKILL.md text, MCP tool or structured skill) or `temp_file_id`',
      { details: { field: 'data' } },
    );
  }
  // Converting a large MCP tool or structured skill to SKILL.md is CPU work: a worker thread does it
  // (SKILL.md text only past a length where encoding it costs more than the hop: `convertsInline`).
  return deps.workers.run(
    CONVERT_SKILL_DATA,
    { data: body.data, limits: { maxSkillMdBytes: deps.limits.maxSkillMdBytes } },
    { inline: convertsInline(body.data) },
  );
}

/** Input of {@link convertSkillData}. */
export interface ConvertSkillDataInput {
  data: unknown;
  limits: Pick<ServerLimits, 'maxSkillMdBytes'>;
}

/** {@link fromData} with cloneable arguments, for the worker pool. */
export function convertSkillData(input: ConvertSkillDataInput): SkillSource {
  return fromData(input.data, { limits: input.limits });
}

/** {@link convertSkillData} as a worker pool task. */
export const CONVERT_SKILL_DATA = defineWorkerTask(import.meta.url, 'convertSkillData', convertSkillData);

/** Resolves a `data` value (also used by validate). */
export function fromData(
  data: unknown,
  deps: { limits: Pick<ServerLimits, 'maxSkillMdBytes'> },
): SkillSource {
  if (typeof data === 'string') {
    if (looksLikeHostPath(data)) {
      throw new SkillportError(
        'PERMISSION_DENIED',
        'The server accepts skill content or temp uploads, not host paths: ' +
          `${JSON.stringify(data.slice(0, 120))} looks like a path. Upload the file with temp_upload first.`,
        { details: { field: 'data', reason: 'host_path' } },
      );
    }
    const bytes = encoder.encode(data);
    checkSkillMdSize(bytes.length, deps.limits.maxSkillMdBytes);
    checkNoNul(data);
    return { form: 'skill_md', text: data, bytes, auxiliary: [], folderName: null, conversionIssues: [] };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new SkillportError(
      'INVALID_ARGUMENT',
      `\`data\` must be SKILL.md text or an object, got ${Array.isArray(data) ? 'an array' : typeof data}`,
      {
        details: {
          field: 'data',
          validation_errors: [
            { loc: ['body', 'data'], message: 'expected string or object', type: 'invalid_type' },
          ],
        },
      },
    );
  }
  if ('inputSchema' in data) {
    if (!isMcpTool(data)) {
      throw new SkillportError(
        'INVALID_ARGUMENT',
        'MCP tool needs a string `name` and an object `inputSchema`, e.g. {"name": "calc", "inputSchema": {"type": "object"}}',
        { details: { field: 'data.inputSchema' } },
      );
    }
    const converted = fromMcpTool(data);
    return { ...textSource('mcp', converted.content, deps, converted.issues), mcpTool: converted.mcpTool };
  }
  const structured = data as Record<string, unknown>;
  if (typeof structured.name !== 'string') {
    throw new SkillportError(
      'INVALID_ARGUMENT',
      'Structured skill needs a string `name`, e.g. {"name": "my-skill", …}',
      {
        details: { field: 'name', value: structured.name ?? null },
      },
    );
  }
  const text = skillMdFromStructured(structured as StructuredSkill);
  return textSource('structured', text, deps, []);
}

function textSource(
  form: SkillInputForm,
  text: string,
  deps: { limits: Pick<ServerLimits, 'maxSkillMdBytes'> },
  issues: SkillIssue[],
): SkillSource {
  const bytes = encoder.encode(text);
  checkSkillMdSize(bytes.length, deps.limits.maxSkillMdBytes);
  checkNoNul(text);
  return { form, text, bytes, auxiliary: [], folderName: null, conversionIssues: issues };
}

async function fromTempUpload(id: string, identity: Identity, deps: ServiceDeps): Promise<SkillSource> {
  // Read, not used up: the write storing the skill deletes it, so a refused add can be retried. An
  // upload made through this process lately is at hand; the write's transaction still checks that
  // it is there to be used up (`NOT_FOUND` as below when it is not).
  const now = deps.now();
  const upload =
    deps.recentUploads.take(identity.accountId, id, now) ??
    (await deps.store.getTempUpload(identity.accountId, id, now));
  if (!upload) throw tempUploadGone(id);
  // Inflating a zip is CPU work proportional to its expanded size: a worker thread does it, unless
  // the archive is small enough that the hop to a worker would cost more (`uploadRunsInline`).
  const skill = await deps.workers.run(
    EXTRACT_UPLOADED_SKILL,
    { bytes: upload.content, limits: deps.limits },
    { inline: uploadRunsInline(upload.content) },
  );
  const text = decodeSkillMd(skill.skillMd, deps.limits.maxSkillMdBytes);
  return {
    form: 'upload',
    text,
    bytes: skill.skillMd,
    auxiliary: skill.auxiliary,
    folderName: skill.folderName,
    conversionIssues: [],
    tempUploadId: upload.id,
  };
}
