/**
 * A skill's history: the revision list, reading a skill or one of its files at a revision, and
 * restoring a revision. Every lookup is confined to the caller's account and roots, as get is.
 */
import {
  type GetSkillResult,
  type ListSkillRevisionsResult,
  RevisionRefSchema,
  SkillportError,
  type SkillWriteResult,
} from '@skillport/core';
import { quotaBytes } from '../config.js';
import { wantsContent } from '../store/skill-json.js';
import { skillItemUris, skillUri } from '../store/skill-uri.js';
import {
  ABSTRACT_PATH,
  DEFINITION_PATH,
  type Identity,
  type SkillRecord,
  type SkillRevisionRecord,
} from '../store/types.js';
import { textRunsInline } from '../workers/inline-policy.js';
import type { ServiceDeps } from './deps.js';
import { PREPARE_SKILL, type PreparedSkill } from './prepare-skill.js';
import { applyRetention } from './retention.js';
import type { SkillFileRead } from './skill-file.js';
import { resolveSkillName } from './skill-name.js';
import { type GetSkillOptions, getSkill, iso, notFound, rootsFor, skillFilesOf } from './skill-reader.js';
import { waitForStoredSkill } from './wait.js';

// ignoreBOM: keep a leading BOM, so `content` is the document exactly as stored.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** A skill's kept history in one root, and the live skill there (null when deleted). */
interface History {
  name: string;
  rootUri: string;
  entries: SkillRevisionRecord[];
  live: SkillRecord | null;
}

/**
 * The history of `name` in the first of the caller's roots (or `targetUri`) that holds the skill or
 * a kept history of it.
 *
 * @throws SkillportError `NOT_FOUND` when no root has either
 */
async function findHistory(
  deps: ServiceDeps,
  identity: Identity,
  rawName: string,
  targetUri: string | null,
): Promise<History> {
  const name = resolveSkillName(rawName, deps.namePolicy).name;
  const roots = rootsFor(identity, targetUri);
  for (const rootUri of roots) {
    const entries = await deps.store.listRevisions(identity.accountId, rootUri, name);
    if (entries.length === 0) continue;
    const live = await deps.store.getSkill(identity.accountId, rootUri, name);
    return { name, rootUri, entries, live };
  }
  throw notFound(name, roots);
}

/** Parses a revision reference (full or prefix), or throws the contract's 400. */
function parseRevisionRef(ref: string): string {
  const parsed = RevisionRefSchema.safeParse(ref);
  if (!parsed.success) {
    throw new SkillportError(
      'INVALID_ARGUMENT',
      `Invalid revision ${JSON.stringify(ref.slice(0, 80))}: expected 4 to 64 hexadecimal characters ` +
        '(a revision from the history, e.g. "9b1d4f0c2e8a", or its full 64-character form)',
      { details: { field: 'revision', value: ref.slice(0, 80) } },
    );
  }
  return parsed.data;
}

/** A revision found in a history: the newest entry with it. */
interface RevisionMatch extends History {
  entry: SkillRevisionRecord;
}

/**
 * Finds a revision (full or unambiguous prefix) of a skill in the caller's roots: the first root (in
 * get's order) whose kept history holds it.
 *
 * @throws SkillportError `INVALID_ARGUMENT` (malformed or ambiguous reference, with the candidates);
 *   `NOT_FOUND` (no such skill, or no such revision kept: `details.type` is `revision`)
 */
async function resolveRevision(
  deps: ServiceDeps,
  identity: Identity,
  rawName: string,
  ref: string,
  targetUri: string | null,
): Promise<RevisionMatch> {
  const prefix = parseRevisionRef(ref);
  const name = resolveSkillName(rawName, deps.namePolicy).name;
  const roots = rootsFor(identity, targetUri);
  let sawHistory: History | null = null;
  for (const rootUri of roots) {
    const entries = await deps.store.listRevisions(identity.accountId, rootUri, name);
    if (entries.length === 0) continue;
    const matching = entries.filter((e) => e.revision.startsWith(prefix));
    const distinct = [...new Set(matching.map((e) => e.revision))];
    if (distinct.length > 1) {
      throw new SkillportError(
        'INVALID_ARGUMENT',
        `Revision prefix ${JSON.stringify(prefix)} matches ${distinct.length} revisions of ${JSON.stringify(name)}; ` +
          'give more characters',
        { details: { field: 'revision', candidates: distinct } },
      );
    }
    const live = await deps.store.getSkill(identity.accountId, rootUri, name);
    const entry = matching[0];
    if (entry !== undefined) return { name, rootUri, entries, live, entry };
    sawHistory ??= { name, rootUri, entries, live };
  }
  if (sawHistory === null) throw notFound(name, roots);
  const uri = skillUri(sawHistory.rootUri, name);
  throw new SkillportError(
    'NOT_FOUND',
    `Revision ${prefix} of skill ${JSON.stringify(name)} is not in its history (it may have been ` +
      'removed by the retention policy); list the kept ones with GET /api/v1/skills/{name}/revisions',
    { details: { type: 'revision', resource: `${uri}@${prefix}` } },
  );
}

/**
 * Parses a stored SKILL.md as writes do (large text in a worker thread, so one big skill never holds
 * up other requests); the text was valid when it was stored.
 */
async function parseStored(deps: ServiceDeps, text: string): Promise<PreparedSkill> {
  return deps.workers.run(PREPARE_SKILL, { text }, { inline: textRunsInline(text) });
}

/** True when the entry is the live skill's current version. */
function isCurrent(match: History, entry: SkillRevisionRecord): boolean {
  return match.live !== null && entry.supersededAt === null && match.live.revision === entry.revision;
}

/**
 * What ended entry `i` of a history listed newest first: a write stores the new version with the
 * time it marks the old one superseded, so the next newer entry created at that very time replaced
 * it; otherwise (the newest entry, or the next one written later: a re-add or restore after a
 * delete) the skill was deleted then.
 */
function supersededBy(entries: readonly SkillRevisionRecord[], i: number): 'write' | 'delete' | null {
  const entry = entries[i];
  if (entry === undefined || entry.supersededAt === null) return null;
  const newer = entries[i - 1];
  return newer !== undefined && newer.createdAt === entry.supersededAt ? 'write' : 'delete';
}

/**
 * `GET /api/v1/skills/{name}/revisions`: the kept history, newest first.
 *
 * @param options.limit - most entries returned (default 100, at most 1000)
 * @throws SkillportError `NOT_FOUND` when neither the skill nor a history of it exists
 */
export async function listSkillRevisions(
  deps: ServiceDeps,
  identity: Identity,
  rawName: string,
  options: { targetUri: string | null; limit: number },
): Promise<ListSkillRevisionsResult> {
  const history = await findHistory(deps, identity, rawName, options.targetUri);
  const limit = Math.min(Math.max(0, Math.floor(options.limit)), 1000);
  return {
    name: history.name,
    uri: skillUri(history.rootUri, history.name),
    root_uri: history.rootUri,
    deleted: history.live === null,
    current_revision: history.live?.revision ?? null,
    revisions: history.entries.slice(0, limit).map((entry, i) => ({
      revision: entry.revision,
      created_at: iso(entry.createdAt),
      created_by: entry.createdBy,
      superseded_at: entry.supersededAt === null ? null : iso(entry.supersededAt),
      superseded_by: supersededBy(history.entries, i),
      current: isCurrent(history, entry),
      size: entry.manifest.reduce((sum, f) => sum + f.size, 0),
      files: entry.manifest.length,
      auxiliary_files: entry.manifest.filter((f) => f.kind === 'auxiliary').length,
    })),
    total: history.entries.length,
  };
}

/** Reads the contents of a revision's files; a missing one means retention removed it meanwhile. */
async function readRevisionFiles(
  deps: ServiceDeps,
  match: RevisionMatch,
  paths: readonly string[] | 'all',
): Promise<Map<string, Uint8Array>> {
  const wanted = match.entry.manifest.filter((f) => paths === 'all' || paths.includes(f.path));
  const blobs = await deps.store.readBlobs(wanted.map((f) => f.sha256));
  const out = new Map<string, Uint8Array>();
  for (const file of wanted) {
    const content = blobs.get(file.sha256);
    if (content === undefined) {
      throw new SkillportError(
        'NOT_FOUND',
        `Revision ${match.entry.revision} of skill ${JSON.stringify(match.name)} was just removed by the retention policy`,
        {
          details: {
            type: 'revision',
            resource: `${skillUri(match.rootUri, match.name)}@${match.entry.revision}`,
          },
        },
      );
    }
    out.set(file.path, content);
  }
  return out;
}

/**
 * `GET /api/v1/skills/{name}?revision=`: the skill as it was at a revision, in get's shape. The
 * current revision is served by {@link getSkill} itself; an earlier one is rebuilt from its files
 * (metadata parsed from its SKILL.md, the overview rendered from its body).
 *
 * @throws SkillportError `INVALID_ARGUMENT` (bad or ambiguous revision), `NOT_FOUND`
 */
export async function getSkillAtRevision(
  deps: ServiceDeps,
  identity: Identity,
  rawName: string,
  ref: string,
  options: GetSkillOptions,
): Promise<GetSkillResult> {
  const match = await resolveRevision(deps, identity, rawName, ref, options.targetUri);
  if (isCurrent(match, match.entry)) {
    return getSkill(deps, identity, match.name, { ...options, targetUri: match.rootUri });
  }
  const { level } = options;
  const wantsAbstract = level === null || level === 0;
  const wantsOverview = level === null || level === 1;
  const withContent = wantsContent(options);
  const files = await readRevisionFiles(deps, match, [DEFINITION_PATH, ABSTRACT_PATH]);
  const definition = files.get(DEFINITION_PATH);
  if (definition === undefined) throw new Error(`revision ${match.entry.revision} has no ${DEFINITION_PATH}`);
  const text = decoder.decode(definition);
  const parsed = await parseStored(deps, text);
  const description = parsed.description ?? '';
  const uris = skillItemUris(match.rootUri, match.name);
  const uri = uris.uri;
  const oldest = match.entries.at(-1) ?? match.entry;
  const result: GetSkillResult = {
    name: match.name,
    ...uris,
    description,
    tags: parsed.tags,
    allowed_tools: parsed.allowedTools,
    frontmatter: parsed.frontmatter,
    revision: match.entry.revision,
    created_at: iso(match.live?.createdAt ?? oldest.createdAt),
    updated_at: iso(match.entry.createdAt),
  };
  if (level !== null) result.level = level;
  if (wantsAbstract) {
    const abstract = files.get(ABSTRACT_PATH);
    result.abstract = abstract === undefined ? '' : decoder.decode(abstract);
  }
  if (wantsOverview) {
    result.overview =
      (await deps.renderOverview?.({
        name: match.name,
        description,
        tags: parsed.tags,
        allowedTools: parsed.allowedTools,
        body: parsed.body,
      })) ?? '';
  }
  if (withContent) {
    result.content = text;
    result.content_sha256 = match.entry.manifest.find((f) => f.path === DEFINITION_PATH)?.sha256 ?? '';
  }
  if (options.includeFiles) {
    result.files = skillFilesOf(uri, match.entry.manifest);
  }
  if (options.includeSource) result.source = match.live?.sourceMetadata ?? null;
  return result;
}

/**
 * Reads one file of a skill as it was at `revision` (`GET /api/v1/skills/{name}/files/{path}?revision=`).
 * The current revision also serves the generated `.overview.md`, which no revision lists.
 *
 * @param path - the file path, already checked (see `checkFilePath`)
 * @returns the file as the file route sends it; `revision` is the one asked for
 * @throws SkillportError `INVALID_ARGUMENT` (bad or ambiguous revision), `NOT_FOUND` (skill,
 *   revision or file; `details.type` is `skill`, `revision` or `file`)
 */
export async function readSkillFileAtRevision(
  deps: ServiceDeps,
  identity: Identity,
  rawName: string,
  path: string,
  ref: string,
  targetUri: string | null,
): Promise<SkillFileRead> {
  const match = await resolveRevision(deps, identity, rawName, ref, targetUri);
  const uri = skillUri(match.rootUri, match.name);
  const entry = match.entry.manifest.find((f) => f.path === path);
  if (entry !== undefined) {
    const content = (await readRevisionFiles(deps, match, [path])).get(path) as Uint8Array;
    return {
      uri: `${uri}/${path}`,
      revision: match.entry.revision,
      file: { path, kind: entry.kind, size: entry.size, sha256: entry.sha256, content },
    };
  }
  if (isCurrent(match, match.entry)) {
    const view = await deps.store.readSkillView(identity.accountId, [match.rootUri], match.name, {
      contents: [path],
      listFiles: false,
      body: 'never',
    });
    const file = view?.contents.get(path);
    if (view !== null && view.skill.revision === match.entry.revision && file?.content !== undefined) {
      return {
        uri: `${uri}/${path}`,
        revision: match.entry.revision,
        file: { ...file, content: file.content },
      };
    }
  }
  throw new SkillportError(
    'NOT_FOUND',
    `Skill ${uri} has no file ${JSON.stringify(path.slice(0, 200))} at revision ${match.entry.revision}`,
    { details: { type: 'file', resource: `${uri}/${path}` } },
  );
}

/**
 * `POST /api/v1/skills/{name}/restore`: writes an earlier revision's files again as a new version
 * (same files, so the same `revision`), with a new processing job. Works for a deleted skill while
 * its history is kept (the skill comes back). Source metadata of the current skill is kept.
 *
 * @throws SkillportError `INVALID_ARGUMENT`, `NOT_FOUND`, `CONFLICT` 412 (stale `If-Match`),
 *   `DEADLINE_EXCEEDED` (wait timeout: the revision is written, see {@link waitForStoredSkill})
 */
export async function restoreSkill(
  deps: ServiceDeps,
  identity: Identity,
  rawName: string,
  body: {
    revision: string;
    target_uri?: string | null | false | undefined;
    wait?: boolean | null | false | undefined;
    timeout?: number | null | false | undefined;
  },
  ifMatch: readonly string[] | undefined,
): Promise<SkillWriteResult> {
  const targetUri =
    typeof body.target_uri === 'string' && body.target_uri.trim() !== '' ? body.target_uri : null;
  const match = await resolveRevision(deps, identity, rawName, body.revision, targetUri);
  const contents = await readRevisionFiles(deps, match, 'all');
  const definition = contents.get(DEFINITION_PATH);
  if (definition === undefined) throw new Error(`revision ${match.entry.revision} has no ${DEFINITION_PATH}`);
  const parsed = await parseStored(deps, decoder.decode(definition));
  const written = await deps.store.putSkill({
    accountId: identity.accountId,
    rootUri: match.rootUri,
    name: match.name,
    description: parsed.description ?? '',
    tags: parsed.tags,
    allowedTools: parsed.allowedTools,
    frontmatter: parsed.frontmatter,
    body: parsed.body,
    sourceMetadata: match.live?.sourceMetadata ?? null,
    files: match.entry.manifest.map((f) => ({
      path: f.path,
      kind: f.kind,
      content: contents.get(f.path) as Uint8Array,
      ...(f.executable === true ? { executable: true } : {}),
    })),
    ...(ifMatch !== undefined ? { ifMatch } : {}),
    quotaBytes: quotaBytes(deps.limits.accountQuotaMb),
    maxSkills: deps.limits.accountMaxSkills,
    task: {
      type: match.live === null ? 'add_skill' : 'update_skill',
      userId: identity.userId,
      ...(body.wait === true ? { interactive: true } : {}),
    },
  });
  deps.kickJobs();
  await applyRetention(
    deps,
    { accountId: identity.accountId, rootUri: match.rootUri, name: match.name },
    written.revisions,
  );
  const uri = skillUri(match.rootUri, match.name);
  const result: SkillWriteResult = {
    status: 'success',
    root_uri: uri,
    uri,
    name: match.name,
    auxiliary_files: match.entry.manifest.filter((f) => f.kind === 'auxiliary').length,
    revision: written.skill.revision,
    replaced: !written.created,
    warnings: [],
    action: 'restore',
  };
  if (body.wait === true) {
    result.queue_status = await waitForStoredSkill(deps, identity, result, written.taskId, body.timeout);
  } else {
    result.task_id = written.taskId;
  }
  return result;
}
