import { randomUUID } from 'node:crypto';
import { SkillportError } from '@skillport/core/base';
import { indexedSearchDocument } from '../../search/cjk-segment.js';
import { computeRevision, sha256Hex } from '../revision.js';
import { skillUri } from '../skill-uri.js';
import {
  OVERVIEW_PATH,
  type SkillRecord,
  type SkillWrite,
  type SkillWriteResult,
  taskPriority,
} from '../types.js';
import { checkFiles, checkIfMatch, checkQuota, checkSkillCount, writeBytes } from '../write-checks.js';
import { consumeTempUploadTx, skillCount, storedBytes } from './account-ops.js';
import type { Connection } from './connection.js';
import { type ManifestFile, type SkillRow, toSkillRecord } from './rows.js';

const SELECT_SKILL = 'SELECT * FROM skills WHERE account_id = ? AND root_uri = ? AND name = ?';
const encoder = new TextEncoder();

/**
 * Replaces the FTS row of a skill (contentless table: delete by rowid, then insert). CJK runs are
 * segmented into bigrams (`indexedSearchDocument`); the same rows are rebuilt by schema version 3.
 */
export function writeSearchRow(conn: Connection, row: SkillRow): void {
  const doc = indexedSearchDocument(row);
  conn.stmt('DELETE FROM skills_fts WHERE rowid = ?').run(row.seq);
  conn
    .stmt('INSERT INTO skills_fts (rowid, name, tags, description, overview, body) VALUES (?, ?, ?, ?, ?, ?)')
    .run(row.seq, doc.name, doc.tags, doc.description, doc.overview, doc.body);
}

/**
 * Moves the skill to the end of the change feed with its latest state (`skill_changes`: one row per
 * skill; AUTOINCREMENT gives the new row a `seq` above every one ever used, and SQLite's single
 * writer makes that order the commit order).
 */
export function recordChange(
  conn: Connection,
  key: { accountId: string; rootUri: string; name: string },
  revision: string,
  deleted: boolean,
  now: number,
): void {
  conn
    .stmt('DELETE FROM skill_changes WHERE account_id = ? AND root_uri = ? AND name = ?')
    .run(key.accountId, key.rootUri, key.name);
  conn
    .stmt(
      `INSERT INTO skill_changes (account_id, root_uri, name, revision, deleted, changed_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    )
    .run(key.accountId, key.rootUri, key.name, revision, deleted ? 1 : 0, now);
}

/**
 * Deletes those of the given blobs that no live file and no kept revision references any more.
 *
 * @returns how many were deleted and their total size in bytes
 */
export function deleteOrphanBlobs(
  conn: Connection,
  sha256s: readonly string[],
): { blobs: number; bytes: number } {
  let blobs = 0;
  let bytes = 0;
  const remove = conn.stmt(
    `DELETE FROM blobs WHERE sha256 = ?
       AND NOT EXISTS (SELECT 1 FROM skill_files WHERE sha256 = ?)
       AND NOT EXISTS (SELECT 1 FROM skill_revision_blobs WHERE sha256 = ?)
     RETURNING size`,
  );
  for (const sha256 of new Set(sha256s)) {
    const row = remove.get(sha256, sha256, sha256) as { size: number } | undefined;
    if (row !== undefined) {
      blobs++;
      bytes += row.size;
    }
  }
  return { blobs, bytes };
}

/** Stores a blob once (content-addressed); returns its sha-256. */
export function putBlob(conn: Connection, content: Uint8Array): string {
  const sha256 = sha256Hex(content);
  conn
    .stmt('INSERT INTO blobs (sha256, size, content) VALUES (?, ?, ?) ON CONFLICT (sha256) DO NOTHING')
    .run(sha256, content.byteLength, Buffer.from(content.buffer, content.byteOffset, content.byteLength));
  return sha256;
}

/** What {@link putSkillTx} wrote: the skill's row as written (not read back) and the write's outcome. */
export interface PutSkillTxResult {
  row: SkillRow;
  taskId: string;
  created: boolean;
  revisions: number;
}

/** `Store.putSkill`'s result of a write: the record of the row as written. */
export function toWriteResult(written: PutSkillTxResult): SkillWriteResult {
  const { row, taskId, created, revisions } = written;
  return { skill: toSkillRecord(row), taskId, created, revisions };
}

/**
 * The answer of a `putSkill` run in the database thread: only what the calling thread does not hold
 * in the write it sent. The rest of the record is the write's own fields (see
 * {@link writeResultFromReply}), so the stored body, frontmatter and overview are neither parsed
 * back from their JSON nor copied across threads again.
 */
export interface PutSkillReply {
  id: string;
  revision: string;
  /** The overview kept from the previous version (an unchanged revision), when the write gave none. */
  keptOverview?: string;
  createdAt: number;
  updatedAt: number;
  taskId: string;
  created: boolean;
  revisions: number;
}

/** The {@link PutSkillReply} of a write. */
export function toPutSkillReply(written: PutSkillTxResult, write: SkillWrite): PutSkillReply {
  const { row, taskId, created, revisions } = written;
  const reply: PutSkillReply = {
    id: row.id,
    revision: row.revision,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    taskId,
    created,
    revisions,
  };
  if (row.overview !== null && row.overview !== (write.processed?.overview ?? null)) {
    reply.keptOverview = row.overview;
  }
  return reply;
}

/**
 * `Store.putSkill`'s result from the write and its {@link PutSkillReply}: the same record as
 * {@link toWriteResult} gives for the row written. The frontmatter and source metadata are, as
 * stored, JSON copies of the write's, made when first read (callers of a write mostly read only
 * the revision).
 */
export function writeResultFromReply(write: SkillWrite, reply: PutSkillReply): SkillWriteResult {
  let frontmatter: Record<string, unknown> | undefined;
  let sourceMetadata: Record<string, unknown> | null | undefined;
  const skill: SkillRecord = {
    id: reply.id,
    accountId: write.accountId,
    rootUri: write.rootUri,
    name: write.name,
    description: write.description,
    tags: [...write.tags],
    allowedTools: [...write.allowedTools],
    get frontmatter() {
      frontmatter ??= JSON.parse(JSON.stringify(write.frontmatter)) as Record<string, unknown>;
      return frontmatter;
    },
    set frontmatter(value) {
      frontmatter = value;
    },
    body: write.body,
    get sourceMetadata() {
      sourceMetadata ??=
        write.sourceMetadata === null
          ? null
          : (JSON.parse(JSON.stringify(write.sourceMetadata)) as Record<string, unknown>);
      return sourceMetadata;
    },
    set sourceMetadata(value) {
      sourceMetadata = value;
    },
    revision: reply.revision,
    overview: reply.keptOverview ?? write.processed?.overview ?? null,
    createdAt: reply.createdAt,
    updatedAt: reply.updatedAt,
  };
  return { skill, taskId: reply.taskId, created: reply.created, revisions: reply.revisions };
}

/**
 * SQL of the `fair_round` of a new pending task of a lane, given the SQL of its account, user and
 * priority (e.g. numbered parameters):
 * the round of the first job still waiting (the round being worked through; 0 when none waits), or,
 * when later, the round after the lane's last waiting job. So each lane — one user's waiting writes,
 * or the rest of that user's work — has at most one job per round: a backlog of thousands queued by
 * one user takes thousands of rounds, and a job of any other lane runs in the round under way, ahead
 * of the rest of that backlog, while the backlog still gets a job in every round (nothing starves).
 * Two probes of partial indexes of the pending tasks, whatever their number.
 */
export function fairRoundOfNewTask(account: string, user: string, priority: string): string {
  return `max(
    coalesce((SELECT fair_round FROM tasks INDEXED BY tasks_fair_order
      WHERE status = 'pending' AND fair_round IS NOT NULL ORDER BY fair_round LIMIT 1), 0),
    coalesce((SELECT fair_round + 1 FROM tasks INDEXED BY tasks_fair_lane
      WHERE account_id = ${account} AND user_id = ${user} AND priority = ${priority} AND status = 'pending'
        AND fair_round IS NOT NULL ORDER BY fair_round DESC LIMIT 1), 0))`;
}

/**
 * The body of `Store.putSkill`, run inside one IMMEDIATE transaction by the caller: checks, writes the
 * blobs, replaces the skill row and all its file rows, records the version in history (superseding the
 * previous one), indexes name/tags/description/body for search and enqueues the processing task.
 * The overview of the previous version is kept only when the revision did not change. With
 * `write.processed` the overview given is written (search row included) and the task is recorded
 * completed instead (one search-row write, no job run), or left pending when its `result` is null.
 *
 * @param indexLater - when given, the skill's row is handed to it instead of being written to the
 *   search index here: the group commit writes the search rows of its writes after their savepoints
 *   (FTS5 flushes its pending rows into a new index segment at every savepoint it takes part in, so
 *   search rows written inside the savepoints would cost one segment per write instead of one per
 *   group)
 */
export function putSkillTx(
  conn: Connection,
  write: SkillWrite,
  now: number,
  indexLater?: (row: SkillRow) => void,
): PutSkillTxResult {
  checkFiles(write);
  const existing = conn.stmt(SELECT_SKILL).get(write.accountId, write.rootUri, write.name) as
    | SkillRow
    | undefined;
  const resource = skillUri(write.rootUri, write.name);
  if (write.mustExist === true && existing === undefined) {
    throw new SkillportError('NOT_FOUND', `Skill "${write.name}" not found in ${write.rootUri}`, {
      details: { type: 'skill', resource },
    });
  }
  checkIfMatch(write.ifMatch, existing?.revision, write.name, resource);
  if (write.quotaBytes !== undefined && write.quotaBytes > 0) {
    const size = writeBytes(write);
    checkQuota('account_quota', write.quotaBytes, storedBytes(conn, write.accountId, write), size);
  }
  if (existing === undefined && write.maxSkills !== undefined && write.maxSkills > 0) {
    checkSkillCount(write.maxSkills, skillCount(conn, write.accountId));
  }
  if (write.tempUploadId !== undefined) consumeTempUploadTx(conn, write.accountId, write.tempUploadId);

  const manifest: ManifestFile[] = write.files
    .map((file): ManifestFile => {
      const entry: ManifestFile = {
        path: file.path,
        kind: file.kind,
        size: file.content.byteLength,
        sha256: putBlob(conn, file.content),
      };
      if (file.executable === true) entry.executable = true;
      return entry;
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const revision = computeRevision(manifest);
  // An overview rendered with this write replaces the stored one; else an unchanged revision keeps it.
  const overview = write.processed?.overview ?? null;
  const keepOverview =
    overview === null &&
    existing !== undefined &&
    existing.revision === revision &&
    existing.overview !== null;
  // Writing the files the skill already has is no new version: its history entry stays the live one.
  const sameRevision = existing !== undefined && existing.revision === revision;

  conn
    .stmt('INSERT INTO accounts (id, created_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING')
    .run(write.accountId, now);
  const values = [
    write.description,
    JSON.stringify(write.tags),
    JSON.stringify(write.allowedTools),
    JSON.stringify(write.frontmatter),
    write.body,
    write.sourceMetadata === null ? null : JSON.stringify(write.sourceMetadata),
    revision,
  ];
  let seq: number;
  let id: string;
  let dropped: Array<{ sha256: string }> = [];
  if (existing === undefined) {
    id = randomUUID();
    const info = conn
      .stmt(
        `INSERT INTO skills (id, account_id, root_uri, name, description, tags, allowed_tools, frontmatter, body,
           source_metadata, revision, overview, overview_revision, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        write.accountId,
        write.rootUri,
        write.name,
        ...values,
        overview,
        overview === null ? null : revision,
        now,
        now,
      );
    seq = Number(info.lastInsertRowid);
  } else {
    id = existing.id;
    seq = existing.seq;
    conn
      .stmt(
        `UPDATE skills SET description = ?, tags = ?, allowed_tools = ?, frontmatter = ?, body = ?,
           source_metadata = ?, revision = ?,
           overview = CASE WHEN ? THEN overview ELSE ? END,
           overview_revision = CASE WHEN ? THEN overview_revision ELSE ? END,
           updated_at = ? WHERE seq = ?`,
      )
      .run(
        ...values,
        keepOverview ? 1 : 0,
        overview,
        keepOverview ? 1 : 0,
        overview === null ? null : revision,
        now,
        seq,
      );
    dropped = conn
      .stmt('DELETE FROM skill_files WHERE skill_seq = ? AND (path <> ? OR ? = 0) RETURNING sha256')
      .all(seq, OVERVIEW_PATH, keepOverview ? 1 : 0) as Array<{ sha256: string }>;
    if (!sameRevision) {
      conn
        .stmt('UPDATE skill_revisions SET superseded_at = ? WHERE skill_id = ? AND superseded_at IS NULL')
        .run(now, id);
    }
  }
  const insertFile = conn.stmt(
    'INSERT INTO skill_files (skill_seq, path, kind, size, sha256, executable) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const file of manifest) {
    insertFile.run(seq, file.path, file.kind, file.size, file.sha256, file.executable === true ? 1 : 0);
  }
  if (overview !== null) {
    const content = encoder.encode(overview);
    insertFile.run(seq, OVERVIEW_PATH, 'summary', content.byteLength, putBlob(conn, content), 0);
  }
  if (!sameRevision) {
    const revisionInfo = conn
      .stmt(
        `INSERT INTO skill_revisions (skill_id, account_id, root_uri, name, revision, manifest, created_at,
           created_by, superseded_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
      )
      .run(
        id,
        write.accountId,
        write.rootUri,
        write.name,
        revision,
        JSON.stringify(manifest),
        now,
        write.task.userId,
      );
    const insertRef = conn.stmt(
      'INSERT OR IGNORE INTO skill_revision_blobs (sha256, revision_seq) VALUES (?, ?)',
    );
    for (const file of manifest) insertRef.run(file.sha256, revisionInfo.lastInsertRowid);
  }
  // Files of the replaced version stay referenced by its history entry; only a dropped `.overview.md`
  // (never part of a revision) can lose its last reference here.
  deleteOrphanBlobs(
    conn,
    dropped.map((d) => d.sha256),
  );
  recordChange(conn, write, revision, false, now);

  // The row as just written (not read back): the values bound above, the kept overview of `existing`.
  const kept = keepOverview ? existing : undefined;
  const row: SkillRow = {
    seq,
    id,
    account_id: write.accountId,
    root_uri: write.rootUri,
    name: write.name,
    description: values[0] as string,
    tags: values[1] as string,
    allowed_tools: values[2] as string,
    frontmatter: values[3] as string,
    body: values[4] as string,
    source_metadata: values[5] as string | null,
    revision,
    overview: kept !== undefined ? kept.overview : overview,
    overview_revision: kept !== undefined ? kept.overview_revision : overview === null ? null : revision,
    created_at: existing?.created_at ?? now,
    updated_at: now,
  };
  if (indexLater === undefined) writeSearchRow(conn, row);
  else indexLater(row);

  const taskId = randomUUID();
  const { processed } = write;
  if (processed === undefined || processed.result === null) {
    // In its lane's place of the fair order (see `fairRoundOfNewTask`).
    conn
      .stmt(
        `INSERT INTO tasks (id, account_id, user_id, type, status, skill_id, revision, attempts, run_at, created_at,
           updated_at, priority, fair_round)
         VALUES (@id, @account, @user, @type, 'pending', @skill, @revision, 0, @now, @now, @now, @priority,
           ${fairRoundOfNewTask('@account', '@user', '@priority')})`,
      )
      .run({
        id: taskId,
        account: write.accountId,
        user: write.task.userId,
        type: write.task.type,
        skill: id,
        revision,
        now,
        priority: taskPriority(write.task),
      });
  } else {
    conn
      .stmt(
        `INSERT INTO tasks (id, account_id, user_id, type, status, skill_id, revision, attempts, run_at, started_at,
           result, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'completed', ?, ?, 1, ?, ?, ?, ?, ?)`,
      )
      .run(
        taskId,
        write.accountId,
        write.task.userId,
        write.task.type,
        id,
        revision,
        now,
        now,
        JSON.stringify({ revision, ...processed.result }),
        now,
        now,
      );
  }

  const { revisions } = conn
    .stmt(
      'SELECT count(*) AS revisions FROM skill_revisions WHERE account_id = ? AND root_uri = ? AND name = ?',
    )
    .get(write.accountId, write.rootUri, write.name) as { revisions: number };
  return { row, taskId, created: existing === undefined, revisions };
}

/**
 * The body of `Store.deleteSkill` (inside one transaction): removes the skill, its file rows and its
 * search row, and records the deletion in the change feed; history is kept (the live version is
 * marked superseded) until retention deletes it. Pending tasks of the skill complete as no-ops later.
 *
 * @returns the number of files removed, or null when the skill does not exist
 * @throws SkillportError `CONFLICT` (412) when `ifMatch` does not list the current revision
 */
export function deleteSkillTx(
  conn: Connection,
  accountId: string,
  rootUri: string,
  name: string,
  now: number,
  ifMatch?: readonly string[],
): number | null {
  const existing = conn.stmt(SELECT_SKILL).get(accountId, rootUri, name) as SkillRow | undefined;
  if (existing === undefined) return null;
  checkIfMatch(ifMatch, existing.revision, name, skillUri(rootUri, name));
  const { count } = conn
    .stmt('SELECT count(*) AS count FROM skill_files WHERE skill_seq = ?')
    .get(existing.seq) as {
    count: number;
  };
  conn
    .stmt('UPDATE skill_revisions SET superseded_at = ? WHERE skill_id = ? AND superseded_at IS NULL')
    .run(now, existing.id);
  const dropped = conn.stmt('SELECT sha256 FROM skill_files WHERE skill_seq = ?').all(existing.seq) as Array<{
    sha256: string;
  }>;
  conn.stmt('DELETE FROM skills_fts WHERE rowid = ?').run(existing.seq);
  conn.stmt('DELETE FROM skills WHERE seq = ?').run(existing.seq);
  deleteOrphanBlobs(
    conn,
    dropped.map((d) => d.sha256),
  );
  recordChange(conn, { accountId, rootUri, name }, existing.revision, true, now);
  return count;
}
