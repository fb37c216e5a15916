import type pg from 'pg';

/** One schema step: applied in order, each in its own transaction, never edited once released. */
interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * The PostgreSQL schema, versioned in code; `skillport_migrations` records the applied steps.
 *
 * It mirrors the SQLite schema (same tables, columns and JSON-as-text values, so rows map to records
 * the same way and an export is byte-identical on both engines), with these differences:
 * - Names, roots, ids and paths use the `C` collation: ordering by code point, as SQLite's `BINARY`,
 *   whatever the database's locale (`lower()` then folds ASCII only, as in SQLite).
 * - File contents are `bytea` in `blobs`, content-addressed by sha-256, stored once.
 * - `skills.search` is the weighted `tsvector` built in JavaScript (`search/postgres-text.ts`) with a
 *   GIN index; `skills_name_trgm` indexes lower-cased names by trigram (`pg_trgm`) for typo-tolerant
 *   name matches.
 * - Runnable tasks (pending, and running with a lease) have partial indexes, so claiming one with
 *   `FOR UPDATE SKIP LOCKED` stays cheap however many finished tasks are kept. Since version 21 new
 *   jobs run in a fair order (`priority`, `fair_round`, see `store/postgres/task-ops.ts`).
 * - `skill_vectors` holds one embedding per skill (the vector of `revision` by `model`, float32
 *   little-endian). Triggers clear it (`vector = NULL`) when the skill gets a new revision or is
 *   deleted; every change records its transaction id (`change_xid`), so a process keeping the vectors
 *   in memory catches up by reading the rows changed since the oldest transaction it could not see.
 * - History: `skill_revision_blobs` indexes the blobs each kept revision references, so retention
 *   frees a blob in the transaction that drops its last reference (as on SQLite).
 * - Change feed: `skill_changes` holds each skill's latest change under a per-account `seq` taken
 *   from `skill_feed_counters`. The counter row stays locked until the write commits, so within an
 *   account `seq` order is commit order and a reader paging by `seq` never skips a change committed
 *   late (the price: writes of one account take their feed position one at a time, at commit).
 *   Since version 14 a deferred trigger takes the position inside COMMIT (with the write's second
 *   quota and skill-limit check), so the row is held for the commit alone, not for round trips to
 *   the client; a change row has no `seq` only within its own, uncommitted, transaction.
 * - `find` reads its matches through functions (version 3) that turn sequential scans off: the
 *   planner does not count the cost of reading a TOASTed `tsvector`, so it would otherwise pick a
 *   sequential scan that decompresses every skill's vector to test `@@`, where the GIN index answers
 *   without reading one (`search/postgres-search.ts`).
 * - `skill_terms` (version 4) holds, per lexeme of each skill's `tsvector`, the lexeme's `ts_rank` term
 *   (the sum `calc_rank_or` adds for one entry, before float rounding; `skill_term_rank`) and a bit
 *   set of its field labels (A 1, B 2, C 4, D 8). Triggers on `skills` keep it in step with `search`
 *   (since version 6 an update rewrites only the rows of lexemes whose labels changed).
 *   `find` scores matches from its primary key (an index-only scan per query term) to the exact
 *   figure `ts_rank` gives, without reading the TOASTed vectors (`search/postgres-search.ts`).
 * - `skill_terms_by_impact` (version 7) orders each lexeme's rows by rank, best first, so `find`
 *   reads the best postings of each query term and stops early (a threshold algorithm);
 *   `skill_search_generation` is bumped by triggers on every change of a skill's vector (64 rows, one
 *   chosen by the skill's `seq`): while its sum stays the same, a process reuses the document
 *   frequencies it counted (`search/postgres-search.ts`).
 * - `skill_term_counts` (version 9) counts the `skill_terms` rows per lexeme and label set (in 64 shards
 *   by skill, as `skill_search_generation`), kept by the same trigger, so `find` reads a word's
 *   document frequency from a few rows instead of counting its rows. Since version 17 also per
 *   number of characters (at most 8) the lexeme shares with the one before it among the skill's
 *   lexemes in code-point order, so a short prefix's frequency is a sum of counts as well.
 * - Since version 22 a write records its change of `skill_term_counts` as one pending row
 *   (`skill_term_count_deltas`), folded into the counts in batches by the server
 *   (`skill_term_counts_fold`); `find` reads the counts plus the pending rows, exactly.
 * - Since version 13, `skill_term_rank` computes a single-position lexeme's figure inline (a SQL
 *   expression the planner inlines into the search-terms trigger); only lexemes with several positions
 *   call the plpgsql loop (`skill_term_rank_positions`).
 * - `account_usage` (version 5) holds each account's stored bytes (live skill files, `.overview.md`
 *   not counted), kept by triggers on `skill_files`, so the quota check of a write is a lookup. Since
 *   version 11 each account's total is spread over 64 rows chosen by the skill (`seq % 64`, as
 *   `skill_root_counts`), so concurrent writes of one account seldom wait on each other's row.
 * - Accounts, users, keys, blobs and temp uploads carry a `seq` (insertion order, like SQLite's rowid),
 *   so `exportRecords` lists them in the same order on both engines.
 */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
CREATE TABLE accounts (
  id text COLLATE "C" PRIMARY KEY,
  created_at bigint NOT NULL,
  seq bigint GENERATED BY DEFAULT AS IDENTITY UNIQUE
);
CREATE TABLE users (
  account_id text COLLATE "C" NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  id text COLLATE "C" NOT NULL,
  created_at bigint NOT NULL,
  seq bigint GENERATED BY DEFAULT AS IDENTITY UNIQUE,
  PRIMARY KEY (account_id, id)
);
CREATE TABLE api_keys (
  seq bigint GENERATED BY DEFAULT AS IDENTITY UNIQUE,
  id text COLLATE "C" PRIMARY KEY,
  account_id text COLLATE "C" NOT NULL,
  user_id text COLLATE "C" NOT NULL,
  role text NOT NULL CHECK (role IN ('root', 'admin', 'user')),
  hash text NOT NULL UNIQUE,
  prefix text NOT NULL,
  created_at bigint NOT NULL,
  revoked_at bigint
);
CREATE INDEX api_keys_by_account ON api_keys (account_id, created_at, id);
CREATE TABLE blobs (
  seq bigint GENERATED BY DEFAULT AS IDENTITY UNIQUE,
  sha256 text COLLATE "C" PRIMARY KEY,
  size bigint NOT NULL,
  content bytea NOT NULL
);
CREATE TABLE skills (
  seq bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  id text COLLATE "C" NOT NULL UNIQUE,
  account_id text COLLATE "C" NOT NULL REFERENCES accounts(id),
  root_uri text COLLATE "C" NOT NULL,
  name text COLLATE "C" NOT NULL,
  description text NOT NULL,
  tags text NOT NULL,
  allowed_tools text NOT NULL,
  source_metadata text,
  revision text NOT NULL,
  overview_revision text,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  frontmatter text NOT NULL,
  overview text,
  body text NOT NULL,
  search tsvector NOT NULL,
  UNIQUE (account_id, root_uri, name)
);
CREATE INDEX skills_by_lower_name ON skills (account_id, lower(name));
CREATE INDEX skills_search ON skills USING gin (search);
CREATE INDEX skills_name_trgm ON skills USING gin (lower(name) gin_trgm_ops);
CREATE TABLE skill_files (
  skill_seq bigint NOT NULL REFERENCES skills(seq) ON DELETE CASCADE,
  path text COLLATE "C" NOT NULL,
  kind text NOT NULL CHECK (kind IN ('definition', 'summary', 'auxiliary')),
  size bigint NOT NULL,
  sha256 text COLLATE "C" NOT NULL REFERENCES blobs(sha256),
  PRIMARY KEY (skill_seq, path)
);
CREATE INDEX skill_files_by_blob ON skill_files (sha256);
CREATE TABLE skill_revisions (
  seq bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  skill_id text COLLATE "C" NOT NULL,
  account_id text COLLATE "C" NOT NULL,
  root_uri text COLLATE "C" NOT NULL,
  name text COLLATE "C" NOT NULL,
  revision text NOT NULL,
  manifest text NOT NULL,
  created_at bigint NOT NULL,
  created_by text,
  superseded_at bigint
);
CREATE INDEX skill_revisions_by_name ON skill_revisions (account_id, root_uri, name, seq);
CREATE INDEX skill_revisions_live ON skill_revisions (skill_id) WHERE superseded_at IS NULL;
CREATE INDEX skill_revisions_superseded ON skill_revisions (superseded_at) WHERE superseded_at IS NOT NULL;
CREATE TABLE skill_revision_blobs (
  sha256 text COLLATE "C" NOT NULL,
  revision_seq bigint NOT NULL REFERENCES skill_revisions(seq) ON DELETE CASCADE,
  PRIMARY KEY (sha256, revision_seq)
);
CREATE INDEX skill_revision_blobs_by_revision ON skill_revision_blobs (revision_seq);
CREATE TABLE skill_feed_counters (
  account_id text COLLATE "C" PRIMARY KEY,
  seq bigint NOT NULL
);
CREATE TABLE skill_changes (
  account_id text COLLATE "C" NOT NULL,
  root_uri text COLLATE "C" NOT NULL,
  name text COLLATE "C" NOT NULL,
  seq bigint NOT NULL,
  revision text NOT NULL,
  deleted boolean NOT NULL,
  changed_at bigint NOT NULL,
  PRIMARY KEY (account_id, root_uri, name)
);
CREATE UNIQUE INDEX skill_changes_by_account ON skill_changes (account_id, seq);
CREATE INDEX skill_changes_by_root ON skill_changes (account_id, root_uri, seq);
CREATE TABLE temp_uploads (
  seq bigint GENERATED BY DEFAULT AS IDENTITY UNIQUE,
  id text COLLATE "C" PRIMARY KEY,
  account_id text COLLATE "C" NOT NULL,
  filename text NOT NULL,
  content bytea NOT NULL,
  expires_at bigint NOT NULL,
  created_at bigint NOT NULL
);
CREATE INDEX temp_uploads_by_expiry ON temp_uploads (expires_at);
CREATE TABLE tasks (
  seq bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  id text COLLATE "C" NOT NULL UNIQUE,
  account_id text COLLATE "C" NOT NULL,
  user_id text COLLATE "C" NOT NULL,
  type text NOT NULL CHECK (type IN ('add_skill', 'update_skill')),
  status text NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed', 'cancelled')),
  skill_id text COLLATE "C" NOT NULL,
  revision text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  run_at bigint NOT NULL,
  started_at bigint,
  result text,
  error text,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  lease_owner text,
  lease_token text,
  lease_expires_at bigint
);
CREATE INDEX tasks_runnable ON tasks (run_at, seq) WHERE status = 'pending';
CREATE INDEX tasks_lease_expiry ON tasks (lease_expires_at, seq) WHERE status = 'running';
CREATE INDEX tasks_finished ON tasks (updated_at) WHERE status IN ('completed', 'failed', 'cancelled');
CREATE INDEX tasks_by_owner ON tasks (account_id, user_id, status);
CREATE INDEX tasks_by_owner_created ON tasks (account_id, user_id, created_at);
CREATE TABLE skill_vectors (
  skill_seq bigint PRIMARY KEY,
  revision text NOT NULL,
  model text NOT NULL,
  vector bytea,
  change_xid xid8 NOT NULL DEFAULT pg_current_xact_id()
);
CREATE INDEX skill_vectors_by_change ON skill_vectors (change_xid);
CREATE FUNCTION skill_vectors_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE skill_vectors SET vector = NULL, change_xid = pg_current_xact_id()
    WHERE skill_seq = OLD.seq AND vector IS NOT NULL;
  RETURN NULL;
END $$;
CREATE TRIGGER skill_vectors_stale AFTER UPDATE OF revision ON skills
  FOR EACH ROW WHEN (OLD.revision <> NEW.revision) EXECUTE FUNCTION skill_vectors_clear();
CREATE TRIGGER skill_vectors_gone AFTER DELETE ON skills FOR EACH ROW EXECUTE FUNCTION skill_vectors_clear();
`,
  },
  {
    version: 2,
    name: 'idempotency keys',
    // The response of a POST/PUT sent with `Idempotency-Key`, replayed to a retry (kept 24 h).
    sql: `
CREATE TABLE IF NOT EXISTS idempotency_keys (
  account_id text COLLATE "C" NOT NULL,
  idem_key text COLLATE "C" NOT NULL,
  request_hash text NOT NULL,
  response text,
  created_at bigint NOT NULL,
  PRIMARY KEY (account_id, idem_key)
);
CREATE INDEX IF NOT EXISTS idempotency_keys_by_age ON idempotency_keys (created_at);
`,
  },
  {
    version: 3,
    name: 'search statements that read matches through the GIN index',
    sql: `
CREATE FUNCTION skill_document_frequencies(tsquery[]) RETURNS bigint[]
  LANGUAGE sql STABLE SET enable_seqscan = off AS $$
  SELECT ARRAY(SELECT (SELECT count(*) FROM skills WHERE search @@ u.q)
    FROM unnest($1) WITH ORDINALITY AS u(q, i) ORDER BY u.i)
$$;
CREATE FUNCTION skill_lexical_matches(
  tsquery, text, text[], integer, tsquery[], float8[], float4[], float8, float8, float8
) RETURNS TABLE (seq bigint, name text, root_uri text, lexical float8)
  LANGUAGE sql STABLE SET enable_seqscan = off AS $$
  SELECT s.seq, s.name, s.root_uri, sc.lexical FROM skills s
  CROSS JOIN LATERAL (
    SELECT sum(t.idf * (f.f * $9) / (f.f + $10)) AS lexical
    FROM unnest($5, $6) AS t(q, idf)
    CROSS JOIN LATERAL (SELECT ts_rank($7, s.search, t.q) * $8 AS f OFFSET 0) AS f
  ) AS sc
  WHERE s.account_id = $2 AND s.root_uri = ANY($3) AND s.search @@ $1
  ORDER BY sc.lexical DESC, s.seq LIMIT $4
$$;
`,
  },
  {
    version: 4,
    name: 'per-term ranking table for find',
    // One row per (lexeme, skill) of every search vector with the lexeme's ts_rank term (weights
    // {D 0.025, C 0.3, B 0.5, A 1}, the RANK_WEIGHTS of search/postgres-search.ts), kept by triggers,
    // backfilled here. find scores from these rows instead of decompressing every match's vector.
    sql: `
CREATE FUNCTION skill_term_rank(positions smallint[], weights text[]) RETURNS float8
  LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  resj real := 0;
  wjm real := -1;
  jm integer := 0;
  w real;
BEGIN
  FOR j IN 1 .. coalesce(array_length(positions, 1), 0) LOOP
    w := CASE weights[j] WHEN 'A' THEN 1::real WHEN 'B' THEN 0.5::real WHEN 'C' THEN 0.3::real ELSE 0.025::real END;
    resj := resj + w / (j * j)::real;
    IF w > wjm THEN
      wjm := w;
      jm := j;
    END IF;
  END LOOP;
  RETURN ((wjm + resj) - wjm / (jm * jm)::real)::float8 / 1.64493406685::float8;
END $$;
CREATE FUNCTION skill_term_labels(weights text[]) RETURNS smallint
  LANGUAGE sql IMMUTABLE AS $$
  SELECT ((CASE WHEN 'A' = ANY($1) THEN 1 ELSE 0 END) | (CASE WHEN 'B' = ANY($1) THEN 2 ELSE 0 END)
    | (CASE WHEN 'C' = ANY($1) THEN 4 ELSE 0 END) | (CASE WHEN 'D' = ANY($1) THEN 8 ELSE 0 END))::smallint
$$;
CREATE FUNCTION skill_rank_fold(float8[]) RETURNS real
  LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  acc real := 0;
  v float8;
BEGIN
  FOREACH v IN ARRAY $1 LOOP
    acc := (acc::float8 + v)::real;
  END LOOP;
  RETURN acc;
END $$;
CREATE TABLE skill_terms (
  lexeme text COLLATE "C" NOT NULL,
  skill_seq bigint NOT NULL,
  rank float8 NOT NULL,
  labels smallint NOT NULL,
  PRIMARY KEY (lexeme, skill_seq) INCLUDE (rank, labels)
);
CREATE FUNCTION skill_terms_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM skill_terms WHERE lexeme = ANY(tsvector_to_array(OLD.search)) AND skill_seq = OLD.seq;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO skill_terms (lexeme, skill_seq, rank, labels)
      SELECT u.lexeme, NEW.seq, skill_term_rank(u.positions, u.weights), skill_term_labels(u.weights)
      FROM unnest(NEW.search) AS u;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER skill_terms_added AFTER INSERT ON skills FOR EACH ROW EXECUTE FUNCTION skill_terms_sync();
CREATE TRIGGER skill_terms_changed AFTER UPDATE OF search ON skills
  FOR EACH ROW WHEN (OLD.search IS DISTINCT FROM NEW.search) EXECUTE FUNCTION skill_terms_sync();
CREATE TRIGGER skill_terms_gone AFTER DELETE ON skills FOR EACH ROW EXECUTE FUNCTION skill_terms_sync();
INSERT INTO skill_terms (lexeme, skill_seq, rank, labels)
  SELECT u.lexeme, s.seq, skill_term_rank(u.positions, u.weights), skill_term_labels(u.weights)
  FROM skills s CROSS JOIN LATERAL unnest(s.search) AS u;
`,
  },
  {
    version: 5,
    name: 'stored bytes per account',
    // As SQLite's version 10: the account quota check reads the account's total from
    // `account_usage`, kept by triggers on `skill_files`, instead of summing the account's files on
    // every write. A skill's files are deleted before the skill row, so the triggers find its account.
    sql: `
CREATE TABLE account_usage (
  account_id text COLLATE "C" PRIMARY KEY,
  stored_bytes bigint NOT NULL
);
INSERT INTO account_usage (account_id, stored_bytes)
  SELECT s.account_id, SUM(f.size) FROM skills s JOIN skill_files f ON f.skill_seq = s.seq
  WHERE f.path <> '.overview.md' GROUP BY s.account_id;
CREATE FUNCTION skill_files_usage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') AND OLD.path <> '.overview.md' THEN
    UPDATE account_usage SET stored_bytes = stored_bytes - OLD.size
      WHERE account_id = (SELECT account_id FROM skills WHERE seq = OLD.skill_seq);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.path <> '.overview.md' THEN
    INSERT INTO account_usage (account_id, stored_bytes)
      SELECT account_id, NEW.size FROM skills WHERE seq = NEW.skill_seq
      ON CONFLICT (account_id) DO UPDATE SET stored_bytes = account_usage.stored_bytes + EXCLUDED.stored_bytes;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER skill_files_usage AFTER INSERT OR UPDATE OR DELETE ON skill_files
  FOR EACH ROW EXECUTE FUNCTION skill_files_usage();
CREATE FUNCTION skills_usage_files_first() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM skill_files WHERE skill_seq = OLD.seq;
  RETURN OLD;
END $$;
CREATE TRIGGER skills_usage_files_first BEFORE DELETE ON skills
  FOR EACH ROW EXECUTE FUNCTION skills_usage_files_first();
CREATE FUNCTION skills_usage_move() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  moved bigint;
BEGIN
  SELECT COALESCE(SUM(size), 0) INTO moved FROM skill_files WHERE skill_seq = NEW.seq AND path <> '.overview.md';
  UPDATE account_usage SET stored_bytes = stored_bytes - moved WHERE account_id = OLD.account_id;
  INSERT INTO account_usage (account_id, stored_bytes) VALUES (NEW.account_id, moved)
    ON CONFLICT (account_id) DO UPDATE SET stored_bytes = account_usage.stored_bytes + EXCLUDED.stored_bytes;
  RETURN NULL;
END $$;
CREATE TRIGGER skills_usage_move AFTER UPDATE OF account_id ON skills
  FOR EACH ROW WHEN (OLD.account_id <> NEW.account_id) EXECUTE FUNCTION skills_usage_move();
`,
  },
  {
    version: 6,
    name: 'skill_terms: an update rewrites only the rows that changed',
    // A lexeme's row depends only on the labels of its positions, in order (not on the positions):
    // when a skill's vector changes (new content, its overview added), the rows of lexemes whose
    // labels are the same stay; the others are deleted, inserted or updated.
    sql: `
CREATE OR REPLACE FUNCTION skill_terms_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO skill_terms (lexeme, skill_seq, rank, labels)
      SELECT u.lexeme, NEW.seq, skill_term_rank(u.positions, u.weights), skill_term_labels(u.weights)
      FROM unnest(NEW.search) AS u;
  ELSIF TG_OP = 'DELETE' THEN
    DELETE FROM skill_terms WHERE lexeme = ANY(tsvector_to_array(OLD.search)) AND skill_seq = OLD.seq;
  ELSE
    DELETE FROM skill_terms WHERE skill_seq = OLD.seq AND lexeme = ANY(ARRAY(
      SELECT o.lexeme FROM unnest(OLD.search) AS o EXCEPT SELECT n.lexeme FROM unnest(NEW.search) AS n));
    INSERT INTO skill_terms (lexeme, skill_seq, rank, labels)
      SELECT n.lexeme, NEW.seq, skill_term_rank(n.positions, n.weights), skill_term_labels(n.weights)
      FROM unnest(NEW.search) AS n LEFT JOIN unnest(OLD.search) AS o ON o.lexeme = n.lexeme
      WHERE o.weights IS DISTINCT FROM n.weights
      ON CONFLICT (lexeme, skill_seq) DO UPDATE SET rank = EXCLUDED.rank, labels = EXCLUDED.labels;
  END IF;
  RETURN NULL;
END $$;
`,
  },
  {
    version: 7,
    name: 'find reads the best postings of each term first; search generation',
    // `find` reads each query term's rows of `skill_terms` best first (`skill_terms_by_impact`) and
    // stops once no skill it has not seen can enter the results; it keeps the document frequencies it
    // counted while `skill_search_generation` (bumped by every change of a skill's vector, in one of
    // 64 rows chosen by the skill, so concurrent writes seldom wait on each other) stays the same.
    sql: `
CREATE INDEX skill_terms_by_impact ON skill_terms (lexeme, rank DESC, skill_seq) INCLUDE (labels);
CREATE TABLE skill_search_generation (
  shard smallint PRIMARY KEY,
  n bigint NOT NULL
);
INSERT INTO skill_search_generation (shard, n) SELECT g, 0 FROM generate_series(0, 63) AS g;
CREATE FUNCTION skill_search_generation_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE skill_search_generation SET n = n + 1
    WHERE shard = (CASE WHEN TG_OP = 'DELETE' THEN OLD.seq ELSE NEW.seq END) % 64;
  RETURN NULL;
END $$;
CREATE TRIGGER skill_search_generation_added AFTER INSERT ON skills
  FOR EACH ROW EXECUTE FUNCTION skill_search_generation_bump();
CREATE TRIGGER skill_search_generation_changed AFTER UPDATE OF search ON skills
  FOR EACH ROW WHEN (OLD.search IS DISTINCT FROM NEW.search) EXECUTE FUNCTION skill_search_generation_bump();
CREATE TRIGGER skill_search_generation_gone AFTER DELETE ON skills
  FOR EACH ROW EXECUTE FUNCTION skill_search_generation_bump();
`,
  },
  {
    version: 8,
    name: 'skill counts per root',
    // A listing page shows its root's total: read from `skill_root_counts` (kept by triggers on
    // `skills`, in the same transaction as the change) instead of counting the root's rows on every
    // page (~9 ms of database CPU per page at 90,000 skills in one root). Each root's count is spread
    // over 64 rows chosen by the skill (as `skill_search_generation`), so concurrent adds to one root
    // seldom wait on each other; a root's total is the sum of its rows (a row alone may go below 0
    // when a skill's `seq` changes). The backfill counts every skill once (one pass over `skills`).
    sql: `
CREATE TABLE skill_root_counts (
  account_id text COLLATE "C" NOT NULL,
  root_uri text COLLATE "C" NOT NULL,
  shard smallint NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (account_id, root_uri, shard)
);
INSERT INTO skill_root_counts (account_id, root_uri, shard, n)
  SELECT account_id, root_uri, (seq % 64)::smallint, count(*) FROM skills GROUP BY 1, 2, 3;
CREATE FUNCTION skill_root_counts_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE skill_root_counts SET n = n - 1
      WHERE account_id = OLD.account_id AND root_uri = OLD.root_uri AND shard = OLD.seq % 64;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO skill_root_counts (account_id, root_uri, shard, n)
      VALUES (NEW.account_id, NEW.root_uri, NEW.seq % 64, 1)
      ON CONFLICT (account_id, root_uri, shard) DO UPDATE SET n = skill_root_counts.n + 1;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER skill_root_counts_added AFTER INSERT ON skills
  FOR EACH ROW EXECUTE FUNCTION skill_root_counts_sync();
CREATE TRIGGER skill_root_counts_moved AFTER UPDATE OF account_id, root_uri, seq ON skills
  FOR EACH ROW WHEN (OLD.account_id <> NEW.account_id OR OLD.root_uri <> NEW.root_uri OR OLD.seq <> NEW.seq)
  EXECUTE FUNCTION skill_root_counts_sync();
CREATE TRIGGER skill_root_counts_gone AFTER DELETE ON skills
  FOR EACH ROW EXECUTE FUNCTION skill_root_counts_sync();
`,
  },
  {
    version: 9,
    name: 'document frequencies per lexeme and field labels',
    // `find` weighs each query word by the number of skills it matches (its document frequency), which
    // it counted from `skill_terms` on every find with a word not asked since the last change: tens of
    // thousands of rows for a common word at 100,000 skills. `skill_term_counts` holds, per lexeme and
    // label set, the number of `skill_terms` rows, kept by `skill_terms_sync` in the statement that
    // changes the rows, so a word's frequency is a sum of a few rows. Each count is spread over 64
    // rows chosen by the skill (its `seq % 64`, as `skill_search_generation`): a write locks only its
    // shard's rows, after the generation row of the same shard (its trigger fires first), so writers
    // of different shards never wait on each other and writers of one shard already queue on that
    // row (no new waits, and no lock-order cycle). Rows fallen to 0 stay (reused by the next skill).
    // Pages are left a fifth free so a count's update stays on its page (a HOT update: no index entry).
    sql: `
CREATE TABLE skill_term_counts (
  lexeme text COLLATE "C" NOT NULL,
  labels smallint NOT NULL,
  shard smallint NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (lexeme, labels, shard)
) WITH (fillfactor = 80);
INSERT INTO skill_term_counts (lexeme, labels, shard, n)
  SELECT lexeme, labels, (skill_seq % 64)::smallint, count(*) FROM skill_terms GROUP BY 1, 2, 3;
CREATE OR REPLACE FUNCTION skill_terms_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH added AS (
      INSERT INTO skill_terms (lexeme, skill_seq, rank, labels)
        SELECT u.lexeme, NEW.seq, skill_term_rank(u.positions, u.weights), skill_term_labels(u.weights)
        FROM unnest(NEW.search) AS u
      RETURNING lexeme, labels)
    INSERT INTO skill_term_counts (lexeme, labels, shard, n)
      SELECT lexeme, labels, NEW.seq % 64, 1 FROM added ORDER BY lexeme, labels
      ON CONFLICT (lexeme, labels, shard) DO UPDATE SET n = skill_term_counts.n + 1;
  ELSIF TG_OP = 'DELETE' THEN
    WITH gone AS (
      DELETE FROM skill_terms WHERE lexeme = ANY(tsvector_to_array(OLD.search)) AND skill_seq = OLD.seq
      RETURNING lexeme, labels)
    UPDATE skill_term_counts c SET n = c.n - 1
      FROM gone WHERE c.lexeme = gone.lexeme AND c.labels = gone.labels AND c.shard = OLD.seq % 64;
  ELSE
    DELETE FROM skill_terms WHERE skill_seq = OLD.seq AND lexeme = ANY(ARRAY(
      SELECT o.lexeme FROM unnest(OLD.search) AS o EXCEPT SELECT n.lexeme FROM unnest(NEW.search) AS n));
    INSERT INTO skill_terms (lexeme, skill_seq, rank, labels)
      SELECT n.lexeme, NEW.seq, skill_term_rank(n.positions, n.weights), skill_term_labels(n.weights)
      FROM unnest(NEW.search) AS n LEFT JOIN unnest(OLD.search) AS o ON o.lexeme = n.lexeme
      WHERE o.weights IS DISTINCT FROM n.weights
      ON CONFLICT (lexeme, skill_seq) DO UPDATE SET rank = EXCLUDED.rank, labels = EXCLUDED.labels;
    -- The counts move by the difference of the two vectors' (lexeme, labels) pairs.
    INSERT INTO skill_term_counts (lexeme, labels, shard, n)
      SELECT lexeme, labels, shard, sum(d) FROM (
        SELECT o.lexeme, skill_term_labels(o.weights) AS labels, OLD.seq % 64 AS shard, -1 AS d
        FROM unnest(OLD.search) AS o
        UNION ALL
        SELECT n.lexeme, skill_term_labels(n.weights), NEW.seq % 64, 1 FROM unnest(NEW.search) AS n) AS x
      GROUP BY lexeme, labels, shard HAVING sum(d) <> 0 ORDER BY lexeme, labels, shard
      ON CONFLICT (lexeme, labels, shard) DO UPDATE SET n = skill_term_counts.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END $$;
`,
  },
  {
    version: 10,
    name: 'deletions of an account, newest first',
    // An account keeps the history of its most recently deleted skills only
    // (`SKILLPORT_KEEP_DELETED_MAX`): each delete looks up the deletions just past that many, newest
    // first, in this index instead of walking every change of the account.
    sql: `
CREATE INDEX IF NOT EXISTS skill_changes_deleted ON skill_changes (account_id, seq) WHERE deleted;
`,
  },
  {
    version: 11,
    name: 'stored bytes per account in 64 rows',
    // Every write of an account updated the account's one `account_usage` row (its file rows'
    // trigger) and held it until commit, so one account's writes ran their ends one at a time,
    // however many replicas served them. Each account's bytes are now spread over 64 rows chosen by
    // the skill (`seq % 64`, as `skill_root_counts`); its total is the sum of its rows (a row alone may
    // go below 0). A write's quota check is serialised by the change feed's counter row instead (see
    // `putSkillTx`). The existing totals stay as the accounts' shard 0. Safe to run again on a schema
    // that has it (a database whose recorded version was set back).
    sql: `
ALTER TABLE account_usage ADD COLUMN IF NOT EXISTS shard smallint NOT NULL DEFAULT 0;
ALTER TABLE account_usage ALTER COLUMN shard DROP DEFAULT;
ALTER TABLE account_usage DROP CONSTRAINT IF EXISTS account_usage_pkey;
ALTER TABLE account_usage ADD PRIMARY KEY (account_id, shard);
CREATE OR REPLACE FUNCTION skill_files_usage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') AND OLD.path <> '.overview.md' THEN
    INSERT INTO account_usage (account_id, shard, stored_bytes)
      SELECT account_id, OLD.skill_seq % 64, -OLD.size FROM skills WHERE seq = OLD.skill_seq
      ON CONFLICT (account_id, shard) DO UPDATE SET stored_bytes = account_usage.stored_bytes + EXCLUDED.stored_bytes;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.path <> '.overview.md' THEN
    INSERT INTO account_usage (account_id, shard, stored_bytes)
      SELECT account_id, NEW.skill_seq % 64, NEW.size FROM skills WHERE seq = NEW.skill_seq
      ON CONFLICT (account_id, shard) DO UPDATE SET stored_bytes = account_usage.stored_bytes + EXCLUDED.stored_bytes;
  END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION skills_usage_move() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  moved bigint;
BEGIN
  SELECT COALESCE(SUM(size), 0) INTO moved FROM skill_files WHERE skill_seq = NEW.seq AND path <> '.overview.md';
  INSERT INTO account_usage (account_id, shard, stored_bytes) VALUES (OLD.account_id, OLD.seq % 64, -moved)
    ON CONFLICT (account_id, shard) DO UPDATE SET stored_bytes = account_usage.stored_bytes + EXCLUDED.stored_bytes;
  INSERT INTO account_usage (account_id, shard, stored_bytes) VALUES (NEW.account_id, NEW.seq % 64, moved)
    ON CONFLICT (account_id, shard) DO UPDATE SET stored_bytes = account_usage.stored_bytes + EXCLUDED.stored_bytes;
  RETURN NULL;
END $$;
`,
  },
  {
    version: 12,
    name: 'executable files',
    // Whether a live file is executable (its owner's execute bit, as a zip from a Unix host recorded
    // it; git keeps the same one bit). Files stored before it are not executable. A column with a
    // constant default is added without rewriting the table. Revision manifests carry
    // `"executable": true` on such files; older manifests have none. Safe to run again.
    sql: `
ALTER TABLE skill_files ADD COLUMN IF NOT EXISTS executable boolean NOT NULL DEFAULT false;
`,
  },
  {
    version: 13,
    name: 'per-term rank of a single-position lexeme without a plpgsql call',
    // Every add writes ~300 rows of `skill_terms` (one per lexeme), each calling the plpgsql
    // `skill_term_rank`; most lexemes of a skill have one position. For one position of weight w the
    // function's figure is w / 1.64493406685 exactly (its real arithmetic on one term is exact: w / 1,
    // (w + w) - w), so `skill_term_rank` becomes a SQL expression the planner inlines into its callers
    // (not strict, so it can be inlined; null arguments still give null), handing only lexemes with
    // several positions to the loop, kept as `skill_term_rank_positions`. Same figures to the last bit.
    // Safe to run again (`CREATE OR REPLACE`).
    sql: `
CREATE OR REPLACE FUNCTION skill_term_rank_positions(positions smallint[], weights text[]) RETURNS float8
  LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  resj real := 0;
  wjm real := -1;
  jm integer := 0;
  w real;
BEGIN
  FOR j IN 1 .. coalesce(array_length(positions, 1), 0) LOOP
    w := CASE weights[j] WHEN 'A' THEN 1::real WHEN 'B' THEN 0.5::real WHEN 'C' THEN 0.3::real ELSE 0.025::real END;
    resj := resj + w / (j * j)::real;
    IF w > wjm THEN
      wjm := w;
      jm := j;
    END IF;
  END LOOP;
  RETURN ((wjm + resj) - wjm / (jm * jm)::real)::float8 / 1.64493406685::float8;
END $$;
CREATE OR REPLACE FUNCTION skill_term_rank(positions smallint[], weights text[]) RETURNS float8
  LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN cardinality($1) = 1 AND cardinality($2) = 1
    THEN (CASE $2[1] WHEN 'A' THEN 1::real WHEN 'B' THEN 0.5::real WHEN 'C' THEN 0.3::real ELSE 0.025::real END)::float8
      / 1.64493406685::float8
    ELSE skill_term_rank_positions($1, $2) END
$$;
`,
  },
  {
    version: 14,
    name: 'change-feed position taken at commit',
    // A write or delete took its account's change-feed position (`skill_feed_counters`, locked until
    // the commit so that `seq` order is commit order) in a statement of its own, then re-checked the
    // quota and skill limit in another, then committed: every write of the account waited on that
    // row for those round trips to the client and back as well as the commit. A change row is now
    // written with no `seq`, and a deferred constraint trigger numbers it inside COMMIT: it takes the
    // counter row (last of the write's locks, as before), then re-checks the account's quota and
    // skill limit with a fresh snapshot (the write's figures in the transaction-local setting
    // `skillport.write_limits`, JSON; empty for no check), raising SQLSTATE SKQ01 (quota, DETAIL:
    // the stored bytes without the skill) or SKL01 (skill limit, DETAIL: the skills without it);
    // the store maps them to its usual errors. A row numbered before (by an older server, or by
    // an import) fires nothing. Safe to run again.
    sql: `
ALTER TABLE skill_changes ALTER COLUMN seq DROP NOT NULL;
CREATE OR REPLACE FUNCTION skill_changes_number() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  next bigint;
  limits jsonb;
  stored numeric;
  live bigint;
BEGIN
  -- A change recorded twice in one transaction queues two events: the first numbers the row.
  PERFORM 1 FROM skill_changes
    WHERE account_id = NEW.account_id AND root_uri = NEW.root_uri AND name = NEW.name AND seq IS NULL;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  INSERT INTO skill_feed_counters AS c (account_id, seq) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET seq = c.seq + 1
    RETURNING c.seq INTO next;
  UPDATE skill_changes SET seq = next
    WHERE account_id = NEW.account_id AND root_uri = NEW.root_uri AND name = NEW.name;
  limits := NULLIF(current_setting('skillport.write_limits', true), '')::jsonb;
  IF limits IS NULL OR limits->>'root' IS DISTINCT FROM NEW.root_uri OR limits->>'name' IS DISTINCT FROM NEW.name THEN
    RETURN NULL;
  END IF;
  -- Every other write of the account that took the counter before this one has committed: these
  -- statements (each with a new snapshot) see its bytes and skills.
  IF (limits->>'quotaBytes')::numeric > 0 THEN
    SELECT COALESCE((SELECT SUM(stored_bytes) FROM account_usage WHERE account_id = NEW.account_id), 0)
      - COALESCE((SELECT SUM(f.size) FROM skills s JOIN skill_files f ON f.skill_seq = s.seq
          WHERE s.account_id = NEW.account_id AND s.root_uri = NEW.root_uri AND s.name = NEW.name
            AND f.path <> '.overview.md'), 0)
      INTO stored;
    IF stored + (limits->>'size')::numeric > (limits->>'quotaBytes')::numeric THEN
      RAISE EXCEPTION 'account quota exceeded' USING ERRCODE = 'SKQ01', DETAIL = stored::text;
    END IF;
  END IF;
  IF (limits->>'maxSkills')::numeric > 0 THEN
    SELECT COALESCE(SUM(n), 0) - 1 INTO live FROM skill_root_counts WHERE account_id = NEW.account_id;
    IF live >= (limits->>'maxSkills')::numeric THEN
      RAISE EXCEPTION 'account skill limit reached' USING ERRCODE = 'SKL01', DETAIL = live::text;
    END IF;
  END IF;
  RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS skill_changes_numbered ON skill_changes;
CREATE CONSTRAINT TRIGGER skill_changes_numbered AFTER INSERT OR UPDATE ON skill_changes
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.seq IS NULL) EXECUTE FUNCTION skill_changes_number();
`,
  },
  {
    version: 15,
    name: 'term frequencies planned once per connection',
    // `find` counts each new query term's document frequency (and expands a prefix) in one statement
    // (`search/postgres-term-stats.ts`). As a prepared statement it was planned again on every call
    // (~0.4 ms of backend CPU at 100,000 skills, a tenth of the statement): its arrays' sizes are
    // known to a custom plan only, so the generic plan always looked dearer and was never chosen,
    // though it is the same plan. In a plpgsql function whose `plan_cache_mode` is
    // `force_generic_plan`, the statement is planned once per connection. Same text as the
    // statement it replaces (the number of skills is now `bigint`, not `numeric`); 16 is
    // `PROBE_RATIO`. Safe to run again (`CREATE OR REPLACE`).
    sql: `
CREATE OR REPLACE FUNCTION skill_term_frequencies(text[], boolean[], int[])
  RETURNS TABLE (generation text, n bigint, df bigint[], lexemes text[], terms int[])
  LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY WITH RECURSIVE q AS (
      SELECT * FROM unnest($1::text[], $2::boolean[], $3::int[]) WITH ORDINALITY AS q(lexeme, prefix, labels, i)
    ), e(i, prefix, lexeme) AS (
      SELECT q.i, q.lexeme, (SELECT t.lexeme FROM skill_terms t
          WHERE t.lexeme >= q.lexeme AND t.lexeme <= q.lexeme || chr(1114111) ORDER BY t.lexeme LIMIT 1)
        FROM q WHERE q.prefix
      UNION ALL
      SELECT e.i, e.prefix, (SELECT t.lexeme FROM skill_terms t
          WHERE t.lexeme > e.lexeme AND t.lexeme <= e.prefix || chr(1114111) ORDER BY t.lexeme LIMIT 1)
        FROM e WHERE e.lexeme IS NOT NULL
    ), l AS (
      SELECT q.i, q.labels, q.lexeme COLLATE "C" AS lexeme FROM q WHERE NOT q.prefix
      UNION ALL
      SELECT e.i, q.labels, e.lexeme FROM e JOIN q ON q.i = e.i
        WHERE e.lexeme IS NOT NULL AND starts_with(e.lexeme, e.prefix)
    ), counted AS (
      SELECT l.i, l.labels, l.lexeme, row_number() OVER (PARTITION BY l.i ORDER BY c.n DESC, l.lexeme COLLATE "C") AS r, c.n
      FROM l CROSS JOIN LATERAL (SELECT coalesce(sum(c.n), 0)::bigint AS n FROM skill_term_counts c
        WHERE c.lexeme = l.lexeme AND (l.labels = 0 OR c.labels & l.labels <> 0)) AS c
    )
    SELECT (SELECT sum(n) FROM skill_search_generation)::text AS generation,
      (SELECT coalesce(sum(n), 0) FROM skill_root_counts)::bigint AS n,
      ARRAY(SELECT coalesce(b.n + CASE
          WHEN (SELECT coalesce(sum(o.n), 0) FROM counted o WHERE o.i = q.i AND o.r > 1) * 16 <= b.n
          THEN (SELECT count(DISTINCT t.skill_seq) FROM counted o
            JOIN skill_terms t ON t.lexeme = o.lexeme AND (q.labels = 0 OR t.labels & q.labels <> 0)
            WHERE o.i = q.i AND o.r > 1 AND NOT EXISTS (SELECT 1 FROM skill_terms u
              WHERE u.lexeme = b.lexeme AND u.skill_seq = t.skill_seq AND (q.labels = 0 OR u.labels & q.labels <> 0)
              OFFSET 0))
          ELSE (SELECT count(DISTINCT t.skill_seq) FROM counted o
            JOIN skill_terms t ON t.lexeme = o.lexeme AND (q.labels = 0 OR t.labels & q.labels <> 0)
            WHERE o.i = q.i AND o.r > 1 AND NOT EXISTS (SELECT 1 FROM skill_terms u
              WHERE u.lexeme = b.lexeme AND u.skill_seq = t.skill_seq AND (q.labels = 0 OR u.labels & q.labels <> 0)))
          END, 0)
        FROM q LEFT JOIN counted b ON b.i = q.i AND b.r = 1 ORDER BY q.i) AS df,
      ARRAY(SELECT l.lexeme FROM l ORDER BY l.i, l.lexeme COLLATE "C") AS lexemes,
      ARRAY(SELECT l.i::int FROM l ORDER BY l.i, l.lexeme COLLATE "C") AS terms;
END $$;
`,
  },
  {
    version: 16,
    name: "term frequencies: a prefix's other lexemes probe each skill once",
    // A prefix's frequency is its most frequent lexeme's plus the skills of its other lexemes that
    // lexeme lacks. When those are few, each was probed against the most frequent lexeme's rows once
    // per row, so a skill holding several of them (`manager` and `managing` under `manag`) was
    // probed once for each; the skills are now listed once, then probed. On 300 distinct bench
    // queries at 100,000 skills: 44% fewer probes, ~0.1–0.3 ms less backend CPU per count (of ~3.7).
    // Same figures.
    // Safe to run again (`CREATE OR REPLACE`).
    sql: `
CREATE OR REPLACE FUNCTION skill_term_frequencies(text[], boolean[], int[])
  RETURNS TABLE (generation text, n bigint, df bigint[], lexemes text[], terms int[])
  LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY WITH RECURSIVE q AS (
      SELECT * FROM unnest($1::text[], $2::boolean[], $3::int[]) WITH ORDINALITY AS q(lexeme, prefix, labels, i)
    ), e(i, prefix, lexeme) AS (
      SELECT q.i, q.lexeme, (SELECT t.lexeme FROM skill_terms t
          WHERE t.lexeme >= q.lexeme AND t.lexeme <= q.lexeme || chr(1114111) ORDER BY t.lexeme LIMIT 1)
        FROM q WHERE q.prefix
      UNION ALL
      SELECT e.i, e.prefix, (SELECT t.lexeme FROM skill_terms t
          WHERE t.lexeme > e.lexeme AND t.lexeme <= e.prefix || chr(1114111) ORDER BY t.lexeme LIMIT 1)
        FROM e WHERE e.lexeme IS NOT NULL
    ), l AS (
      SELECT q.i, q.labels, q.lexeme COLLATE "C" AS lexeme FROM q WHERE NOT q.prefix
      UNION ALL
      SELECT e.i, q.labels, e.lexeme FROM e JOIN q ON q.i = e.i
        WHERE e.lexeme IS NOT NULL AND starts_with(e.lexeme, e.prefix)
    ), counted AS (
      SELECT l.i, l.labels, l.lexeme, row_number() OVER (PARTITION BY l.i ORDER BY c.n DESC, l.lexeme COLLATE "C") AS r, c.n
      FROM l CROSS JOIN LATERAL (SELECT coalesce(sum(c.n), 0)::bigint AS n FROM skill_term_counts c
        WHERE c.lexeme = l.lexeme AND (l.labels = 0 OR c.labels & l.labels <> 0)) AS c
    )
    SELECT (SELECT sum(n) FROM skill_search_generation)::text AS generation,
      (SELECT coalesce(sum(n), 0) FROM skill_root_counts)::bigint AS n,
      ARRAY(SELECT coalesce(b.n + CASE
          WHEN (SELECT coalesce(sum(o.n), 0) FROM counted o WHERE o.i = q.i AND o.r > 1) * 16 <= b.n
          THEN (SELECT count(*) FROM (SELECT DISTINCT t.skill_seq FROM counted o
            JOIN skill_terms t ON t.lexeme = o.lexeme AND (q.labels = 0 OR t.labels & q.labels <> 0)
            WHERE o.i = q.i AND o.r > 1) AS d WHERE NOT EXISTS (SELECT 1 FROM skill_terms u
              WHERE u.lexeme = b.lexeme AND u.skill_seq = d.skill_seq AND (q.labels = 0 OR u.labels & q.labels <> 0)
              OFFSET 0))
          ELSE (SELECT count(DISTINCT t.skill_seq) FROM counted o
            JOIN skill_terms t ON t.lexeme = o.lexeme AND (q.labels = 0 OR t.labels & q.labels <> 0)
            WHERE o.i = q.i AND o.r > 1 AND NOT EXISTS (SELECT 1 FROM skill_terms u
              WHERE u.lexeme = b.lexeme AND u.skill_seq = t.skill_seq AND (q.labels = 0 OR u.labels & q.labels <> 0)))
          END, 0)
        FROM q LEFT JOIN counted b ON b.i = q.i AND b.r = 1 ORDER BY q.i) AS df,
      ARRAY(SELECT l.lexeme FROM l ORDER BY l.i, l.lexeme COLLATE "C") AS lexemes,
      ARRAY(SELECT l.i::int FROM l ORDER BY l.i, l.lexeme COLLATE "C") AS terms;
END $$;
`,
  },
  {
    version: 17,
    name: "document frequency of a short prefix from counts of each skill's runs of lexemes",
    // A prefix matches the skills holding a lexeme that starts with it. Its document frequency was its
    // most frequent lexeme's count plus the skills of its other lexemes that one lacks, found by
    // reading every row of those others: for `com` (150 lexemes) about 45,000 rows at 10,000 skills,
    // ten times that at 100,000, once per search generation and process. Now each count of
    // `skill_term_counts` also says how many characters its lexeme shares with the lexeme before it
    // among the same skill's lexemes in code-point order (`shared`, 0 for the first, at most 8:
    // `skill_term_shared`). A skill's lexemes starting with a prefix come one after another in that
    // order, and only the first of them shares fewer characters than the prefix has with the lexeme
    // before it, so for a prefix of at most 8 characters matching any field, its frequency is the sum
    // of the counts of the lexemes starting with it whose `shared` is below its length: a few rows
    // per lexeme instead of a row per skill. (Terms limited to fields, or longer prefixes, are counted
    // as before.) The counts are rebuilt from the vectors; the search-terms trigger keeps `shared`
    // (an update moves the counts by the difference of the two vectors' triples, as it did for
    // pairs). The rebuilt counts lie in key order, so a prefix's rows share a few pages, and are
    // analysed at once (the frequency statement's plan is made from their statistics). Same
    // frequencies. Safe to run again (the counts are rebuilt).
    sql: `
CREATE OR REPLACE FUNCTION skill_term_shared(lexeme text, previous text) RETURNS smallint
  LANGUAGE sql IMMUTABLE AS $$
  SELECT (CASE WHEN $2 IS NULL OR left($1, 1) <> left($2, 1) THEN 0
    WHEN left($1, 2) <> left($2, 2) THEN 1 WHEN left($1, 3) <> left($2, 3) THEN 2
    WHEN left($1, 4) <> left($2, 4) THEN 3 WHEN left($1, 5) <> left($2, 5) THEN 4
    WHEN left($1, 6) <> left($2, 6) THEN 5 WHEN left($1, 7) <> left($2, 7) THEN 6
    WHEN left($1, 8) <> left($2, 8) THEN 7 ELSE 8 END)::smallint
$$;
TRUNCATE skill_term_counts;
ALTER TABLE skill_term_counts DROP CONSTRAINT IF EXISTS skill_term_counts_pkey;
ALTER TABLE skill_term_counts ADD COLUMN IF NOT EXISTS shared smallint NOT NULL;
SET LOCAL work_mem = '256MB';
INSERT INTO skill_term_counts (lexeme, labels, shared, shard, n)
  SELECT u.lexeme, skill_term_labels(u.weights), skill_term_shared(u.lexeme, u.previous), (s.seq % 64)::smallint, count(*)
  FROM skills s CROSS JOIN LATERAL (SELECT v.lexeme COLLATE "C" AS lexeme, v.weights,
      lag(v.lexeme COLLATE "C") OVER (ORDER BY v.lexeme COLLATE "C") AS previous FROM unnest(s.search) AS v) AS u
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
ALTER TABLE skill_term_counts ADD PRIMARY KEY (lexeme, labels, shared, shard);
ANALYZE skill_term_counts;
CREATE OR REPLACE FUNCTION skill_terms_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH added AS (
      INSERT INTO skill_terms (lexeme, skill_seq, rank, labels)
        SELECT u.lexeme, NEW.seq, skill_term_rank(u.positions, u.weights), skill_term_labels(u.weights)
        FROM unnest(NEW.search) AS u
      RETURNING lexeme, labels)
    INSERT INTO skill_term_counts (lexeme, labels, shared, shard, n)
      SELECT a.lexeme, a.labels, skill_term_shared(a.lexeme, a.previous), NEW.seq % 64, 1
      FROM (SELECT lexeme, labels, lag(lexeme) OVER (ORDER BY lexeme) AS previous FROM added) AS a
      ORDER BY 1, 2, 3
      ON CONFLICT (lexeme, labels, shared, shard) DO UPDATE SET n = skill_term_counts.n + 1;
  ELSIF TG_OP = 'DELETE' THEN
    DELETE FROM skill_terms WHERE lexeme = ANY(tsvector_to_array(OLD.search)) AND skill_seq = OLD.seq;
    UPDATE skill_term_counts c SET n = c.n - 1
      FROM (SELECT o.lexeme, skill_term_labels(o.weights) AS labels, skill_term_shared(o.lexeme, o.previous) AS shared
        FROM (SELECT u.lexeme COLLATE "C" AS lexeme, u.weights,
            lag(u.lexeme COLLATE "C") OVER (ORDER BY u.lexeme COLLATE "C") AS previous
          FROM unnest(OLD.search) AS u) AS o) AS gone
      WHERE c.lexeme = gone.lexeme AND c.labels = gone.labels AND c.shared = gone.shared AND c.shard = OLD.seq % 64;
  ELSE
    DELETE FROM skill_terms WHERE skill_seq = OLD.seq AND lexeme = ANY(ARRAY(
      SELECT o.lexeme FROM unnest(OLD.search) AS o EXCEPT SELECT n.lexeme FROM unnest(NEW.search) AS n));
    INSERT INTO skill_terms (lexeme, skill_seq, rank, labels)
      SELECT n.lexeme, NEW.seq, skill_term_rank(n.positions, n.weights), skill_term_labels(n.weights)
      FROM unnest(NEW.search) AS n LEFT JOIN unnest(OLD.search) AS o ON o.lexeme = n.lexeme
      WHERE o.weights IS DISTINCT FROM n.weights
      ON CONFLICT (lexeme, skill_seq) DO UPDATE SET rank = EXCLUDED.rank, labels = EXCLUDED.labels;
    -- The counts move by the difference of the two vectors' (lexeme, labels, shared) triples.
    INSERT INTO skill_term_counts (lexeme, labels, shared, shard, n)
      SELECT lexeme, labels, shared, shard, sum(d) FROM (
        SELECT o.lexeme, skill_term_labels(o.weights) AS labels, skill_term_shared(o.lexeme, o.previous) AS shared,
          OLD.seq % 64 AS shard, -1 AS d
        FROM (SELECT u.lexeme COLLATE "C" AS lexeme, u.weights,
            lag(u.lexeme COLLATE "C") OVER (ORDER BY u.lexeme COLLATE "C") AS previous
          FROM unnest(OLD.search) AS u) AS o
        UNION ALL
        SELECT n.lexeme, skill_term_labels(n.weights), skill_term_shared(n.lexeme, n.previous), NEW.seq % 64, 1
        FROM (SELECT u.lexeme COLLATE "C" AS lexeme, u.weights,
            lag(u.lexeme COLLATE "C") OVER (ORDER BY u.lexeme COLLATE "C") AS previous
          FROM unnest(NEW.search) AS u) AS n) AS x
      GROUP BY lexeme, labels, shared, shard HAVING sum(d) <> 0 ORDER BY lexeme, labels, shared, shard
      ON CONFLICT (lexeme, labels, shared, shard) DO UPDATE SET n = skill_term_counts.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION skill_term_frequencies(text[], boolean[], int[])
  RETURNS TABLE (generation text, n bigint, df bigint[], lexemes text[], terms int[])
  LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY WITH RECURSIVE q AS (
      SELECT q.*, q.prefix AND q.labels = 0 AND char_length(q.lexeme) <= 8 AS by_runs
      FROM unnest($1::text[], $2::boolean[], $3::int[]) WITH ORDINALITY AS q(lexeme, prefix, labels, i)
    ), e(i, prefix, lexeme) AS (
      SELECT q.i, q.lexeme, (SELECT t.lexeme FROM skill_terms t
          WHERE t.lexeme >= q.lexeme AND t.lexeme <= q.lexeme || chr(1114111) ORDER BY t.lexeme LIMIT 1)
        FROM q WHERE q.prefix
      UNION ALL
      SELECT e.i, e.prefix, (SELECT t.lexeme FROM skill_terms t
          WHERE t.lexeme > e.lexeme AND t.lexeme <= e.prefix || chr(1114111) ORDER BY t.lexeme LIMIT 1)
        FROM e WHERE e.lexeme IS NOT NULL
    ), l AS (
      SELECT q.i, q.labels, q.lexeme COLLATE "C" AS lexeme FROM q WHERE NOT q.prefix
      UNION ALL
      SELECT e.i, q.labels, e.lexeme FROM e JOIN q ON q.i = e.i
        WHERE e.lexeme IS NOT NULL AND starts_with(e.lexeme, e.prefix)
    ), counted AS (
      SELECT l.i, l.labels, l.lexeme, row_number() OVER (PARTITION BY l.i ORDER BY c.n DESC, l.lexeme COLLATE "C") AS r, c.n
      FROM l JOIN q ON q.i = l.i AND NOT q.by_runs
      CROSS JOIN LATERAL (SELECT coalesce(sum(c.n), 0)::bigint AS n FROM skill_term_counts c
        WHERE c.lexeme = l.lexeme AND (l.labels = 0 OR c.labels & l.labels <> 0)) AS c
    )
    SELECT (SELECT sum(n) FROM skill_search_generation)::text AS generation,
      (SELECT coalesce(sum(n), 0) FROM skill_root_counts)::bigint AS n,
      ARRAY(SELECT CASE WHEN q.by_runs
          THEN (SELECT coalesce(sum(c.n), 0)::bigint FROM skill_term_counts c
            WHERE c.lexeme >= q.lexeme AND c.lexeme <= q.lexeme || chr(1114111) AND starts_with(c.lexeme, q.lexeme)
              AND c.shared < char_length(q.lexeme))
          ELSE coalesce(b.n + CASE
          WHEN (SELECT coalesce(sum(o.n), 0) FROM counted o WHERE o.i = q.i AND o.r > 1) * 16 <= b.n
          THEN (SELECT count(*) FROM (SELECT DISTINCT t.skill_seq FROM counted o
            JOIN skill_terms t ON t.lexeme = o.lexeme AND (q.labels = 0 OR t.labels & q.labels <> 0)
            WHERE o.i = q.i AND o.r > 1) AS d WHERE NOT EXISTS (SELECT 1 FROM skill_terms u
              WHERE u.lexeme = b.lexeme AND u.skill_seq = d.skill_seq AND (q.labels = 0 OR u.labels & q.labels <> 0)
              OFFSET 0))
          ELSE (SELECT count(DISTINCT t.skill_seq) FROM counted o
            JOIN skill_terms t ON t.lexeme = o.lexeme AND (q.labels = 0 OR t.labels & q.labels <> 0)
            WHERE o.i = q.i AND o.r > 1 AND NOT EXISTS (SELECT 1 FROM skill_terms u
              WHERE u.lexeme = b.lexeme AND u.skill_seq = t.skill_seq AND (q.labels = 0 OR u.labels & q.labels <> 0)))
          END, 0) END
        FROM q LEFT JOIN counted b ON b.i = q.i AND b.r = 1 ORDER BY q.i) AS df,
      ARRAY(SELECT l.lexeme FROM l ORDER BY l.i, l.lexeme COLLATE "C") AS lexemes,
      ARRAY(SELECT l.i::int FROM l ORDER BY l.i, l.lexeme COLLATE "C") AS terms;
END $$;
`,
  },
  {
    version: 18,
    name: 'named skills and search generation planned once per connection',
    // A find not answered from kept rankings first reads the search generation and the skills whose
    // name is the query (`search/postgres-search.ts`). As a prepared statement it was planned again on
    // every call (~0.1–0.2 ms of backend CPU, several times its run): its generic plan, the same index
    // lookup, never looked cheaper than a plan for the arrays at hand. In a plpgsql function under
    // `force_generic_plan` it is planned once per connection. Same rows. Safe to run again.
    sql: `
CREATE OR REPLACE FUNCTION skill_find_named(text, text[], text[])
  RETURNS TABLE (generation text, seq bigint, name text, root_uri text)
  LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT g.generation, s.seq, s.name::text, s.root_uri::text
    FROM (SELECT sum(n)::text AS generation FROM skill_search_generation) AS g
    LEFT JOIN skills s ON s.account_id = $1 AND lower(s.name) = ANY($2) AND s.root_uri = ANY($3);
END $$;
`,
  },
  {
    version: 19,
    name: "find's probes of candidate rows planned once per connection",
    // `find` ranks its candidates in the server process from the rows it read of them and, for the
    // others, one primary-key probe of `skill_terms` per lexeme and candidate
    // (`search/postgres-search.ts`). As a prepared statement the probes were planned again on every
    // call: the arrays' sizes are known to a custom plan only, so the generic plan (the same index
    // lookups) never looked cheaper. In a plpgsql function under `force_generic_plan` they are planned
    // once per connection. Per lexeme ($1) and its array literal of skills ($2): the rows found, as
    // comma-separated `seq rank labels` text (`float8` text is exact), with the lexeme's position.
    // Nothing is stored: no cost to a write. Safe to run again.
    sql: `
CREATE OR REPLACE FUNCTION skill_find_probed_rows(text[], text[])
  RETURNS TABLE (list int, probed text)
  LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT l.n::int, x.probed
    FROM unnest($1, $2) WITH ORDINALITY AS l(lexeme, seqs, n)
    CROSS JOIN LATERAL (SELECT string_agg(t.skill_seq::text || ' ' || t.rank::text || ' ' || t.labels::text, ',') AS probed
      FROM skill_terms t WHERE t.lexeme = l.lexeme AND t.skill_seq = ANY(l.seqs::bigint[])) AS x
    WHERE x.probed IS NOT NULL;
END $$;
`,
  },
  {
    version: 20,
    name: "find's probes of candidate rows as lookups of both key columns",
    // Migration 19's probes gave each lexeme its skills as one array (`skill_seq = ANY(...)`): its
    // generic plan, made from the statistics of a registry whose lexemes have few rows (10,000
    // skills), read every row of the lexeme and filtered them by that array (~40 ms of backend CPU per
    // find instead of ~4). Each probe is now a pair of a lexeme's position ($2) and a skill ($3), and
    // an equality on both columns of the primary key, which every plan looks up directly, whatever
    // the statistics. Same rows, grouped per lexeme. Nothing is stored. Migration 19's function stays
    // (another overload) for replicas of the build before while they are replaced. Safe to run again.
    sql: `
CREATE OR REPLACE FUNCTION skill_find_probed_rows(text[], int[], bigint[])
  RETURNS TABLE (list int, probed text)
  LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT p.n, string_agg(t.skill_seq::text || ' ' || t.rank::text || ' ' || t.labels::text, ',')
    FROM unnest($2, $3) AS p(n, seq)
    CROSS JOIN LATERAL (SELECT t.skill_seq, t.rank, t.labels FROM skill_terms t
      WHERE t.lexeme = $1[p.n] AND t.skill_seq = p.seq) AS t
    GROUP BY p.n;
END $$;
`,
  },
  {
    version: 21,
    name: 'fair order of processing jobs',
    // As SQLite's version 19: a new job takes a `fair_round` (the round of a round robin over the
    // owners' lanes, one per user and `priority`, in which it runs) and jobs run by round, a round's
    // waiting writes (`priority` 0) first, so one user's bulk backlog no longer holds up other users'
    // writes, nor that user's own write that waits. Retries and released jobs (`fair_round` NULL) run
    // in `run_at` order first. Adding the columns rewrites nothing (a constant default). Replicas of
    // the build before keep working while they are replaced: their jobs (no `fair_round`) run in
    // `run_at` order; their claims still read `tasks_runnable` (kept for them) and take the oldest
    // job, fair or not — every job still runs once, under a lease; only their picks ignore fairness.
    // Safe to run again.
    sql: `
ALTER TABLE tasks ADD COLUMN IF NOT EXISTS priority smallint NOT NULL DEFAULT 1;
ALTER TABLE tasks ADD COLUMN IF NOT EXISTS fair_round bigint;
CREATE INDEX IF NOT EXISTS tasks_retry_due ON tasks (run_at, seq) WHERE status = 'pending' AND fair_round IS NULL;
CREATE INDEX IF NOT EXISTS tasks_fair_order ON tasks (fair_round, priority, seq)
  WHERE status = 'pending' AND fair_round IS NOT NULL;
CREATE INDEX IF NOT EXISTS tasks_fair_lane ON tasks (account_id, user_id, priority, fair_round)
  WHERE status = 'pending' AND fair_round IS NOT NULL;
`,
  },
  {
    version: 22,
    name: 'search-term counts of a write kept as one pending row, folded in batches',
    // Every add updated ~300 rows of `skill_term_counts` (one per lexeme of the skill) in its own
    // transaction: an index probe, a row lock and a new row version each, about a fifth of
    // PostgreSQL's CPU per add of a corpus SKILL.md. A write now records its change of the counts as
    // one row of `skill_term_count_deltas` (the skill's (lexeme, labels, shared) triples as arrays,
    // with a sign: +1 added, -1 removed; an update writes a row of each sign for the triples that
    // differ), and a fold (`skill_term_counts_fold`, run by the server every few dozen writes and
    // while idle, one at a time) moves a batch of them into `skill_term_counts` in one transaction:
    // a triple several skills share is updated once per batch, not once per skill. The counts are
    // gathered into shard 0, one row per triple (only the sum of a triple's shards is read, and only
    // the fold writes them now, so it finds the row it updates, and a find sums one row instead of up
    // to 64), rebuilt in key order and analysed as version 17 did; folds add to shard 0. A count is
    // its rows' sum plus its pending rows' signs: `skill_term_frequencies` reads both in one snapshot
    // (a pending row's lexemes are sorted in code-point order, so a lexeme, or the run of a prefix's
    // lexemes, is found in it by binary search: `width_bucket`), and a fold deletes the rows it adds
    // in the same transaction, so the frequencies stay exact at every moment (same figures as
    // before). Pending rows are kept inline up to a page (`toast_tuple_target`), uncompressed, and
    // vacuumed after every few hundred folded (finds scan the table). Replicas of the build before
    // keep working while they are replaced: the triggers and the frequency function live in the
    // database, so their writes and finds use the new ones; only the folds are this build's (until
    // one runs, finds read the pending rows, exactly, at a cost growing with their number). While
    // this step runs, the rebuild holds the counts' table: writes and new-term finds wait for it.
    // Safe to run again (pending rows kept, counts summed again).
    sql: `
CREATE TABLE IF NOT EXISTS skill_term_count_deltas (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  sign smallint NOT NULL,
  lexemes text[] COLLATE "C" NOT NULL,
  labels smallint[] NOT NULL,
  shared smallint[] NOT NULL
) WITH (toast_tuple_target = 8160, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 256);
ALTER TABLE skill_term_count_deltas ALTER COLUMN lexemes SET STORAGE EXTERNAL;
ALTER TABLE skill_term_count_deltas ALTER COLUMN labels SET STORAGE EXTERNAL;
ALTER TABLE skill_term_count_deltas ALTER COLUMN shared SET STORAGE EXTERNAL;
SET LOCAL work_mem = '256MB';
CREATE TEMPORARY TABLE skill_term_counts_summed ON COMMIT DROP AS
  SELECT lexeme, labels, shared, sum(n)::bigint AS n FROM skill_term_counts GROUP BY 1, 2, 3;
TRUNCATE skill_term_counts;
INSERT INTO skill_term_counts (lexeme, labels, shared, shard, n)
  SELECT lexeme, labels, shared, 0, n FROM skill_term_counts_summed WHERE n <> 0 ORDER BY 1, 2, 3;
ANALYZE skill_term_counts;
CREATE OR REPLACE FUNCTION skill_term_triples(v tsvector)
  RETURNS TABLE (lexeme text, labels smallint, shared smallint) LANGUAGE sql IMMUTABLE AS $$
  SELECT o.lexeme, skill_term_labels(o.weights), skill_term_shared(o.lexeme, o.previous)
  FROM (SELECT u.lexeme COLLATE "C" AS lexeme, u.weights,
      lag(u.lexeme COLLATE "C") OVER (ORDER BY u.lexeme COLLATE "C") AS previous
    FROM unnest($1) AS u) AS o
$$;
CREATE OR REPLACE FUNCTION skill_terms_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH added AS (
      INSERT INTO skill_terms (lexeme, skill_seq, rank, labels)
        SELECT u.lexeme, NEW.seq, skill_term_rank(u.positions, u.weights), skill_term_labels(u.weights)
        FROM unnest(NEW.search) AS u
      RETURNING lexeme, labels)
    INSERT INTO skill_term_count_deltas (sign, lexemes, labels, shared)
      SELECT 1, array_agg(a.lexeme ORDER BY a.lexeme COLLATE "C"),
        array_agg(a.labels ORDER BY a.lexeme COLLATE "C"),
        array_agg(skill_term_shared(a.lexeme, a.previous) ORDER BY a.lexeme COLLATE "C")
      FROM (SELECT lexeme, labels, lag(lexeme) OVER (ORDER BY lexeme) AS previous FROM added) AS a
      HAVING count(*) > 0;
  ELSIF TG_OP = 'DELETE' THEN
    DELETE FROM skill_terms WHERE lexeme = ANY(tsvector_to_array(OLD.search)) AND skill_seq = OLD.seq;
    INSERT INTO skill_term_count_deltas (sign, lexemes, labels, shared)
      SELECT -1, array_agg(o.lexeme ORDER BY o.lexeme COLLATE "C"), array_agg(o.labels ORDER BY o.lexeme COLLATE "C"),
        array_agg(o.shared ORDER BY o.lexeme COLLATE "C")
      FROM skill_term_triples(OLD.search) AS o HAVING count(*) > 0;
  ELSE
    DELETE FROM skill_terms WHERE skill_seq = OLD.seq AND lexeme = ANY(ARRAY(
      SELECT o.lexeme FROM unnest(OLD.search) AS o EXCEPT SELECT n.lexeme FROM unnest(NEW.search) AS n));
    INSERT INTO skill_terms (lexeme, skill_seq, rank, labels)
      SELECT n.lexeme, NEW.seq, skill_term_rank(n.positions, n.weights), skill_term_labels(n.weights)
      FROM unnest(NEW.search) AS n LEFT JOIN unnest(OLD.search) AS o ON o.lexeme = n.lexeme
      WHERE o.weights IS DISTINCT FROM n.weights
      ON CONFLICT (lexeme, skill_seq) DO UPDATE SET rank = EXCLUDED.rank, labels = EXCLUDED.labels;
    -- The counts move by the difference of the two vectors' triples (a lexeme's triple is unique in
    -- a vector): the old ones the new vector lacks leave, the new ones the old vector lacked come.
    WITH o AS (SELECT * FROM skill_term_triples(OLD.search)), n AS (SELECT * FROM skill_term_triples(NEW.search)),
      d AS ((SELECT -1 AS sign, * FROM (SELECT * FROM o EXCEPT SELECT * FROM n) AS gone)
        UNION ALL (SELECT 1, * FROM (SELECT * FROM n EXCEPT SELECT * FROM o) AS came))
    INSERT INTO skill_term_count_deltas (sign, lexemes, labels, shared)
      SELECT d.sign, array_agg(d.lexeme ORDER BY d.lexeme COLLATE "C"), array_agg(d.labels ORDER BY d.lexeme COLLATE "C"),
        array_agg(d.shared ORDER BY d.lexeme COLLATE "C")
      FROM d GROUP BY d.sign ORDER BY d.sign;
  END IF;
  RETURN NULL;
END $$;
-- Folds up to $1 pending rows, oldest first, into the counts; the number folded, or -1 when another
-- fold holds the lock (one fold at a time: only folds write the counts, so none waits on a row).
CREATE OR REPLACE FUNCTION skill_term_counts_fold(int) RETURNS int
  LANGUAGE plpgsql AS $$
DECLARE
  folded int;
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtextextended('skillport term counts fold ' || current_schema(), 0)) THEN
    RETURN -1;
  END IF;
  WITH gone AS (
    DELETE FROM skill_term_count_deltas WHERE id IN (
      SELECT id FROM skill_term_count_deltas ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
    RETURNING sign, lexemes, labels, shared
  ), moved AS (
    INSERT INTO skill_term_counts (lexeme, labels, shared, shard, n)
      SELECT u.lexeme, u.labels, u.shared, 0, sum(g.sign)
      FROM gone AS g CROSS JOIN LATERAL unnest(g.lexemes, g.labels, g.shared) AS u(lexeme, labels, shared)
      GROUP BY 1, 2, 3 HAVING sum(g.sign) <> 0 ORDER BY 1, 2, 3
      ON CONFLICT (lexeme, labels, shared, shard) DO UPDATE SET n = skill_term_counts.n + EXCLUDED.n
  )
  SELECT count(*) INTO folded FROM gone;
  RETURN folded;
END $$;
CREATE OR REPLACE FUNCTION skill_term_frequencies(text[], boolean[], int[])
  RETURNS TABLE (generation text, n bigint, df bigint[], lexemes text[], terms int[])
  LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY WITH RECURSIVE q AS (
      SELECT q.*, q.prefix AND q.labels = 0 AND char_length(q.lexeme) <= 8 AS by_runs
      FROM unnest($1::text[], $2::boolean[], $3::int[]) WITH ORDINALITY AS q(lexeme, prefix, labels, i)
    ), e(i, prefix, lexeme) AS (
      SELECT q.i, q.lexeme, (SELECT t.lexeme FROM skill_terms t
          WHERE t.lexeme >= q.lexeme AND t.lexeme <= q.lexeme || chr(1114111) ORDER BY t.lexeme LIMIT 1)
        FROM q WHERE q.prefix
      UNION ALL
      SELECT e.i, e.prefix, (SELECT t.lexeme FROM skill_terms t
          WHERE t.lexeme > e.lexeme AND t.lexeme <= e.prefix || chr(1114111) ORDER BY t.lexeme LIMIT 1)
        FROM e WHERE e.lexeme IS NOT NULL
    ), l AS (
      SELECT q.i, q.labels, q.lexeme COLLATE "C" AS lexeme FROM q WHERE NOT q.prefix
      UNION ALL
      SELECT e.i, q.labels, e.lexeme FROM e JOIN q ON q.i = e.i
        WHERE e.lexeme IS NOT NULL AND starts_with(e.lexeme, e.prefix)
    ), counted AS (
      SELECT l.i, l.labels, l.lexeme, row_number() OVER (PARTITION BY l.i ORDER BY c.n DESC, l.lexeme COLLATE "C") AS r, c.n
      FROM l JOIN q ON q.i = l.i AND NOT q.by_runs
      CROSS JOIN LATERAL (SELECT (coalesce(sum(c.n), 0) + (SELECT coalesce(sum(d.sign), 0)
          FROM skill_term_count_deltas d CROSS JOIN LATERAL (SELECT width_bucket(l.lexeme, d.lexemes) AS k) AS p
          WHERE p.k > 0 AND d.lexemes[p.k] = l.lexeme AND (l.labels = 0 OR d.labels[p.k] & l.labels <> 0)))::bigint AS n
        FROM skill_term_counts c
        WHERE c.lexeme = l.lexeme AND (l.labels = 0 OR c.labels & l.labels <> 0)) AS c
    )
    SELECT (SELECT sum(n) FROM skill_search_generation)::text AS generation,
      (SELECT coalesce(sum(n), 0) FROM skill_root_counts)::bigint AS n,
      ARRAY(SELECT CASE WHEN q.by_runs
          THEN ((SELECT coalesce(sum(c.n), 0) FROM skill_term_counts c
            WHERE c.lexeme >= q.lexeme AND c.lexeme <= q.lexeme || chr(1114111) AND starts_with(c.lexeme, q.lexeme)
              AND c.shared < char_length(q.lexeme))
            + (SELECT coalesce(sum(d.sign * (SELECT count(*) FROM unnest(d.lexemes[r.first:r.last], d.shared[r.first:r.last])
                  AS u(lexeme, shared) WHERE starts_with(u.lexeme, q.lexeme) AND u.shared < char_length(q.lexeme))), 0)
              FROM skill_term_count_deltas d
              CROSS JOIN LATERAL (SELECT width_bucket(q.lexeme COLLATE "C", d.lexemes) AS first,
                width_bucket((q.lexeme || chr(1114111)) COLLATE "C", d.lexemes) AS last) AS r))::bigint
          ELSE coalesce(b.n + CASE
          WHEN (SELECT coalesce(sum(o.n), 0) FROM counted o WHERE o.i = q.i AND o.r > 1) * 16 <= b.n
          THEN (SELECT count(*) FROM (SELECT DISTINCT t.skill_seq FROM counted o
            JOIN skill_terms t ON t.lexeme = o.lexeme AND (q.labels = 0 OR t.labels & q.labels <> 0)
            WHERE o.i = q.i AND o.r > 1) AS d WHERE NOT EXISTS (SELECT 1 FROM skill_terms u
              WHERE u.lexeme = b.lexeme AND u.skill_seq = d.skill_seq AND (q.labels = 0 OR u.labels & q.labels <> 0)
              OFFSET 0))
          ELSE (SELECT count(DISTINCT t.skill_seq) FROM counted o
            JOIN skill_terms t ON t.lexeme = o.lexeme AND (q.labels = 0 OR t.labels & q.labels <> 0)
            WHERE o.i = q.i AND o.r > 1 AND NOT EXISTS (SELECT 1 FROM skill_terms u
              WHERE u.lexeme = b.lexeme AND u.skill_seq = t.skill_seq AND (q.labels = 0 OR u.labels & q.labels <> 0)))
          END, 0) END
        FROM q LEFT JOIN counted b ON b.i = q.i AND b.r = 1 ORDER BY q.i) AS df,
      ARRAY(SELECT l.lexeme FROM l ORDER BY l.i, l.lexeme COLLATE "C") AS lexemes,
      ARRAY(SELECT l.i::int FROM l ORDER BY l.i, l.lexeme COLLATE "C") AS terms;
END $$;
`,
  },
];

/** The schema version this build writes. */
export const POSTGRES_SCHEMA_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/**
 * Key of the advisory lock held while migrating: one per database (not per schema), because
 * `CREATE EXTENSION` is database-wide and two schemas migrating at once would race on it.
 */
const MIGRATION_LOCK = [0x736b696c, 0x6d696772] as const; // 'skil', 'migr'

/**
 * Brings `schema` to {@link POSTGRES_SCHEMA_VERSION}. Safe when several replicas start together: the
 * steps run under a database-wide advisory lock, so exactly one process applies each step and the
 * others find it applied. Creates the schema and the `pg_trgm` extension when missing.
 *
 * @param client - a connected client whose `search_path` starts with `schema`
 * @param schema - the (checked) schema name
 * @returns the versions applied now (empty when already current) and the schema of `pg_trgm`
 * @throws Error when the schema was written by a newer build, or when `pg_trgm` is missing and the
 *   role may not create it
 */
export async function applyPostgresMigrations(
  client: pg.ClientBase,
  schema: string,
): Promise<{ applied: number[]; trigramSchema: string }> {
  // A step may rebuild derived data of the whole registry (version 4 fills `skill_terms` from every
  // skill), and a replica waits for another's steps: neither is cut short by the statement timeout.
  const { rows: timeoutRows } = await client.query<{ statement_timeout: string }>('SHOW statement_timeout');
  const timeout = timeoutRows[0]?.statement_timeout ?? '0';
  await client.query('SET statement_timeout = 0');
  await client.query('SELECT pg_advisory_lock($1, $2)', [...MIGRATION_LOCK]);
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    const trigramSchema = await ensureTrigram(client);
    await client.query(
      `CREATE TABLE IF NOT EXISTS "${schema}".skillport_migrations (
         version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)`,
    );
    const { rows } = await client.query<{ v: number | null }>(
      `SELECT max(version) AS v FROM "${schema}".skillport_migrations`,
    );
    const current = rows[0]?.v ?? 0;
    if (current > POSTGRES_SCHEMA_VERSION) {
      throw new Error(
        `PostgreSQL schema "${schema}" is at version ${current}, newer than this server understands ` +
          `(${POSTGRES_SCHEMA_VERSION}); upgrade the server or use another schema`,
      );
    }
    const applied: number[] = [];
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      await client.query('BEGIN');
      try {
        await client.query(`SET LOCAL search_path = "${schema}", "${trigramSchema}"`);
        await client.query(migration.sql);
        await client.query(
          `INSERT INTO "${schema}".skillport_migrations (version, name, applied_at) VALUES ($1, $2, $3)`,
          [migration.version, migration.name, Date.now()],
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
      applied.push(migration.version);
    }
    return { applied, trigramSchema };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1, $2)', [...MIGRATION_LOCK]);
    await client.query(`SET statement_timeout = '${timeout.replaceAll("'", "''")}'`);
  }
}

/** The schema of `pg_trgm`, installing it into `public` when the database lacks it. */
async function ensureTrigram(client: pg.ClientBase): Promise<string> {
  const find = async (): Promise<string | undefined> => {
    const { rows } = await client.query<{ nspname: string }>(
      `SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
       WHERE e.extname = 'pg_trgm'`,
    );
    return rows[0]?.nspname;
  };
  const existing = await find();
  if (existing !== undefined) return existing;
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public');
  } catch (error) {
    throw new Error(
      `PostgreSQL: the pg_trgm extension is missing and could not be created (${(error as Error).message}); ` +
        'ask a database owner to run: CREATE EXTENSION pg_trgm;',
    );
  }
  return (await find()) ?? 'public';
}

/** The highest applied migration of `schema` (0 when none), for readiness checks. */
export async function currentPostgresVersion(
  client: pg.ClientBase | pg.Pool,
  schema: string,
): Promise<number> {
  const { rows } = await client.query<{ v: number | null }>(
    `SELECT max(version) AS v FROM "${schema}".skillport_migrations`,
  );
  return rows[0]?.v ?? 0;
}
