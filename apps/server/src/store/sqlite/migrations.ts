import type Database from 'better-sqlite3';
import { rebuildSearchIndex } from '../../search/rebuild-index.js';
import { rebuildChangeFeed } from './history-ops.js';

/** One schema step. Steps are applied in order, each in its own transaction, and never edited once shipped. */
interface Migration {
  version: number;
  name: string;
  sql: string;
  /** Work SQL alone cannot do (e.g. re-indexing text segmented in JavaScript), run after `sql`. */
  run?: (db: Database.Database) => void;
}

/**
 * Tables whose writes move `change_counter` (schema version 16): all of them but the derived
 * counters kept by triggers in the same statement as their source (`skill_counts`, `account_usage`)
 * and the search index's upkeep (`search_term_lists`, `search_term_deltas` (version 17),
 * `search_term_build`; FTS5's own tables cannot
 * carry triggers, and its rows change with the `skills` row they index). A table added later gets
 * the same triggers in its own migration (a test checks that every table is counted or exempt).
 */
const COUNTED_TABLES_V16 = [
  'accounts',
  'users',
  'api_keys',
  'blobs',
  'skills',
  'skill_files',
  'skill_revisions',
  'skill_revision_blobs',
  'skill_changes',
  'skill_vectors',
  'temp_uploads',
  'tasks',
  'idempotency_keys',
] as const;

/** The three triggers by which writes to `table` move `change_counter`. */
function changeCounterTriggers(table: string): string {
  return ['INSERT', 'UPDATE', 'DELETE']
    .map(
      (
        event,
      ) => `CREATE TRIGGER IF NOT EXISTS ${table}_counted_${event.toLowerCase()} AFTER ${event} ON ${table} BEGIN
  UPDATE change_counter SET n = n + 1 WHERE id = 1;
END;
`,
    )
    .join('');
}

/** Segments of one level of the search index that FTS5 merges during writes (schema version 18). */
export const SEARCH_INDEX_AUTOMERGE = 32;
/** Segments of one level at which FTS5 merges the level at once, within the commit (version 18). */
export const SEARCH_INDEX_CRISISMERGE = 64;

/**
 * The schema, versioned in code. `PRAGMA user_version` records the last applied step.
 *
 * Notes on the design:
 * - `skills.seq` is the integer rowid shared with the FTS table; `skills.id` is the public id. The
 *   large columns (`frontmatter`, `overview`, `body`) come last, so reading the small ones (lists,
 *   search candidates) never walks a body's overflow pages.
 * - File contents live once in `blobs` (content-addressed by sha-256); `skill_files` holds the live
 *   manifest and `skill_revisions` every kept version's manifest (`skill_revision_blobs` indexes the
 *   blobs each references, version 7), so history keeps old contents without copying them. A blob is
 *   deleted in the transaction that drops its last reference (retention, see `store/retention.ts`).
 * - `skills_fts` is contentless (`content=''`, `contentless_delete=1`): it stores only the index, the
 *   text stays in `skills`. Tokens are Porter-stemmed
 *   Unicode words with diacritics folded; version 20 dropped the index of 3-character prefixes (a
 *   prefix query reads the terms it covers).
 *   Full detail (positions) is kept: FTS5's `bm25()` needs instance counts, which `detail = column`
 *   does not provide (every score would be 0).
 * - `skill_counts` holds the number of skills per (account, root), kept by triggers on `skills`
 *   (version 2), so a listing's `total` is one lookup instead of a count over the root.
 * - Runs of Chinese, Japanese and Korean letters are indexed as overlapping bigrams (see
 *   `search/cjk-segment.ts`); version 3 rebuilds the index of skills stored before that.
 * - Tasks have no foreign key to skills: a task of a deleted skill completes as a no-op.
 * - `skills_fts_vocab` (version 6) lists the index's terms (stems) and their document counts, for
 *   typo tolerance.
 * - `skill_vectors` (version 5) holds one embedding per skill: the vector of `revision` computed by
 *   `model` (float32 little-endian). Triggers on `skills` clear the vector (`vector = NULL`) when the
 *   skill gets a new revision or is deleted, and every change takes the next `change` number, so a
 *   process keeping the vectors in memory catches up by reading `change > last seen`.
 * - `account_usage` (version 10) holds each account's stored bytes (its live skill files,
 *   `.overview.md` not counted), kept by triggers on `skill_files`, so the quota check of a write is
 *   a lookup instead of a sum over the account's files.
 * - `skills_listing` (version 11) covers the listing by name: a page reads only that index.
 * - `search_term_lists` (version 15) holds each index term's skills and weighted instance counts in
 *   parts of 1,024 seqs, each exact up to an FTS5 row origin; `search_term_build` records the
 *   origin every live row is listed up to and the running upkeep pass (`search/term-lists.ts`).
 * - `search_term_deltas` (version 17) holds the entries of rows listed by short upkeep passes, one
 *   segment per pass keyed by the pass's origin, until a merge pass folds them into the parts;
 *   `search_term_build.merged` is the origin up to which the parts alone are complete.
 * - `skill_files.executable` (version 14): 1 for an executable file, 0 otherwise.
 * - `change_counter` (version 16): one row, `epoch.n` is the store's change token; triggers on every
 *   table an answer reads add 1 to `n` per row written, so search-index upkeep, which writes only
 *   the per-term lists and FTS5's segments, leaves the token (and every answer kept under it) alone.
 * - The search index's merge settings (version 18, in FTS5's `skills_fts_config`): during writes
 *   FTS5 merges {@link SEARCH_INDEX_AUTOMERGE} segments of a level at a time, and forces a level's
 *   merge at {@link SEARCH_INDEX_CRISISMERGE}; the idle merge merges everything into one segment.
 * - Fair order of jobs (version 19): `tasks.priority` (0: the write waits for its job, 1: any other)
 *   and `tasks.fair_round` (the round of the round robin over owners in which a new job runs; NULL
 *   for retries and released jobs, which run by `run_at` first), see `store/sqlite/task-ops.ts`.
 */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  created_at INTEGER NOT NULL
);
CREATE TABLE users (
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, id)
);
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('root', 'admin', 'user')),
  hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE TABLE blobs (
  seq INTEGER PRIMARY KEY,
  sha256 TEXT NOT NULL UNIQUE,
  size INTEGER NOT NULL,
  content BLOB NOT NULL
);
CREATE TABLE skills (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  root_uri TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  tags TEXT NOT NULL,
  allowed_tools TEXT NOT NULL,
  source_metadata TEXT,
  revision TEXT NOT NULL,
  overview_revision TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  frontmatter TEXT NOT NULL,
  overview TEXT,
  body TEXT NOT NULL,
  UNIQUE (account_id, root_uri, name)
);
CREATE INDEX skills_by_lower_name ON skills (account_id, lower(name));
CREATE TABLE skill_files (
  skill_seq INTEGER NOT NULL REFERENCES skills(seq) ON DELETE CASCADE,
  path TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('definition', 'summary', 'auxiliary')),
  size INTEGER NOT NULL,
  sha256 TEXT NOT NULL REFERENCES blobs(sha256),
  PRIMARY KEY (skill_seq, path)
) WITHOUT ROWID;
CREATE TABLE skill_revisions (
  seq INTEGER PRIMARY KEY,
  skill_id TEXT NOT NULL,
  account_id TEXT NOT NULL,
  root_uri TEXT NOT NULL,
  name TEXT NOT NULL,
  revision TEXT NOT NULL,
  manifest TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  superseded_at INTEGER
);
CREATE INDEX skill_revisions_by_name ON skill_revisions (account_id, root_uri, name, seq);
CREATE INDEX skill_revisions_live ON skill_revisions (skill_id) WHERE superseded_at IS NULL;
CREATE TABLE temp_uploads (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  filename TEXT NOT NULL,
  content BLOB NOT NULL,
  expires_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX temp_uploads_by_expiry ON temp_uploads (expires_at);
CREATE TABLE tasks (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('add_skill', 'update_skill')),
  status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed')),
  skill_id TEXT NOT NULL,
  revision TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  run_at INTEGER NOT NULL,
  started_at INTEGER,
  result TEXT,
  error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX tasks_runnable ON tasks (status, run_at, seq);
CREATE INDEX tasks_by_owner ON tasks (account_id, user_id, status);
CREATE VIRTUAL TABLE skills_fts USING fts5 (
  name, tags, description, overview, body,
  content = '', contentless_delete = 1, prefix = '3',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
`,
  },
  {
    version: 2,
    name: 'skill counts per root',
    // `list` reports each root's total; counting a root's index entries costs ~0.3 ms per 10 000
    // skills on every request. The counts are kept by triggers in the same transaction as the row.
    sql: `
CREATE TABLE skill_counts (
  account_id TEXT NOT NULL,
  root_uri TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (account_id, root_uri)
) WITHOUT ROWID;
INSERT INTO skill_counts (account_id, root_uri, n)
  SELECT account_id, root_uri, count(*) FROM skills GROUP BY account_id, root_uri;
CREATE TRIGGER skills_count_insert AFTER INSERT ON skills BEGIN
  INSERT INTO skill_counts (account_id, root_uri, n) VALUES (new.account_id, new.root_uri, 1)
    ON CONFLICT (account_id, root_uri) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER skills_count_delete AFTER DELETE ON skills BEGIN
  UPDATE skill_counts SET n = n - 1 WHERE account_id = old.account_id AND root_uri = old.root_uri;
END;
CREATE TRIGGER skills_count_move AFTER UPDATE OF account_id, root_uri ON skills BEGIN
  UPDATE skill_counts SET n = n - 1 WHERE account_id = old.account_id AND root_uri = old.root_uri;
  INSERT INTO skill_counts (account_id, root_uri, n) VALUES (new.account_id, new.root_uri, 1)
    ON CONFLICT (account_id, root_uri) DO UPDATE SET n = n + 1;
END;
`,
  },
  {
    version: 3,
    name: 'CJK bigrams in the search index',
    // `unicode61` keeps an unbroken run of CJK letters as one token, so `小红书` never matched
    // `检查小红书登录状态`. Writes now segment such runs; skills indexed before are indexed again.
    sql: '',
    run: (db) => {
      rebuildSearchIndex(db);
    },
  },
  {
    version: 4,
    name: 'job leases',
    // Jobs are claimed with an expiring lease so several processes (replicas) can share one queue: a
    // task whose holder died is taken over when its lease runs out, and only the current holder (by
    // token) may finish it. Tasks left `running` by an older build get an expired lease (taken over
    // at once, as that build requeued them at start-up).
    sql: `
ALTER TABLE tasks ADD COLUMN lease_owner TEXT;
ALTER TABLE tasks ADD COLUMN lease_token TEXT;
ALTER TABLE tasks ADD COLUMN lease_expires_at INTEGER;
UPDATE tasks SET lease_expires_at = 0 WHERE status = 'running';
CREATE INDEX tasks_lease_expiry ON tasks (status, lease_expires_at);
`,
  },
  {
    version: 5,
    name: 'skill embeddings',
    sql: `
CREATE TABLE IF NOT EXISTS skill_vectors (
  skill_seq INTEGER PRIMARY KEY,
  revision TEXT NOT NULL,
  model TEXT NOT NULL,
  vector BLOB,
  change INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS skill_vectors_by_change ON skill_vectors (change);
CREATE TRIGGER IF NOT EXISTS skill_vectors_stale AFTER UPDATE OF revision ON skills
  WHEN old.revision <> new.revision BEGIN
  UPDATE skill_vectors SET vector = NULL,
    change = (SELECT coalesce(max(change), 0) + 1 FROM skill_vectors)
    WHERE skill_seq = new.seq AND vector IS NOT NULL;
END;
CREATE TRIGGER IF NOT EXISTS skill_vectors_gone AFTER DELETE ON skills BEGIN
  UPDATE skill_vectors SET vector = NULL,
    change = (SELECT coalesce(max(change), 0) + 1 FROM skill_vectors)
    WHERE skill_seq = old.seq AND vector IS NOT NULL;
END;
`,
  },
  {
    version: 6,
    name: 'search vocabulary',
    // The terms of the search index with the number of skills holding each, read by typo tolerance
    // (`search/typo.ts`): a query word no skill contains is compared with the terms of its first letter.
    sql: `CREATE VIRTUAL TABLE IF NOT EXISTS skills_fts_vocab USING fts5vocab(skills_fts, 'row');`,
  },
  {
    version: 7,
    name: 'revision authors, blob references, change feed',
    // - `skill_revisions.created_by`: the user whose write made the revision (null before version 7).
    // - `skill_revision_blobs`: which blobs each kept revision references, so retention can free a
    //   blob as soon as no revision and no live file references it (the manifest JSON alone cannot be
    //   indexed). Filled from the manifests here.
    // - `skill_changes`: one row per (account, root, name) holding its latest change — written or
    //   deleted — under an ever-increasing `seq` (AUTOINCREMENT: never reused), the order of the
    //   `updated_since` change feed. Filled from the current skills and deleted skills' history.
    // - Blobs that nothing references any more (`.overview.md` contents of earlier versions) are
    //   deleted once here; from now on every write frees them as it drops them.
    sql: `
ALTER TABLE skill_revisions ADD COLUMN created_by TEXT;
CREATE TABLE skill_revision_blobs (
  sha256 TEXT NOT NULL,
  revision_seq INTEGER NOT NULL REFERENCES skill_revisions(seq) ON DELETE CASCADE,
  PRIMARY KEY (sha256, revision_seq)
) WITHOUT ROWID;
CREATE INDEX skill_revision_blobs_by_revision ON skill_revision_blobs (revision_seq);
INSERT OR IGNORE INTO skill_revision_blobs (sha256, revision_seq)
  SELECT json_extract(m.value, '$.sha256'), r.seq FROM skill_revisions r, json_each(r.manifest) m;
CREATE INDEX skill_files_by_sha256 ON skill_files (sha256);
CREATE INDEX skill_revisions_superseded ON skill_revisions (superseded_at) WHERE superseded_at IS NOT NULL;
CREATE TABLE skill_changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL,
  root_uri TEXT NOT NULL,
  name TEXT NOT NULL,
  revision TEXT NOT NULL,
  deleted INTEGER NOT NULL CHECK (deleted IN (0, 1)),
  changed_at INTEGER NOT NULL,
  UNIQUE (account_id, root_uri, name)
);
CREATE INDEX skill_changes_by_account ON skill_changes (account_id, seq);
DELETE FROM blobs WHERE NOT EXISTS (SELECT 1 FROM skill_files f WHERE f.sha256 = blobs.sha256)
  AND NOT EXISTS (SELECT 1 FROM skill_revision_blobs rb WHERE rb.sha256 = blobs.sha256);
`,
    run: (db) => {
      rebuildChangeFeed(db);
    },
  },
  {
    version: 8,
    name: 'cancelled tasks',
    // `POST /api/v1/tasks/{id}/cancel` leaves a pending task `cancelled`. SQLite cannot change a CHECK
    // constraint in place, so the table is rebuilt with the same rows, columns and indexes.
    sql: `
CREATE TABLE tasks_v8 (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('add_skill', 'update_skill')),
  status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed', 'cancelled')),
  skill_id TEXT NOT NULL,
  revision TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  run_at INTEGER NOT NULL,
  started_at INTEGER,
  result TEXT,
  error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  lease_owner TEXT,
  lease_token TEXT,
  lease_expires_at INTEGER
);
INSERT INTO tasks_v8 (seq, id, account_id, user_id, type, status, skill_id, revision, attempts, run_at,
  started_at, result, error, created_at, updated_at, lease_owner, lease_token, lease_expires_at)
  SELECT seq, id, account_id, user_id, type, status, skill_id, revision, attempts, run_at,
    started_at, result, error, created_at, updated_at, lease_owner, lease_token, lease_expires_at FROM tasks;
DROP TABLE tasks;
ALTER TABLE tasks_v8 RENAME TO tasks;
CREATE INDEX tasks_runnable ON tasks (status, run_at, seq);
CREATE INDEX tasks_by_owner ON tasks (account_id, user_id, status);
CREATE INDEX tasks_lease_expiry ON tasks (status, lease_expires_at);
CREATE INDEX tasks_by_owner_created ON tasks (account_id, user_id, created_at);
`,
  },
  {
    version: 9,
    name: 'idempotency keys',
    // The response of a POST/PUT sent with `Idempotency-Key`, replayed to a retry (kept 24 h).
    sql: `
CREATE TABLE IF NOT EXISTS idempotency_keys (
  account_id TEXT NOT NULL,
  idem_key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  response TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, idem_key)
);
CREATE INDEX IF NOT EXISTS idempotency_keys_by_age ON idempotency_keys (created_at);
`,
  },
  {
    version: 10,
    name: 'stored bytes per account',
    // The account quota compares the bytes of an account's live skill files (`.overview.md` not
    // counted) with its limit on every write; summing them over the account's files cost ~1 ms per
    // 2 000 skills per write. `account_usage` keeps that sum, updated by triggers on `skill_files` in
    // the transaction that changes the files. A skill's files are deleted before the skill row (not
    // by the cascade after it), so the delete triggers still find the skill's account.
    sql: `
CREATE TABLE IF NOT EXISTS account_usage (
  account_id TEXT PRIMARY KEY,
  stored_bytes INTEGER NOT NULL
) WITHOUT ROWID;
DELETE FROM account_usage;
INSERT INTO account_usage (account_id, stored_bytes)
  SELECT s.account_id, SUM(f.size) FROM skills s JOIN skill_files f ON f.skill_seq = s.seq
  WHERE f.path <> '.overview.md' GROUP BY s.account_id;
DROP TRIGGER IF EXISTS skill_files_usage_insert;
CREATE TRIGGER skill_files_usage_insert AFTER INSERT ON skill_files WHEN new.path <> '.overview.md' BEGIN
  INSERT INTO account_usage (account_id, stored_bytes)
    SELECT account_id, new.size FROM skills WHERE seq = new.skill_seq
    ON CONFLICT (account_id) DO UPDATE SET stored_bytes = stored_bytes + excluded.stored_bytes;
END;
DROP TRIGGER IF EXISTS skill_files_usage_delete;
CREATE TRIGGER skill_files_usage_delete AFTER DELETE ON skill_files WHEN old.path <> '.overview.md' BEGIN
  UPDATE account_usage SET stored_bytes = stored_bytes - old.size
    WHERE account_id = (SELECT account_id FROM skills WHERE seq = old.skill_seq);
END;
DROP TRIGGER IF EXISTS skill_files_usage_update;
CREATE TRIGGER skill_files_usage_update AFTER UPDATE OF skill_seq, path, size ON skill_files BEGIN
  UPDATE account_usage SET stored_bytes = stored_bytes - old.size
    WHERE old.path <> '.overview.md' AND account_id = (SELECT account_id FROM skills WHERE seq = old.skill_seq);
  INSERT INTO account_usage (account_id, stored_bytes)
    SELECT account_id, new.size FROM skills WHERE seq = new.skill_seq AND new.path <> '.overview.md'
    ON CONFLICT (account_id) DO UPDATE SET stored_bytes = stored_bytes + excluded.stored_bytes;
END;
DROP TRIGGER IF EXISTS skills_usage_files_first;
CREATE TRIGGER skills_usage_files_first BEFORE DELETE ON skills BEGIN
  DELETE FROM skill_files WHERE skill_seq = old.seq;
END;
DROP TRIGGER IF EXISTS skills_usage_move;
CREATE TRIGGER skills_usage_move AFTER UPDATE OF account_id ON skills WHEN old.account_id <> new.account_id BEGIN
  UPDATE account_usage SET stored_bytes = stored_bytes -
      (SELECT COALESCE(SUM(size), 0) FROM skill_files WHERE skill_seq = new.seq AND path <> '.overview.md')
    WHERE account_id = old.account_id;
  INSERT INTO account_usage (account_id, stored_bytes)
    SELECT new.account_id, COALESCE(SUM(size), 0) FROM skill_files WHERE skill_seq = new.seq AND path <> '.overview.md'
    ON CONFLICT (account_id) DO UPDATE SET stored_bytes = stored_bytes + excluded.stored_bytes;
END;
`,
  },
  {
    version: 11,
    name: 'covering index of the listing',
    // A skill row is ~10 KB (body, overview), so most rows overflow their page and SQLite keeps as
    // little as ~500 bytes of the row in the table page: a page of the listing by name walked the
    // overflow chains of 51 rows (~1.2 ms at 2 000 skills). This index holds every column a listing
    // row shows, so a page is one range scan of it and never touches the table.
    sql: `
CREATE INDEX IF NOT EXISTS skills_listing
  ON skills (account_id, root_uri, name, description, tags, allowed_tools, revision, id, created_at, updated_at);
`,
  },
  {
    version: 12,
    name: 'deletions of an account, newest first',
    // An account keeps the history of its most recently deleted skills only
    // (`SKILLPORT_KEEP_DELETED_MAX`): each delete looks up the deletions just past that many, newest
    // first, in this index instead of walking every change of the account.
    sql: `
CREATE INDEX IF NOT EXISTS skill_changes_deleted ON skill_changes (account_id, seq) WHERE deleted = 1;
`,
  },
  // Version 13 is never used again: main carried the per-term match lists of the search index as 13
  // for a while (0550161, reverted), so a database may record 13 with their tables and without any
  // later step. A new step takes the number after the last one here (steps at or below a database's
  // recorded version are skipped, so none may be added below it). The lists are version 15, which
  // replaces tables of the layout a database at 13 may hold.
  {
    version: 14,
    name: 'executable files',
    // Whether a live file is executable (its owner's execute bit, as a zip from a Unix host recorded
    // it; git keeps the same one bit). Files stored before it are not executable. Adding a column with
    // a constant default rewrites no row. Revision manifests (`skill_revisions.manifest`, JSON) carry
    // `"executable": true` on such files; older manifests have none. Safe to run again (a database
    // whose recorded version was set back keeps its column).
    sql: '',
    run(db) {
      const columns = db.prepare('PRAGMA table_info(skill_files)').all() as Array<{ name: string }>;
      if (columns.some((c) => c.name === 'executable')) return;
      db.exec(
        'ALTER TABLE skill_files ADD COLUMN executable INTEGER NOT NULL DEFAULT 0 CHECK (executable IN (0, 1))',
      );
    },
  },
  {
    version: 15,
    name: 'per-term match lists of the search index',
    // A cold query phrase was scored by FTS5's bm25() (~0.5-1 µs a match); with each term's skills
    // and weighted instance counts stored in parts of 1,024 seqs, it is scored exactly in
    // JavaScript from them (see search/term-lists.ts). The table starts empty and is filled in
    // bounded background steps; until the first pass completes, queries are ranked as before.
    // Tables of the layout a database at version 13 may hold (see above) are replaced; safe to run
    // again.
    sql: '',
    run(db) {
      const columnsOf = (table: string) =>
        (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name);
      const lists = columnsOf('search_term_lists');
      const build = columnsOf('search_term_build');
      if (
        (lists.length > 0 && !lists.includes('chunk')) ||
        (build.length > 0 && !build.includes('next_seq'))
      ) {
        db.exec('DROP TABLE IF EXISTS search_term_lists; DROP TABLE IF EXISTS search_term_build;');
      }
      db.exec(`
CREATE TABLE IF NOT EXISTS search_term_lists (
  term TEXT NOT NULL,
  chunk INTEGER NOT NULL,
  origin INTEGER NOT NULL,
  seqs BLOB NOT NULL,
  freqs BLOB NOT NULL,
  PRIMARY KEY (term, chunk)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS search_term_build (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  covered INTEGER,
  target INTEGER,
  next_seq INTEGER
);
INSERT OR IGNORE INTO search_term_build (id) VALUES (1);
`);
    },
  },
  {
    version: 16,
    name: 'a change counter that search-index upkeep does not move',
    // The change token (what the read cache, the key cache and the search connections' kept answers
    // are valid under) was `data_version`, which every commit moves: while the per-term lists are
    // built (~50 commits a second for minutes at 100,000 skills) nothing kept lived longer than a
    // commit. Triggers on every table whose rows an answer reads now count writes in
    // `change_counter`; the per-term lists, their build state and FTS5's merges (which change no
    // answer) do not. `epoch` is random per database file, so two files never give the same token.
    // Safe to run again.
    sql: `
CREATE TABLE IF NOT EXISTS change_counter (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  epoch TEXT NOT NULL,
  n INTEGER NOT NULL
);
INSERT OR IGNORE INTO change_counter (id, epoch, n) VALUES (1, lower(hex(randomblob(8))), 0);
${COUNTED_TABLES_V16.map(changeCounterTriggers).join('')}`,
  },
  {
    version: 17,
    name: 'delta segments of the per-term match lists',
    // Upkeep rewrote, per written skill, the part of every term the skill holds (~170-310 parts of
    // up to 8 KB, each on its own B-tree page): ~12 ms of CPU and ~1 MB of WAL per skill. A pass over
    // a few written rows now writes one delta segment instead (`search_term_deltas`, keyed by the
    // pass's origin first, so its rows are appended), and a later pass merges the segments into the
    // parts for many rows at once (see search/term-lists.ts). `merged` is the origin up to which the
    // parts alone are complete; lists built before are complete up to `covered`. `delta` is 1 while
    // a delta pass runs. The index on FTS5's row origins lets a pass find the rows written after an
    // origin, and the highest origin, in one bounded look instead of a scan of every row (FTS5
    // keeps it like any index of its table). Safe to run again.
    sql: '',
    run(db) {
      const build = (db.prepare('PRAGMA table_info(search_term_build)').all() as Array<{ name: string }>).map(
        (c) => c.name,
      );
      if (!build.includes('merged')) db.exec('ALTER TABLE search_term_build ADD COLUMN merged INTEGER');
      if (!build.includes('delta')) {
        db.exec('ALTER TABLE search_term_build ADD COLUMN delta INTEGER NOT NULL DEFAULT 0');
      }
      db.exec(`
CREATE TABLE IF NOT EXISTS search_term_deltas (
  origin INTEGER NOT NULL,
  term TEXT NOT NULL,
  seqs BLOB NOT NULL,
  freqs BLOB NOT NULL,
  PRIMARY KEY (origin, term)
) WITHOUT ROWID;
UPDATE search_term_build SET merged = covered WHERE id = 1 AND merged IS NULL;
CREATE INDEX IF NOT EXISTS skills_fts_docsize_origin ON skills_fts_docsize (origin);
`);
    },
  },
  {
    version: 18,
    name: 'wider merges of the search index during writes',
    // Each commit that writes search rows leaves one FTS5 segment; FTS5's own merging during writes
    // (its default `automerge` 4) merged a level as soon as it held 4 segments, so every indexed
    // entry was rewritten once per level of a 4-way tree and the largest segments (the registry's
    // whole index after an idle merge) again every few dozen commits: ~15% of the database thread's
    // CPU per add. Merging 32 segments at a time (`automerge` 32; FTS5's forced merge of a level at
    // `crisismerge` raised from 16 to 64 so it does not come first) rewrites each entry about half as
    // often, for the same answers (segments only change how the index is stored). A query meets more
    // segments while writes keep coming; the idle merge (`compactSearchIndex`) still merges them all
    // into one once writes pause. The settings are stored in the index's own config table, so they
    // hold for every connection and survive rebuilds. Safe to run again.
    sql: `
INSERT INTO skills_fts (skills_fts, rank) VALUES ('automerge', ${SEARCH_INDEX_AUTOMERGE});
INSERT INTO skills_fts (skills_fts, rank) VALUES ('crisismerge', ${SEARCH_INDEX_CRISISMERGE});
`,
  },
  {
    version: 19,
    name: 'fair order of processing jobs',
    // Jobs ran in one queue in enqueue order, so one user's bulk add of thousands of skills held up
    // every other user's write (and that user's own write that waits for its job) until the whole
    // backlog was processed. A new job now takes a `fair_round`: the round of a round robin over the
    // owners' lanes (one per user and `priority`) in which it runs — the round of the first job still
    // waiting, or the round after the lane's last waiting job when that is later — and jobs run by
    // round, a round's waiting writes (`priority` 0) first. Retries and jobs given back on shutdown
    // (`fair_round` NULL) run in `run_at` order before fair work, as all jobs did before; so do the
    // jobs enqueued before this step. Both orders are probes of small partial indexes (pending jobs
    // only). `tasks_runnable` stays for processes of the build before while they are replaced.
    // Safe to run again (a file whose recorded version was set back keeps its columns).
    sql: '',
    run(db) {
      const columns = (db.prepare('PRAGMA table_info(tasks)').all() as Array<{ name: string }>).map(
        (c) => c.name,
      );
      if (!columns.includes('priority'))
        db.exec('ALTER TABLE tasks ADD COLUMN priority INTEGER NOT NULL DEFAULT 1');
      if (!columns.includes('fair_round')) db.exec('ALTER TABLE tasks ADD COLUMN fair_round INTEGER');
      db.exec(`
CREATE INDEX IF NOT EXISTS tasks_retry_due ON tasks (run_at, seq) WHERE status = 'pending' AND fair_round IS NULL;
CREATE INDEX IF NOT EXISTS tasks_fair_order ON tasks (fair_round, priority, seq)
  WHERE status = 'pending' AND fair_round IS NOT NULL;
CREATE INDEX IF NOT EXISTS tasks_fair_lane ON tasks (account_id, user_id, priority, fair_round)
  WHERE status = 'pending' AND fair_round IS NOT NULL;
`);
    },
  },
  {
    version: 20,
    name: 'search index without its 3-character prefix index',
    // FTS5's `prefix = '3'` wrote every token of 3 characters or more twice (the term, and its first
    // three characters in a second index), and every segment flush and merge carried both: ~30% of
    // the index's CPU per add (~120 µs of ~400 µs at 10,000 skills). It served only prefix queries of
    // exactly 3 characters (a type-ahead query's last word, `"cal"*`) read through FTS5; FTS5 answers
    // those from the terms themselves just as well (the same rows, the same `bm25()`), and the
    // per-term lists read a prefix as a range of terms anyway. The option cannot be changed in place:
    // the index is created again without it and every stored skill is indexed again (as version 3
    // did; ~36 s of CPU at 100,000 skills, ~3 s at 10,000, during the first open), with the merge
    // settings of version 18 and the origin index of version 17. The per-term lists are built again
    // from scratch in the background (FTS5 numbers the new rows afresh; ~22 s of CPU at 10,000
    // skills); until they cover the index, finds are ranked by `bm25()`, as before a first build.
    // Answers are those of the same skills indexed afresh with the prefix index: FTS5 never takes a
    // replaced or deleted row out of its column totals, so a file whose skills were rewritten had
    // drifted `bm25()` statistics, which the new index starts without (as version 3's rebuild did).
    sql: `
DROP TABLE IF EXISTS skills_fts;
CREATE VIRTUAL TABLE skills_fts USING fts5 (
  name, tags, description, overview, body,
  content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO skills_fts (skills_fts, rank) VALUES ('automerge', ${SEARCH_INDEX_AUTOMERGE});
INSERT INTO skills_fts (skills_fts, rank) VALUES ('crisismerge', ${SEARCH_INDEX_CRISISMERGE});
CREATE INDEX IF NOT EXISTS skills_fts_docsize_origin ON skills_fts_docsize (origin);
`,
    run: (db) => {
      rebuildSearchIndex(db);
    },
  },
];

/** Every schema version of this build's steps, in order (13 is not among them, see above). */
export const SCHEMA_VERSIONS: readonly number[] = MIGRATIONS.map((m) => m.version);

/** The schema version this build writes. */
export const SCHEMA_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/**
 * The schema version recorded in the file (`PRAGMA user_version`).
 *
 * @param db - an open connection
 * @returns the last applied migration, 0 for a new file
 */
export function readSchemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings the database to {@link SCHEMA_VERSION}, one transaction per step (a crash mid-way leaves the
 * last completed step). Idempotent.
 *
 * @param db - an open connection
 * @returns the versions applied now (empty when already current)
 * @throws Error when the file was written by a newer build (its `user_version` is unknown here)
 */
export function applyMigrations(db: Database.Database): number[] {
  const current = readSchemaVersion(db);
  if (current > SCHEMA_VERSION) {
    throw new Error(
      `SQLite schema version ${current} is newer than this server understands (${SCHEMA_VERSION}); ` +
        'upgrade the server or use another data directory',
    );
  }
  const applied: number[] = [];
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      if (migration.sql !== '') db.exec(migration.sql);
      migration.run?.(db);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
    applied.push(migration.version);
  }
  return applied;
}
