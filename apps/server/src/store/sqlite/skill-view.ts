import { skillJsonOfView, skillResultJson, viewOptionsFor, wantsOverview } from '../skill-json.js';
import { OVERVIEW_SHA_COLUMN, STAMP_COLUMNS, type StampedColumns, skillStamp } from '../skill-stamp.js';
import type {
  SkillFileKind,
  SkillJsonRead,
  SkillJsonRequest,
  SkillRevisionState,
  SkillView,
  SkillViewOptions,
  StoredFile,
} from '../types.js';
import type { Connection } from './connection.js';
import { type SkillRow, toSkillRecord } from './rows.js';

/** Every column of `skills` but `overview` and `body` (chosen per request, see {@link bodyColumn}). */
const COLUMNS = `s.seq, s.id, s.account_id, s.root_uri, s.name, s.description, s.tags, s.allowed_tools,
  s.source_metadata, s.revision, s.overview_revision, s.created_at, s.updated_at, s.frontmatter`;

/** The columns of `skills` of a size set by their writer (the texts of SKILL.md, the source metadata). */
const SIZED_COLUMNS = ['description', 'tags', 'allowed_tools', 'source_metadata', 'frontmatter'] as const;

/** The columns of `skills` of a bounded size (ids, name, root, revisions, times). */
const FIXED_COLUMNS =
  's.seq, s.id, s.account_id, s.root_uri, s.name, s.revision, s.overview_revision, s.created_at, s.updated_at';

/**
 * The most a read of {@link readSkillJsonWithin} may copy out of the database: the stored bytes of the
 * skill row's texts (description, tags, allowed tools, source metadata, frontmatter, overview) plus
 * those of the file contents asked for, and the files listed.
 */
export interface ReadBound {
  /** Stored bytes, all of them together. */
  bytes: number;
  /** Files in the file list (when it is asked for). */
  files: number;
}

/** The live files of `s`, by path, as one JSON array of `[path, kind, size, sha256, executable]`. */
const FILES_JSON = `(SELECT json_group_array(json_array(f.path, f.kind, f.size, f.sha256, f.executable)) FROM
  (SELECT path, kind, size, sha256, executable FROM skill_files WHERE skill_seq = s.seq ORDER BY path) AS f) AS files_json`;

function bodyColumn(mode: SkillViewOptions['body']): string {
  if (mode === 'always') return 's.body';
  // `body` is the last column: when the CASE does not need it, its overflow pages are never read.
  if (mode === 'without-overview') return "CASE WHEN s.overview IS NULL THEN s.body ELSE '' END AS body";
  return "'' AS body";
}

/**
 * The statement for one shape of request (`contents` file joins) and one root. Parameters, in text
 * order: the content paths, account id, root, name. One root per statement: an `IN (roots) ORDER BY
 * preference` form sorts through a temporary B-tree and costs ~2.5× a direct unique-index probe.
 */
function viewSql(
  contents: number,
  options: SkillViewOptions,
  overviewBytes: boolean,
  bound: ReadBound | null = null,
): string {
  const key = `${contents}/${options.listFiles}/${options.body}/${overviewBytes}/${bound?.bytes}/${bound?.files}`;
  let sql = sqlByShape.get(key);
  if (sql === undefined) {
    sql =
      bound === null
        ? buildViewSql(contents, options, overviewBytes)
        : buildBoundedSql(contents, options, overviewBytes, bound);
    sqlByShape.set(key, sql);
  }
  return sql;
}

/** SQL text per request shape (a handful: content count × file list × body mode). */
const sqlByShape = new Map<string, string>();

function buildViewSql(contents: number, options: SkillViewOptions, overviewBytes: boolean): string {
  // The overview as its stored UTF-8 bytes (`CAST … AS BLOB` returns them as stored): written into a
  // get's JSON without being decoded into a string, escaped on V8's slow path and encoded again.
  const select = [
    COLUMNS,
    overviewBytes ? 'CAST(s.overview AS BLOB) AS overview' : 's.overview',
    OVERVIEW_SHA_COLUMN,
    bodyColumn(options.body),
  ];
  const joins: string[] = [];
  for (let i = 0; i < contents; i++) {
    select.push(`f${i}.kind AS k${i}, f${i}.size AS z${i}, f${i}.sha256 AS h${i}, b${i}.content AS c${i}`);
    joins.push(
      `LEFT JOIN skill_files f${i} ON f${i}.skill_seq = s.seq AND f${i}.path = ?`,
      `LEFT JOIN blobs b${i} ON b${i}.sha256 = f${i}.sha256`,
    );
  }
  if (options.listFiles) select.push(FILES_JSON);
  return `SELECT ${select.join(', ')} FROM skills s ${joins.join(' ')}
    WHERE s.account_id = ? AND s.root_uri = ? AND s.name = ?`;
}

/**
 * {@link buildViewSql} (no body; the overview as bytes with `overview`, else `X''` for a stored one)
 * for a read that must stay within `bound`: a `within` column (1 or 0) compares the stored sizes with
 * the bound — `octet_length` of a stored text and the `size` of a file row are read from record
 * headers, never from the values — and every column of a writer-set size is read only when `within`
 * holds (else null), so a skill past the bound costs a read of its headers, not of its contents.
 */
function buildBoundedSql(
  contents: number,
  options: SkillViewOptions,
  overview: boolean,
  bound: ReadBound,
): string {
  const sizes = SIZED_COLUMNS.map((column) => `coalesce(octet_length(s.${column}), 0)`);
  if (overview) sizes.push('coalesce(octet_length(s.overview), 0)');
  for (let i = 0; i < contents; i++) sizes.push(`coalesce(f${i}.size, 0)`);
  const small = `(${sizes.join(' + ')}) <= ${Math.floor(bound.bytes)}`;
  // The files counted only up to one past the bound: a skill with many costs no more than one at it.
  const files = Math.floor(bound.files);
  const within = options.listFiles
    ? `${small} AND (SELECT count(*) FROM (SELECT 1 FROM skill_files WHERE skill_seq = s.seq LIMIT ${files + 1})) <= ${files}`
    : small;
  const only = (value: string, as: string) => `CASE WHEN ${small} THEN ${value} END AS ${as}`;
  const select = [
    FIXED_COLUMNS,
    ...SIZED_COLUMNS.map((column) => only(`s.${column}`, column)),
    `(${within}) AS within`,
    // Null for none, as stored; else its bytes when asked for and within the bound, else X''.
    overview
      ? `CASE WHEN s.overview IS NULL THEN NULL WHEN ${small} THEN CAST(s.overview AS BLOB) ELSE X'' END AS overview`
      : "CASE WHEN s.overview IS NULL THEN NULL ELSE X'' END AS overview",
    OVERVIEW_SHA_COLUMN,
    "'' AS body",
  ];
  const joins: string[] = [];
  for (let i = 0; i < contents; i++) {
    select.push(
      `f${i}.kind AS k${i}, f${i}.size AS z${i}, f${i}.sha256 AS h${i}, ${only(`b${i}.content`, `c${i}`)}`,
    );
    joins.push(
      `LEFT JOIN skill_files f${i} ON f${i}.skill_seq = s.seq AND f${i}.path = ?`,
      `LEFT JOIN blobs b${i} ON b${i}.sha256 = f${i}.sha256`,
    );
  }
  if (options.listFiles) {
    select.push(`CASE WHEN ${within} THEN ${FILES_JSON.replace(/ AS files_json$/, '')} END AS files_json`);
  }
  return `SELECT ${select.join(', ')} FROM skills s ${joins.join(' ')}
    WHERE s.account_id = ? AND s.root_uri = ? AND s.name = ?`;
}

type ViewRow = SkillRow &
  Record<string, unknown> & { files_json?: string; overview_sha: string | null; within?: number };

function bytes(value: unknown): Uint8Array {
  const buffer = value as Buffer;
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/**
 * `Store.readSkillView` on SQLite: the skill row of the first root holding `name`, the requested file
 * contents (joined), and the file list (aggregated as JSON) — one prepared statement per root tried
 * (one step when the first root holds the skill).
 *
 * @param conn - the connection (statements cached per request shape)
 * @param accountId - the caller's account
 * @param rootUris - roots in preference order (one or more)
 * @param name - the exact (normalised) skill name
 * @param options - see {@link SkillViewOptions}
 * @returns the view, or null when none of the roots holds the skill (or `rootUris` is empty)
 */
export function readSkillView(
  conn: Connection,
  accountId: string,
  rootUris: readonly string[],
  name: string,
  options: SkillViewOptions,
): SkillView | null {
  const read = readView(conn, accountId, rootUris, name, options, false);
  return read === null || read === BEYOND ? null : read.view;
}

/**
 * `Store.readSkillJson` on SQLite: {@link readSkillView}'s statement with the overview read as its
 * stored UTF-8 bytes, which go into the JSON as they are (as the abstract and SKILL.md do).
 *
 * @returns the JSON, the view when its overview is still to be rendered, or null when no root holds it
 */
export function readSkillJson(
  conn: Connection,
  accountId: string,
  rootUris: readonly string[],
  name: string,
  request: SkillJsonRequest,
): SkillJsonRead | null {
  const needsOverview = wantsOverview(request);
  const read = readView(conn, accountId, rootUris, name, viewOptionsFor(request), needsOverview);
  if (read === null || read === BEYOND) return null;
  const { view, overview, stamp } = read;
  if (!needsOverview) return skillJsonOfView(view, request, stamp);
  if (overview === null) return { view };
  return {
    json: skillResultJson(view, request, overview),
    revision: view.skill.revision,
    settled: true,
    stamp,
  };
}

/**
 * {@link readSkillJson} for a caller that must not wait long — the HTTP thread, on its read-only
 * connection — when the skill is small enough: the same answer, or undefined when the first root
 * holding the skill has stored texts and asked-for contents past `bound.bytes`, more than
 * `bound.files` files when the file list is asked for, or (asked for its overview) no overview stored
 * yet. The cost of a read then stays within what reading `bound.bytes` costs, whatever was uploaded.
 *
 * @param bound - see {@link ReadBound}
 * @returns the JSON (`settled` and `stamp` as {@link readSkillJson}), null when no root holds the
 *   skill, or undefined when the read is left to a caller that may take longer
 * @throws what the statement throws (e.g. `SQLITE_BUSY` on a connection that does not wait)
 */
export function readSkillJsonWithin(
  conn: Connection,
  accountId: string,
  rootUris: readonly string[],
  name: string,
  request: SkillJsonRequest,
  bound: ReadBound,
): Extract<SkillJsonRead, { json: Uint8Array }> | null | undefined {
  const needsOverview = wantsOverview(request);
  const options = { ...viewOptionsFor(request), body: 'never' as const };
  const read = readView(conn, accountId, rootUris, name, options, needsOverview, bound);
  if (read === null) return null;
  if (read === BEYOND) return undefined;
  const { view, overview, stamp } = read;
  const settled = view.skill.overview !== null;
  // Unsettled: the overview is rendered from the body, which this read leaves out.
  if (needsOverview && !settled) return undefined;
  return {
    json: skillResultJson(view, request, overview ?? ''),
    revision: view.skill.revision,
    settled,
    stamp: settled ? stamp : null,
  };
}

/** What {@link readView} answers for a skill past its bound. */
const BEYOND = Symbol('beyond the bound');

/**
 * The view, its stamp when settled (`skillStamp`), and with `overviewBytes` the overview as bytes (the
 * view's `skill.overview` then holds `''` for a stored overview, null for none — so does it with
 * `bound`, which reads no body). With `bound`, {@link BEYOND} for a skill whose stored sizes exceed it.
 */
function readView(
  conn: Connection,
  accountId: string,
  rootUris: readonly string[],
  name: string,
  options: SkillViewOptions,
  overviewBytes: boolean,
  bound: ReadBound | null = null,
): { view: SkillView; overview: Uint8Array | null; stamp: string | null } | null | typeof BEYOND {
  const paths = [...new Set(options.contents)];
  const statement = conn.stmt(viewSql(paths.length, options, overviewBytes, bound));
  let row: ViewRow | undefined;
  for (const rootUri of rootUris) {
    row = statement.get(...paths, accountId, rootUri, name) as ViewRow | undefined;
    if (row !== undefined) break;
  }
  if (row === undefined) return null;
  if (bound !== null && row.within !== 1) return BEYOND;
  // The stamp of a settled skill, from its columns as stored (before any is mapped).
  const stamp = row.overview !== null ? skillStamp(row, row.overview_sha) : null;
  let overview: Uint8Array | null = null;
  if (overviewBytes || bound !== null) {
    const stored = row.overview as unknown;
    overview = stored === null || !overviewBytes ? null : bytes(stored);
    row.overview = stored === null ? null : '';
  }
  const contents = new Map<string, StoredFile>();
  paths.forEach((path, i) => {
    const sha256 = row[`h${i}`];
    const content = row[`c${i}`];
    if (typeof sha256 !== 'string' || content === null || content === undefined) return;
    contents.set(path, {
      path,
      kind: row[`k${i}`] as SkillFileKind,
      size: row[`z${i}`] as number,
      sha256,
      content: bytes(content),
    });
  });
  let files: StoredFile[] | null = null;
  if (options.listFiles) {
    const entries = JSON.parse(row.files_json ?? '[]') as Array<
      [string, SkillFileKind, number, string, number]
    >;
    files = entries.map(([path, kind, size, sha256, executable]) =>
      executable === 1 ? { path, kind, size, sha256, executable: true } : { path, kind, size, sha256 },
    );
  }
  return { view: { skill: toSkillRecord(row), contents, files }, overview, stamp };
}

/**
 * `Store.readSkillRevision` on SQLite: the revision, settled state and stamp of `name` in the first root
 * holding it — one probe of the unique `(account_id, root_uri, name)` index per root tried (and one of
 * `skill_files` for the overview's hash), reading neither the body, the overview nor any content.
 *
 * @returns the state, or null when none of the roots holds the skill (or `rootUris` is empty)
 */
export function readSkillRevision(
  conn: Connection,
  accountId: string,
  rootUris: readonly string[],
  name: string,
): SkillRevisionState | null {
  const statement = conn.stmt(
    `SELECT ${STAMP_COLUMNS}, s.overview IS NOT NULL AS settled, ${OVERVIEW_SHA_COLUMN}
     FROM skills s WHERE s.account_id = ? AND s.root_uri = ? AND s.name = ?`,
  );
  for (const rootUri of rootUris) {
    const row = statement.get(accountId, rootUri, name) as
      | (StampedColumns & { settled: number; overview_sha: string | null })
      | undefined;
    if (row === undefined) continue;
    const settled = row.settled === 1;
    return {
      revision: row.revision,
      settled,
      stamp: settled ? skillStamp(row, row.overview_sha) : null,
    };
  }
  return null;
}
