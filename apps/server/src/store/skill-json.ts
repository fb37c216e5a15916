/**
 * The body of `GET /api/v1/skills/{name}` (the OpenAPI document's get result) built from one
 * {@link SkillView}: a pure function of the view and the request, so it runs wherever the view is read —
 * on SQLite inside the database thread, which then hands the HTTP thread finished JSON bytes
 * (`Store.readSkillJson`), or in the HTTP thread after `Store.readSkillView`.
 */
import type { GetSkillResult, SkillFile } from '@skillport/core';
import { skillItemUris } from './skill-uri.js';
import {
  ABSTRACT_PATH,
  DEFINITION_PATH,
  type SkillJsonRead,
  type SkillJsonRequest,
  type SkillView,
  type SkillViewOptions,
} from './types.js';
import { isWritableUtf8, stringifyWithUtf8 } from './utf8-json.js';

// ignoreBOM: keep a leading BOM, so `content` is the document exactly as stored.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** Epoch ms → ISO 8601 UTC with milliseconds. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * The `files` of a get result: one entry per stored file of the skill at `uri` plus one `directory`
 * entry per folder on their paths, sorted by path; `executable: true` on executable files only.
 */
export function skillFilesOf(
  uri: string,
  stored: readonly {
    path: string;
    kind: SkillFile['kind'];
    size: number;
    sha256: string | null;
    executable?: boolean | undefined;
  }[],
): SkillFile[] {
  return withDirectories(
    uri,
    stored.map((f) => {
      const file: SkillFile = {
        name: f.path.slice(f.path.lastIndexOf('/') + 1),
        uri: `${uri}/${f.path}`,
        path: f.path,
        is_dir: false,
        kind: f.kind,
        size: f.size,
        sha256: f.sha256,
      };
      // Only on executable files: the entries of a skill without any stay as they always were.
      if (f.executable === true) file.executable = true;
      return file;
    }),
  );
}

/** The files plus one `directory` entry per folder on their paths, sorted by path. */
function withDirectories(uri: string, files: SkillFile[]): SkillFile[] {
  const dirs = new Set<string>();
  for (const f of files) {
    const parts = f.path.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
  }
  const dirEntries: SkillFile[] = [...dirs].map((path) => ({
    name: path.slice(path.lastIndexOf('/') + 1),
    uri: `${uri}/${path}`,
    path,
    is_dir: true,
    kind: 'directory',
    size: 0,
    sha256: null,
  }));
  return [...files, ...dirEntries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Whether a request at `level` (null: all levels) carries the L1 overview. */
export function wantsOverview(request: SkillJsonRequest): boolean {
  return request.level === null || request.level === 1;
}

/**
 * Whether a request carries SKILL.md (`content`): level 2 always; `include_content=true` at any level;
 * with no level unless `include_content=false` (as OpenViking's get answers it).
 */
export function wantsContent(request: Pick<SkillJsonRequest, 'level' | 'includeContent'>): boolean {
  return request.level === 2 || (request.includeContent ?? request.level === null);
}

/** What a get reads for `request`: the abstract and/or SKILL.md, the file list, the body only when needed. */
export function viewOptionsFor(request: SkillJsonRequest): SkillViewOptions {
  const contents: string[] = [];
  if (request.level === null || request.level === 0) contents.push(ABSTRACT_PATH);
  if (wantsContent(request)) contents.push(DEFINITION_PATH);
  // The body is read only when the overview must be rendered from it (the job has not run yet).
  return {
    contents,
    listFiles: request.includeFiles,
    body: wantsOverview(request) ? 'without-overview' : 'never',
  };
}

/**
 * A stored text for field `field` of a result: decoded, or — when `utf8` is given and the bytes are
 * valid UTF-8 — left as bytes in `utf8` (the field then holds `''`).
 */
function textOf(bytes: Uint8Array, field: string, utf8: Map<string, Uint8Array> | undefined): string {
  if (utf8 !== undefined && isWritableUtf8(bytes)) {
    utf8.set(field, bytes);
    return '';
  }
  return decoder.decode(bytes);
}

/**
 * The get result of a view. With `utf8`, the abstract and SKILL.md texts that are valid UTF-8 are put
 * there as their stored bytes instead (their field in the result holds `''` for the key order; see
 * `stringifyWithUtf8`).
 *
 * @param view - read with {@link viewOptionsFor}(`request`)
 * @param overview - the L1 overview when the request carries it: the stored one, or one rendered from
 *   the body while the skill is not settled
 * @throws Error when SKILL.md is asked for but unreadable (a damaged store)
 */
export function skillResultOf(
  view: SkillView,
  request: SkillJsonRequest,
  overview: string,
  utf8?: Map<string, Uint8Array>,
): GetSkillResult {
  const skill = view.skill;
  const level = request.level;
  const uris = skillItemUris(skill.rootUri, skill.name);
  const uri = uris.uri;
  const result: GetSkillResult = {
    name: skill.name,
    ...uris,
    description: skill.description,
    tags: skill.tags,
    allowed_tools: skill.allowedTools,
    frontmatter: skill.frontmatter,
    revision: skill.revision,
    created_at: iso(skill.createdAt),
    updated_at: iso(skill.updatedAt),
  };
  if (level !== null) result.level = level;
  if (level === null || level === 0) {
    const file = view.contents.get(ABSTRACT_PATH);
    result.abstract = file?.content ? textOf(file.content, 'abstract', utf8) : '';
  }
  if (wantsOverview(request)) result.overview = overview;
  if (wantsContent(request)) {
    const file = view.contents.get(DEFINITION_PATH);
    if (!file?.content) throw new Error(`skill ${skill.id} has no readable ${DEFINITION_PATH}`);
    result.content = textOf(file.content, 'content', utf8);
    result.content_sha256 = file.sha256;
  }
  if (view.files !== null) {
    result.files = skillFilesOf(uri, view.files);
  }
  if (request.includeSource) result.source = skill.sourceMetadata;
  return result;
}

/**
 * `JSON.stringify` of {@link skillResultOf} as UTF-8, the abstract and SKILL.md — and the overview when
 * given as bytes — written from their stored bytes (not decoded, escaped and encoded again).
 *
 * @param overview - the overview as text, or as its stored UTF-8 bytes
 */
export function skillResultJson(
  view: SkillView,
  request: SkillJsonRequest,
  overview: string | Uint8Array,
): Buffer {
  const utf8 = new Map<string, Uint8Array>();
  const text = typeof overview === 'string' ? overview : textOf(overview, 'overview', utf8);
  return stringifyWithUtf8(skillResultOf(view, request, text, utf8) as Record<string, unknown>, utf8);
}

/**
 * `Store.readSkillJson` on top of a store's view read: the finished JSON when the request needs no
 * overview or the stored one exists, else the view (the caller renders the overview from its body).
 *
 * @param view - the view read with {@link viewOptionsFor}(`request`), or null when no root holds it
 * @param stamp - the skill's stamp read with the view when it is settled (`skillStamp`), else null
 */
export function skillJsonOfView(
  view: SkillView | null,
  request: SkillJsonRequest,
  stamp: string | null,
): SkillJsonRead | null {
  if (view === null) return null;
  const stored = view.skill.overview;
  if (wantsOverview(request) && stored === null) return { view };
  return {
    json: skillResultJson(view, request, stored ?? ''),
    revision: view.skill.revision,
    settled: stored !== null,
    stamp: stored !== null ? stamp : null,
  };
}
