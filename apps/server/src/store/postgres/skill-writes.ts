import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { SkillportError } from '@skillport/core/base';
import type pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { buildTsvectorAsync } from '../../search/postgres-text.js';
import { buildSearchDocument } from '../../search/search-document.js';
import { computeRevision, sha256HexAsync } from '../revision.js';
import { skillUri } from '../skill-uri.js';
import { type ManifestFile, type SkillRow, toSkillRecord } from '../sqlite/rows.js';
import { OVERVIEW_PATH, type SkillWrite, type SkillWriteResult, taskPriority } from '../types.js';
import {
  checkFiles,
  checkIfMatch,
  checkQuota,
  checkSkillCount,
  tempUploadGone,
  writeBytes,
} from '../write-checks.js';
import { ACCOUNT_TOTALS_COLUMNS } from './account-ops.js';
import { deleteOrphanBlobs } from './history-ops.js';

/** Every column of `skills` but the search vector, as `SkillRow` expects them. */
export const SKILL_COLUMNS = `seq, id, account_id, root_uri, name, description, tags, allowed_tools, source_metadata,
  revision, overview_revision, created_at, updated_at, frontmatter, overview, body`;

/** The `tsvector` text of a skill row (or write) with the given overview (yields while it works). */
export function searchVector(skill: {
  name: string;
  tags: readonly string[];
  description: string;
  overview: string | null;
  body: string;
}): Promise<string> {
  return buildTsvectorAsync(buildSearchDocument(skill));
}

function toBuffer(content: Uint8Array): Buffer {
  return Buffer.from(content.buffer, content.byteOffset, content.byteLength);
}

/** The CPU-heavy parts of a skill write, done before its transaction (yielding while they work). */
export interface PreparedWrite {
  /** The sha-256 of each file of the write, in order. */
  sha256s: string[];
  /** The search vector of the skill with the overview of the write (`processed`), else without one. */
  searchWithoutOverview: string;
  /** The overview rendered with the write (`processed`), encoded, with its sha-256; else null. */
  overview: { text: string; content: Uint8Array; sha256: string } | null;
}

/** Hashes the files and builds the search vector of a write, yielding to the event loop as it goes. */
export async function prepareWrite(write: SkillWrite): Promise<PreparedWrite> {
  const sha256s: string[] = [];
  for (const file of write.files) sha256s.push(await sha256HexAsync(file.content));
  const text = write.processed?.overview ?? null;
  let overview: PreparedWrite['overview'] = null;
  if (text !== null) {
    const content = new TextEncoder().encode(text);
    overview = { text, content, sha256: await sha256HexAsync(content) };
  }
  return { sha256s, searchWithoutOverview: await searchVector({ ...write, overview: text }), overview };
}

/**
 * Stores file contents once each (content-addressed), in sha-256 order so two transactions writing
 * the same new blobs never wait on each other in opposite orders (no deadlock).
 *
 * @returns nothing; every given content is present in `blobs` when it resolves
 */
export async function putBlobs(
  client: pg.ClientBase,
  blobs: ReadonlyArray<{ sha256: string; content: Uint8Array }>,
): Promise<void> {
  const unique = new Map<string, Uint8Array>();
  for (const blob of blobs) unique.set(blob.sha256, blob.content);
  const sorted = [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // Batches keep each statement far below the 65 535 parameters of the protocol.
  for (let start = 0; start < sorted.length; start += 500) {
    const batch = sorted.slice(start, start + 500);
    const values: unknown[] = [];
    const rows = batch.map(([sha256, content], i) => {
      values.push(sha256, content.byteLength, toBuffer(content));
      return `($${i * 3 + 1}, $${i * 3 + 2}, $${i * 3 + 3})`;
    });
    await client.query(
      `INSERT INTO blobs (sha256, size, content) VALUES ${rows.join(', ')} ON CONFLICT (sha256) DO NOTHING`,
      values,
    );
  }
}

/** Positional parameters of one statement: `add` returns the placeholder (`$n`) of a value. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * `VALUES` rows of the distinct blobs, in sha-256 order so two transactions writing the same new blobs
 * never wait on each other in opposite orders (no deadlock). Contents go as binary parameters.
 */
function blobValues(
  params: Params,
  blobs: ReadonlyArray<{ sha256: string; content: Uint8Array }>,
): { sql: string; count: number } {
  const unique = new Map<string, Uint8Array>();
  for (const blob of blobs) if (blob.content.byteLength < LARGE_BLOB) unique.set(blob.sha256, blob.content);
  const sql = [...unique.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(
      ([sha256, content]) =>
        `(${params.add(sha256)}, ${params.add(content.byteLength)}::bigint, ${params.add(toBuffer(content))}::bytea)`,
    )
    .join(', ');
  return { sql, count: unique.size };
}

/**
 * Writes with up to this many distinct inline blobs use a named (per-connection prepared) statement,
 * one per number of blobs; more, and the statement is sent unnamed (a rare shape is not worth a
 * prepared statement kept by every connection).
 */
const NAMED_WRITE_BLOBS = 8;

/**
 * Contents of this size or more are not sent as one statement parameter (the driver copies a
 * parameter whole, several times, on the event loop: ~100 ms for 48 MiB) but streamed with
 * `COPY … FROM STDIN` in slices of {@link COPY_SLICE} bytes.
 */
export const LARGE_BLOB = 1024 * 1024;
const COPY_SLICE = 256 * 1024;

/** PostgreSQL's binary COPY header: signature, flags, header extension length. */
const COPY_HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);

/**
 * Streams one large blob into `blobs` (binary `COPY`, inside the caller's transaction) unless it is
 * there already. A concurrent copy of the same content fails the unique key; the write is retried
 * and then finds it (see {@link isBlobInsertRace}).
 */
async function copyLargeBlob(client: pg.ClientBase, sha256: string, content: Uint8Array): Promise<void> {
  const found = await client.query('SELECT 1 FROM blobs WHERE sha256 = $1', [sha256]);
  if ((found.rowCount ?? 0) > 0) return;
  const stream = client.query(
    copyStreams.from('COPY blobs (sha256, size, content) FROM STDIN (FORMAT binary)'),
  );
  const done = finished(stream);
  const write = async (chunk: Buffer): Promise<void> => {
    if (!stream.write(chunk)) await once(stream, 'drain');
  };
  const hash = Buffer.from(sha256, 'utf8');
  const tuple = Buffer.alloc(2 + 4 + hash.length + 4 + 8 + 4);
  let at = tuple.writeInt16BE(3, 0);
  at = tuple.writeInt32BE(hash.length, at);
  at += hash.copy(tuple, at);
  at = tuple.writeInt32BE(8, at);
  at = tuple.writeBigInt64BE(BigInt(content.byteLength), at);
  tuple.writeInt32BE(content.byteLength, at);
  await write(Buffer.concat([COPY_HEADER, tuple]));
  const bytes = toBuffer(content);
  for (let start = 0; start < bytes.byteLength; start += COPY_SLICE) {
    await write(bytes.subarray(start, Math.min(bytes.byteLength, start + COPY_SLICE)));
  }
  const trailer = Buffer.alloc(2);
  trailer.writeInt16BE(-1, 0);
  stream.end(trailer);
  await done;
}

/** True for the unique violation of two writes storing the same new large blob at once (retry). */
export function isBlobInsertRace(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string } | null;
  return e?.code === '23505' && e.constraint === 'blobs_pkey';
}

interface ExistingSkill {
  seq: number;
  id: string;
  revision: string;
  overview: string | null;
  /** The content of its `.overview.md` file, if any. */
  overview_sha256: string | null;
}

/** True for the unique violation of a concurrent insert of the same skill (the write is retried). */
export function isSkillInsertRace(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string } | null;
  return e?.code === '23505' && e.constraint === 'skills_account_id_root_uri_name_key';
}

/** Moves one skill to the end of its account's change feed, unnumbered (see {@link recordChange}). */
const RECORD_CHANGE = `WITH change AS (
    INSERT INTO skill_changes (account_id, root_uri, name, seq, revision, deleted, changed_at)
    VALUES ($1, $2, $3, NULL, $4, $5, $6)
    ON CONFLICT (account_id, root_uri, name) DO UPDATE SET seq = NULL, revision = excluded.revision,
      deleted = excluded.deleted, changed_at = excluded.changed_at)
  SELECT set_config('skillport.write_limits', $7, true)`;

/**
 * The checks of a write made again at its commit (see {@link recordChange}): the account's byte
 * quota (bytes, 0 = none) and the write's size, and its skill limit (0 = none; given for a new skill
 * only).
 */
export interface CommitLimits {
  quotaBytes: number;
  size: number;
  maxSkills: number;
}

/**
 * Moves one skill to the end of its account's change feed, at the end of a write or delete: upserts
 * its change row with no position. The position is taken at COMMIT by a deferred trigger (schema
 * version 14, `skill_changes_number`) from the account's feed counter row, which it holds until the
 * commit has ended, so the feed's `seq` order is commit order while the writes of one account queue
 * on that row for their commits only (no round trip to the client while holding it). Taken after all
 * of the write's other locks, by every write and delete (one lock order, no deadlock).
 *
 * With `limits`, the trigger also checks the account's quota and skill limit again under that row
 * (with a fresh snapshot: every write of the account numbered before this one has committed and is
 * seen) and fails the commit with SQLSTATE `SKQ01` / `SKL01` (see {@link commitLimitError}).
 */
async function recordChange(
  client: pg.ClientBase,
  accountId: string,
  rootUri: string,
  name: string,
  revision: string,
  deleted: boolean,
  now: number,
  limits?: CommitLimits,
): Promise<void> {
  const check =
    limits === undefined || (limits.quotaBytes <= 0 && limits.maxSkills <= 0)
      ? ''
      : JSON.stringify({ root: rootUri, name, ...limits });
  await client.query({
    name: 'skillport-record-change',
    text: RECORD_CHANGE,
    values: [accountId, rootUri, name, revision, deleted, now, check],
  });
}

/**
 * The error of a skill write whose commit failed the second quota or skill-limit check (see
 * {@link recordChange}): the same `RESOURCE_EXHAUSTED` errors, with the same details, as the check
 * before writing. Undefined for any other error.
 */
export function commitLimitError(error: unknown, write: SkillWrite): SkillportError | undefined {
  const e = error as { code?: unknown; detail?: unknown } | null;
  if (e?.code !== 'SKQ01' && e?.code !== 'SKL01') return undefined;
  const used = Number(e.detail);
  if (!Number.isFinite(used)) return undefined;
  try {
    if (e.code === 'SKQ01') {
      const size = writeBytes(write);
      checkQuota('account_quota', write.quotaBytes, used, size);
    } else {
      checkSkillCount(write.maxSkills, used);
    }
  } catch (refusal) {
    if (refusal instanceof SkillportError) return refusal;
    throw refusal;
  }
  return undefined;
}

/**
 * The skill a write replaces (`$1` account, `$2` root, `$3` name), locked (`FOR UPDATE`), with the
 * sha-256 of its `$4` (`.overview.md`) file; no row when it does not exist.
 */
const WRITE_LOCK = `SELECT seq, id, revision, overview,
    (SELECT f.sha256 FROM skill_files f WHERE f.skill_seq = skills.seq AND f.path = $4) AS overview_sha256
  FROM skills WHERE account_id = $1 AND root_uri = $2 AND name = $3 FOR UPDATE`;

/**
 * {@link WRITE_LOCK} and the account's totals before the write (`bytes`, `skills`: see
 * {@link ACCOUNT_TOTALS_COLUMNS}, the skill itself left out of the bytes) in one row, always returned
 * (`seq` and the other skill columns null when the skill does not exist).
 */
const WRITE_LOCK_TOTALS = `SELECT w.seq, w.id, w.revision, w.overview, w.overview_sha256, t.*
  FROM (SELECT ${ACCOUNT_TOTALS_COLUMNS}) AS t LEFT JOIN (${WRITE_LOCK}) AS w ON true`;

/**
 * SQL of the `fair_round` of a new pending task of a lane, given the SQL of its account, user and
 * priority (parameters): the round of the first job still waiting (the round being worked through; 0
 * when none waits), or, when later, the round after the lane's last waiting job. So each lane — one
 * user's waiting writes, or the rest of that user's work — has at most one job per round: a backlog
 * of thousands queued by one user takes thousands of rounds, and a job of any other lane runs in the
 * round under way, ahead of the rest of that backlog, while the backlog still gets a job in every
 * round (nothing starves). Two probes of partial indexes of the pending tasks, whatever their number.
 * Two writes of one lane committing at once may take the same round (their snapshots do not see each
 * other): they then run one after the other in enqueue order, nothing else changes.
 */
export function fairRoundOfNewTask(account: string, user: string, priority: string): string {
  return `greatest(
    coalesce((SELECT fair_round FROM tasks
      WHERE status = 'pending' AND fair_round IS NOT NULL ORDER BY fair_round LIMIT 1), 0),
    coalesce((SELECT fair_round + 1 FROM tasks
      WHERE account_id = ${account} AND user_id = ${user} AND priority = ${priority} AND status = 'pending'
        AND fair_round IS NOT NULL ORDER BY fair_round DESC LIMIT 1), 0))`;
}

/**
 * The body of `Store.putSkill` on PostgreSQL, inside one transaction (READ COMMITTED, the skill row
 * locked with `FOR UPDATE`, so `If-Match` is checked against the revision that is replaced): stores
 * the blobs, replaces the skill row (search vector included) and its file rows, records the version
 * in history, and enqueues the processing task (with `write.processed`: writes the overview given and
 * records the task completed). Same checks and errors as SQLite.
 *
 * The account quota and skill limit are checked twice: before writing (no lock: a write already past
 * them is refused before it does anything, as on SQLite) and at the commit, which is the check that
 * holds under concurrency: it runs once the write has taken the account's change-feed counter row (a
 * deferred trigger inside COMMIT; see `recordChange`), which stays locked until the transaction ends,
 * so the writes of one account pass the second check one after another, each seeing the bytes and
 * skills of those committed before it; a write that no longer fits fails its commit (SQLSTATE `SKQ01`
 * / `SKL01`, turned into the usual errors by {@link commitLimitError}) and is rolled back. Only the
 * commits of an account's writes (the counter, that check and the commit itself) are serialised, not
 * the writes (skill row, blobs, search terms, the account's stored bytes: 64 rows, one chosen by the
 * skill), so concurrent adds of one account overlap.
 */
export async function putSkillTx(
  client: pg.ClientBase,
  write: SkillWrite,
  now: number,
  prepared: PreparedWrite,
): Promise<SkillWriteResult> {
  checkFiles(write);
  const quota = write.quotaBytes !== undefined && write.quotaBytes > 0;
  const counted = write.maxSkills !== undefined && write.maxSkills > 0;
  // The skill row (locked) and, under a quota or skill limit, the account's totals before this write,
  // in one statement (one round trip).
  const checked = quota || counted;
  const found = await client.query<ExistingSkill & { bytes: string; skills: string; seq: number | null }>(
    checked
      ? {
          name: 'skillport-write-lock-totals',
          text: WRITE_LOCK_TOTALS,
          values: [write.accountId, write.rootUri, write.name, OVERVIEW_PATH],
        }
      : {
          name: 'skillport-write-lock',
          text: WRITE_LOCK,
          values: [write.accountId, write.rootUri, write.name, OVERVIEW_PATH],
        },
  );
  const first = found.rows[0];
  const existing = first?.seq == null ? undefined : first;
  const resource = skillUri(write.rootUri, write.name);
  if (write.mustExist === true && existing === undefined) {
    throw new SkillportError('NOT_FOUND', `Skill "${write.name}" not found in ${write.rootUri}`, {
      details: { type: 'skill', resource },
    });
  }
  checkIfMatch(write.ifMatch, existing?.revision, write.name, resource);
  const size = writeBytes(write);
  // A new skill under a skill limit: it is not written yet, so `skills` is the count without it.
  const countsNew = counted && existing === undefined;
  if (checked && first !== undefined) {
    if (quota) checkQuota('account_quota', write.quotaBytes, Number(first.bytes), size);
    if (countsNew) checkSkillCount(write.maxSkills, Number(first.skills));
  }
  if (write.tempUploadId !== undefined) {
    // The upload is used up by this write only: a refused add leaves it for a retry, and of two
    // writes from one upload the second finds it gone (the row lock makes them wait for each other).
    const consumed = await client.query('DELETE FROM temp_uploads WHERE id = $1 AND account_id = $2', [
      write.tempUploadId,
      write.accountId,
    ]);
    if (consumed.rowCount === 0) throw tempUploadGone(write.tempUploadId);
  }

  const hashed = write.files.map((file, i) => ({ ...file, sha256: prepared.sha256s[i] as string }));
  const manifest: ManifestFile[] = hashed
    .map((file) => {
      const entry: ManifestFile = {
        path: file.path,
        kind: file.kind,
        size: file.content.byteLength,
        sha256: file.sha256,
      };
      if (file.executable === true) entry.executable = true;
      return entry;
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const revision = computeRevision(manifest);
  // An overview rendered with this write replaces the stored one; else an unchanged revision keeps it.
  const overview = prepared.overview;
  const keepOverview =
    overview === null &&
    existing !== undefined &&
    existing.revision === revision &&
    existing.overview !== null;
  // Writing the files the skill already has is no new version: its history entry stays the live one.
  const sameRevision = existing !== undefined && existing.revision === revision;

  // The vector without an overview is computed before the transaction; an unchanged revision keeps its
  // overview, and then the vector includes it.
  const search =
    keepOverview && existing?.overview != null
      ? await searchVector({ ...write, overview: existing.overview })
      : prepared.searchWithoutOverview;
  const large = new Map<string, Uint8Array>();
  for (const file of hashed) if (file.content.byteLength >= LARGE_BLOB) large.set(file.sha256, file.content);
  if (overview !== null && overview.content.byteLength >= LARGE_BLOB)
    large.set(overview.sha256, overview.content);
  for (const [sha256, content] of [...large].sort(([a], [b]) => (a < b ? -1 : 1))) {
    await copyLargeBlob(client, sha256, content);
  }
  const taskId = randomUUID();
  // Processed while writing: the task is recorded completed with the job's result (unless the job
  // still has work: `result` null).
  const processedTask =
    write.processed === undefined || write.processed.result === null
      ? null
      : JSON.stringify({ revision, ...write.processed.result });
  const params = new Params();
  const account = params.add(write.accountId);
  const at = params.add(now);
  const { sql: blobs, count: blobCount } = blobValues(
    params,
    overview === null ? hashed : [...hashed, overview],
  );
  const columns = {
    description: params.add(write.description),
    tags: params.add(JSON.stringify(write.tags)),
    allowedTools: params.add(JSON.stringify(write.allowedTools)),
    frontmatter: params.add(JSON.stringify(write.frontmatter)),
    body: params.add(write.body),
    source: params.add(write.sourceMetadata === null ? null : JSON.stringify(write.sourceMetadata)),
    revision: params.add(revision),
    search: params.add(search),
  };
  // The file rows: the revision's files, and the overview written with it (not part of the revision).
  const rowsOf: Array<{ path: string; kind: string; size: number; sha256: string; executable?: true }> =
    overview === null
      ? manifest
      : [
          ...manifest,
          {
            path: OVERVIEW_PATH,
            kind: 'summary',
            size: overview.content.byteLength,
            sha256: overview.sha256,
          },
        ];
  const files = {
    paths: params.add(rowsOf.map((f) => f.path)),
    kinds: params.add(rowsOf.map((f) => f.kind)),
    sizes: params.add(rowsOf.map((f) => f.size)),
    shas: params.add(rowsOf.map((f) => f.sha256)),
    executables: params.add(rowsOf.map((f) => f.executable === true)),
    revisionShas: params.add(manifest.map((f) => f.sha256)),
  };
  const overviewText = params.add(overview?.text ?? null);
  const overviewRevision = params.add(overview === null ? null : revision);
  const rootUri = params.add(write.rootUri);
  const name = params.add(write.name);
  const userId = params.add(write.task.userId);
  const priority = params.add(taskPriority(write.task));
  // A parameter, not part of the text: the statement's text stays the same whether or not the write
  // processed its task itself.
  const taskStatus = params.add(processedTask === null ? 'pending' : 'completed');
  // One statement writes everything (fewer round trips); its parts see the same snapshot and the
  // foreign keys are checked at its end, when accounts, blobs and the skill row all exist.
  let skillCte: string;
  let cleanup = '';
  if (existing === undefined) {
    skillCte = `INSERT INTO skills (id, account_id, root_uri, name, description, tags, allowed_tools, frontmatter,
        body, source_metadata, revision, search, overview, overview_revision, created_at, updated_at)
      VALUES (${params.add(randomUUID())}, ${account}, ${rootUri}, ${name}, ${columns.description}, ${columns.tags},
        ${columns.allowedTools}, ${columns.frontmatter}, ${columns.body}, ${columns.source}, ${columns.revision},
        ${columns.search}::tsvector, ${overviewText}::text, ${overviewRevision}::text, ${at}, ${at})
      RETURNING ${SKILL_COLUMNS}`;
  } else {
    const keep = params.add(keepOverview);
    const seq = params.add(existing.seq);
    skillCte = `UPDATE skills SET description = ${columns.description}, tags = ${columns.tags},
        allowed_tools = ${columns.allowedTools}, frontmatter = ${columns.frontmatter}, body = ${columns.body},
        source_metadata = ${columns.source}, revision = ${columns.revision}, search = ${columns.search}::tsvector,
        overview = CASE WHEN ${keep}::boolean THEN overview ELSE ${overviewText}::text END,
        overview_revision = CASE WHEN ${keep}::boolean THEN overview_revision ELSE ${overviewRevision}::text END,
        updated_at = ${at} WHERE seq = ${seq}
      RETURNING ${SKILL_COLUMNS}`;
    cleanup = `,
      gone AS (DELETE FROM skill_files WHERE skill_seq = ${seq} AND NOT (path = ANY(${files.paths}::text[]))
        AND (path <> ${params.add(OVERVIEW_PATH)} OR NOT ${keep}::boolean) RETURNING sha256),
      superseded AS (UPDATE skill_revisions SET superseded_at = ${at}
        WHERE skill_id = ${params.add(existing.id)} AND superseded_at IS NULL AND NOT ${params.add(sameRevision)}::boolean)`;
  }
  const text = `WITH acc AS (INSERT INTO accounts (id, created_at) VALUES (${account}, ${at}) ON CONFLICT (id) DO NOTHING),
      ${blobs === '' ? '' : `blob AS (INSERT INTO blobs (sha256, size, content) VALUES ${blobs} ON CONFLICT (sha256) DO NOTHING),`}
      s AS (${skillCte})${cleanup},
      file AS (INSERT INTO skill_files (skill_seq, path, kind, size, sha256, executable)
        SELECT s.seq, f.path, f.kind, f.size, f.sha256, f.executable FROM s,
          unnest(${files.paths}::text[], ${files.kinds}::text[], ${files.sizes}::bigint[], ${files.shas}::text[],
            ${files.executables}::boolean[])
            AS f(path, kind, size, sha256, executable)
        ON CONFLICT (skill_seq, path) DO UPDATE SET kind = excluded.kind, size = excluded.size, sha256 = excluded.sha256,
          executable = excluded.executable),
      history AS (INSERT INTO skill_revisions (skill_id, account_id, root_uri, name, revision, manifest, created_at,
          created_by, superseded_at)
        SELECT s.id, ${account}::text, ${rootUri}::text, ${name}::text, ${columns.revision}::text,
          ${params.add(JSON.stringify(manifest))}::text, ${at}::bigint, ${userId}::text, NULL FROM s
        WHERE NOT ${params.add(sameRevision)}::boolean
        RETURNING seq),
      refs AS (INSERT INTO skill_revision_blobs (sha256, revision_seq)
        SELECT DISTINCT f.sha256, history.seq FROM history, unnest(${files.revisionShas}::text[]) AS f(sha256)
        ON CONFLICT DO NOTHING),
      task AS (INSERT INTO tasks (id, account_id, user_id, type, status, skill_id, revision, attempts, run_at,
          started_at, result, created_at, updated_at, priority, fair_round)
        SELECT ${params.add(taskId)}::text, ${account}::text, ${userId}::text,
          ${params.add(write.task.type)}::text, ${taskStatus}::text,
          s.id, ${columns.revision}::text, ${params.add(processedTask === null ? 0 : 1)}::integer, ${at}::bigint,
          ${params.add(processedTask === null ? null : now)}::bigint, ${params.add(processedTask)}::text,
          ${at}::bigint, ${at}::bigint, ${priority}::smallint,
          CASE WHEN ${taskStatus}::text = 'pending' THEN ${fairRoundOfNewTask(account, userId, priority)} END FROM s)
    SELECT s.*, ${existing === undefined ? `'{}'::text[]` : '(SELECT coalesce(array_agg(sha256), ARRAY[]::text[]) FROM gone)'} AS dropped,
      (SELECT count(*) FROM skill_revisions r WHERE r.account_id = ${account} AND r.root_uri = ${rootUri}
        AND r.name = ${name}) + ${params.add(sameRevision ? 0 : 1)}::bigint AS revisions
    FROM s`;
  // The text depends only on whether the skill exists and on the number of blobs sent inline, so it is
  // a named statement: each connection parses and analyses it once instead of on every write, and
  // after its first custom plans PostgreSQL keeps the generic one (the same index lookups; planning
  // was ~0.3 ms of backend CPU per add, parsing and analysis about as much again).
  // Schema changes invalidate the kept plan; its result columns are listed, so they never change.
  const { rows } = await client.query<SkillRow & { dropped: string[]; revisions: string }>(
    blobCount <= NAMED_WRITE_BLOBS
      ? {
          name: `skillport-put-${existing === undefined ? 'new' : 'replace'}-${blobCount}`,
          text,
          values: params.values,
        }
      : { text, values: params.values },
  );
  const row = rows[0] as SkillRow & { dropped: string[]; revisions: string };
  // Files of the replaced version stay referenced by its history entry; only a dropped `.overview.md`
  // (never part of a revision) can lose its last reference here.
  const dropped = [...row.dropped];
  // The `.overview.md` row replaced in place by the overview of this write.
  const replaced = existing?.overview_sha256;
  if (overview !== null && replaced != null && replaced !== overview.sha256) dropped.push(replaced);
  if (dropped.length > 0) await deleteOrphanBlobs(client, dropped);
  // The second quota and skill-limit check runs at the commit, under the account's feed counter row
  // (see `recordChange`), with the same figures as before writing: its own files left out of the
  // bytes, itself (a new skill) out of the count.
  await recordChange(client, write.accountId, write.rootUri, write.name, revision, false, now, {
    quotaBytes: quota ? (write.quotaBytes as number) : 0,
    size,
    maxSkills: countsNew ? (write.maxSkills as number) : 0,
  });
  // The statement's snapshot does not see its own history row: `revisions` counts it (+ 1, unless the
  // revision is unchanged and no row was written).
  return {
    skill: toSkillRecord(row),
    taskId,
    created: existing === undefined,
    revisions: Number(row.revisions),
  };
}

/**
 * Locks a skill for its delete (`$1` account, `$2` root, `$3` name) and returns its `seq`, `id` and
 * `revision` (no row when it does not exist): the skill row, then the rows of its shard (`seq % 64`)
 * an add or update takes first, in their order: the root's count row (`skill_root_counts`), then the
 * search generation row (`skill_search_generation`). Every write of the shard takes the generation row
 * before the search-term counts and the account's stored-bytes row (`account_usage`), and an add the
 * count row before both; a delete takes the stored-bytes row first of the three when it deletes the
 * file rows (their trigger), before the skill row's triggers take the others. Without these locks
 * taken first, a delete and an add or update of one account and shard could each hold a row the
 * other waits for (a deadlock, broken by PostgreSQL after `deadlock_timeout`).
 *
 * Order within the statement: the main query reads `s` (locking the skill row), then the select
 * list's sub-select reads `generation`, whose condition first counts `counts` (locking the count row)
 * before its own row is locked.
 */
const lockForDeleteSql = `WITH s AS (
    SELECT seq, id, revision FROM skills WHERE account_id = $1 AND root_uri = $2 AND name = $3 FOR UPDATE),
  counts AS (
    SELECT 1 FROM skill_root_counts c, s
    WHERE c.account_id = $1 AND c.root_uri = $2 AND c.shard = s.seq % 64 FOR NO KEY UPDATE OF c),
  generation AS (
    SELECT 1 FROM skill_search_generation g, s
    WHERE g.shard = s.seq % 64 AND (SELECT count(*) FROM counts) >= 0 FOR NO KEY UPDATE OF g)
  SELECT s.seq, s.id, s.revision, (SELECT count(*) FROM generation) AS locked FROM s`;

/**
 * The body of `Store.deleteSkill` on PostgreSQL (one transaction, the row locked): removes the skill
 * and its file rows; history is kept (the live version marked superseded) until retention deletes it,
 * the change feed records the deletion, and file contents nothing references any more are freed.
 *
 * @returns the number of files removed, or null when the skill does not exist
 * @throws SkillportError `CONFLICT` (412) when `ifMatch` does not list the current revision
 */
export async function deleteSkillTx(
  client: pg.ClientBase,
  accountId: string,
  rootUri: string,
  name: string,
  now: number,
  ifMatch?: readonly string[],
): Promise<number | null> {
  // The skill row, then its shard's root count and search generation rows, in one statement (see
  // `lockForDeleteSql`), before the file rows' deletion takes the account's stored-bytes row.
  const found = await client.query<{ seq: number; id: string; revision: string }>({
    name: 'skillport-delete-lock',
    text: lockForDeleteSql,
    values: [accountId, rootUri, name],
  });
  const existing = found.rows[0];
  if (existing === undefined) return null;
  checkIfMatch(ifMatch, existing.revision, name, skillUri(rootUri, name));
  const { rows } = await client.query<{ sha256: string }>({
    name: 'skillport-delete-files',
    text: `WITH superseded AS (UPDATE skill_revisions SET superseded_at = $1 WHERE skill_id = $2 AND superseded_at IS NULL),
       files AS (DELETE FROM skill_files WHERE skill_seq = $3 RETURNING sha256)
     SELECT sha256 FROM files`,
    values: [now, existing.id, existing.seq],
  });
  await client.query({
    name: 'skillport-delete-skill',
    text: 'DELETE FROM skills WHERE seq = $1',
    values: [existing.seq],
  });
  await deleteOrphanBlobs(
    client,
    rows.map((r) => r.sha256),
  );
  await recordChange(client, accountId, rootUri, name, existing.revision, true, now);
  return rows.length;
}
