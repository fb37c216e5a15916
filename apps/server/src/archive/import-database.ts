/**
 * `skillport db import`: reads a database archive (see `archive-format.ts`), checks it, and writes it
 * into a store.
 */
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { SkillportError } from '@skillport/core';
import { computeRevision, type ManifestEntry } from '../store/revision.js';
import { OVERVIEW_PATH, type Store } from '../store/types.js';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_RECORD_TYPES,
  ARCHIVE_VERSION,
  type ArchiveCounts,
  type DataRecord,
  DataRecordSchema,
  EndRecordSchema,
  emptyCounts,
  type HeaderRecord,
  HeaderRecordSchema,
} from './archive-format.js';

/** Result of {@link importDatabase}. */
export interface ImportResult {
  header: HeaderRecord;
  /** Records written per type (equal to the archive's `end` counts). */
  counts: ArchiveCounts;
}

function invalid(line: number, message: string): SkillportError {
  return new SkillportError('INVALID_ARGUMENT', `Archive line ${line}: ${message}`, {
    details: { line },
  });
}

function parseLine(text: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalid(line, `not JSON (${(error as Error).message})`);
  }
}

/** The revision a manifest must have (`.overview.md` is derived and never part of it). */
function manifestRevision(files: ReadonlyArray<ManifestEntry>): string {
  return computeRevision(files.filter((f) => f.path !== OVERVIEW_PATH));
}

/**
 * Reads and checks an archive, yielding its data records: the header must name format
 * `skillport-db-archive` at a version this build reads; records must come in archive order; each
 * blob's content must have its sha-256 and size; each skill's and revision's `revision` must be the
 * hash of its manifest; the `end` record must be last and match the counts. Any failure throws before
 * the next record is yielded, so an importing transaction rolls back.
 *
 * @param input - the gzip-compressed archive
 * @param onHeader - told the header once it is read
 * @throws SkillportError `INVALID_ARGUMENT` naming the line for malformed, reordered, corrupted,
 *   truncated or newer archives
 */
export async function* readArchive(
  input: Readable,
  onHeader: (header: HeaderRecord) => void = () => {},
): AsyncGenerator<DataRecord> {
  const gunzip = createGunzip();
  const failed: { error?: unknown } = {};
  gunzip.on('error', (error) => {
    failed.error = error;
  });
  input.on('error', (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  const lines = createInterface({ input: gunzip, crlfDelay: Number.POSITIVE_INFINITY });
  const counts = emptyCounts();
  let line = 0;
  let header: HeaderRecord | null = null;
  let ended = false;
  let order = 0;
  try {
    for await (const text of lines) {
      line += 1;
      if (text === '') continue;
      if (ended) throw invalid(line, 'data after the `end` record');
      const value = parseLine(text, line);
      if (header === null) {
        const parsed = HeaderRecordSchema.safeParse(value);
        if (!parsed.success) {
          throw invalid(
            line,
            `expected a ${ARCHIVE_FORMAT} header, e.g. {"type":"header","format":"${ARCHIVE_FORMAT}","version":${ARCHIVE_VERSION},…}`,
          );
        }
        if (parsed.data.version > ARCHIVE_VERSION || parsed.data.version < 1) {
          throw invalid(
            line,
            `archive version ${parsed.data.version} is not supported by this build (reads version ${ARCHIVE_VERSION}); upgrade Skillport`,
          );
        }
        header = parsed.data;
        onHeader(header);
        continue;
      }
      if ((value as { type?: unknown } | null)?.type === 'end') {
        const end = EndRecordSchema.safeParse(value);
        if (!end.success) throw invalid(line, 'malformed `end` record');
        for (const type of ARCHIVE_RECORD_TYPES) {
          if (end.data.counts[type] !== counts[type]) {
            throw invalid(
              line,
              `the archive announces ${end.data.counts[type]} ${type} records, it holds ${counts[type]}`,
            );
          }
        }
        ended = true;
        continue;
      }
      const parsed = DataRecordSchema.safeParse(value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw invalid(
          line,
          `invalid record${issue ? ` (${issue.path.join('.') || 'type'}: ${issue.message})` : ''}`,
        );
      }
      const record = parsed.data;
      const rank = ARCHIVE_RECORD_TYPES.indexOf(record.type);
      if (rank < order) {
        throw invalid(
          line,
          `a ${record.type} record after ${ARCHIVE_RECORD_TYPES[order]} records (out of order)`,
        );
      }
      order = rank;
      if (record.type === 'blob') {
        const content = Buffer.from(record.content, 'base64');
        if (content.byteLength !== record.size)
          throw invalid(line, `blob ${record.sha256} has ${content.byteLength} bytes, not ${record.size}`);
        if (createHash('sha256').update(content).digest('hex') !== record.sha256) {
          throw invalid(line, `blob content does not hash to ${record.sha256} (corrupted archive)`);
        }
      } else if (record.type === 'skill' && manifestRevision(record.files) !== record.revision) {
        throw invalid(
          line,
          `skill ${record.root_uri}/${record.name}: files do not hash to revision ${record.revision}`,
        );
      } else if (record.type === 'revision' && manifestRevision(record.manifest) !== record.revision) {
        throw invalid(
          line,
          `revision ${record.revision} of ${record.root_uri}/${record.name}: manifest does not hash to it`,
        );
      }
      counts[record.type] += 1;
      yield record;
    }
  } catch (error) {
    if (failed.error !== undefined) throw gzipError(failed.error);
    throw error;
  } finally {
    lines.close();
    input.unpipe(gunzip);
  }
  if (failed.error !== undefined) throw gzipError(failed.error);
  if (header === null) throw invalid(line, 'empty archive (no header)');
  if (!ended) throw invalid(line, 'the archive ends without its `end` record (cut off?)');
}

function gzipError(error: unknown): SkillportError {
  return new SkillportError(
    'INVALID_ARGUMENT',
    `Not a readable ${ARCHIVE_FORMAT} (gzip): ${error instanceof Error ? error.message : String(error)}`,
  );
}

/**
 * Imports an archive written by {@link exportDatabase} (from any engine) into `store`, all or
 * nothing: the store must hold no skills, history, keys, file contents or tasks (accounts and users
 * are merged). Every id, revision, sha-256 and time is kept, so exporting the result gives the same
 * records.
 *
 * @param store - the target (opened for this import; SQLite holds its write lock until the end)
 * @param input - the gzip-compressed archive
 * @returns the header and the records written per type
 * @throws SkillportError `INVALID_ARGUMENT` for a malformed, corrupted, truncated or newer archive;
 *   `CONFLICT` when the store is not empty — nothing is written in either case
 * @example
 * ```ts
 * const target = openStore({ databaseUrl: process.env.SKILLPORT_DATABASE_URL });
 * const { counts } = await importDatabase(target, createReadStream('backup.skillport.gz'));
 * ```
 */
export async function importDatabase(store: Store, input: Readable): Promise<ImportResult> {
  let header: HeaderRecord | null = null;
  let counts: ArchiveCounts;
  try {
    counts = await store.importRecords(
      readArchive(input, (h) => {
        header = h;
      }),
    );
  } finally {
    // Refused before reading (e.g. a full store) or failed mid-way: let go of the input either way
    // (a late error of the input, such as its file failing to open, no longer matters).
    input.on('error', () => {});
    input.destroy();
  }
  if (header === null) throw new SkillportError('INVALID_ARGUMENT', 'Empty archive (no header)');
  return { header, counts };
}
