/**
 * `skillport db export`: streams a store into a database archive (see `archive-format.ts`).
 */
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Store } from '../store/types.js';
import { SERVER_VERSION } from '../version.js';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  type ArchiveCounts,
  type EndRecord,
  emptyCounts,
  type HeaderRecord,
} from './archive-format.js';

/**
 * Writes every record of `store` to `output` as a gzip-compressed JSON Lines archive (format
 * `skillport-db-archive` version 1: a header, the data records in archive order, an `end` record with
 * the counts). Streams with back-pressure: memory stays at a page of rows whatever the size of the
 * database. The store is read as one consistent snapshot.
 *
 * @param store - the source (opened for this export: it may be busy until the export ends)
 * @param output - where the compressed archive goes (a file stream, stdout); ended when done
 * @returns the number of records written per type
 * @throws the store's or the stream's error (the output is then incomplete: it has no `end` record,
 *   so an import refuses it)
 * @example
 * ```ts
 * const store = openStore({ databaseUrl: 'postgres://skillport@db/skillport' });
 * const counts = await exportDatabase(store, createWriteStream('backup.skillport.gz'));
 * await store.close();
 * ```
 */
export async function exportDatabase(store: Store, output: Writable): Promise<ArchiveCounts> {
  const counts = emptyCounts();
  const header: HeaderRecord = {
    type: 'header',
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    created_at: new Date().toISOString(),
    server_version: SERVER_VERSION,
    source_engine: engineOf(store),
  };
  async function* lines(): AsyncGenerator<string> {
    yield `${JSON.stringify(header)}\n`;
    for await (const record of store.exportRecords()) {
      counts[record.type] += 1;
      yield `${JSON.stringify(record)}\n`;
    }
    const end: EndRecord = { type: 'end', counts };
    yield `${JSON.stringify(end)}\n`;
  }
  await pipeline(Readable.from(lines()), createGzip(), output);
  return counts;
}

/** `sqlite`, `postgres`, …: the part of `Store.description` before the first colon. */
function engineOf(store: Store): string {
  const colon = store.description.indexOf(':');
  return colon > 0 ? store.description.slice(0, colon) : store.description;
}
