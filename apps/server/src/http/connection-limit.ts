/**
 * The most client connections the listener keeps open at once.
 *
 * Every open connection holds a file descriptor. Past the process's open-file limit the listener can
 * accept nobody and the database and uploads cannot open files either: 1,100 idle keep-alive
 * connections to a server limited to 1,024 open files left every other client without an answer
 * until they were dropped.
 */
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';

/** File descriptors kept free of client connections: the database, its journal, uploads, threads. */
const RESERVED_DESCRIPTORS = 256;

/** The soft open-file limit of this process (Linux, from `/proc/self/limits`); null when unknown. */
export function openFileLimit(limitsText?: string): number | null {
  let text = limitsText;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/limits', 'utf8');
    } catch {
      return null;
    }
  }
  const match = /^Max open files\s+(\d+|unlimited)\s/m.exec(text);
  if (!match?.[1] || match[1] === 'unlimited') return null;
  return Number(match[1]);
}

/**
 * The connection limit to apply: `configured` (0 = none), lowered to the open-file limit less 256
 * descriptors kept for the process's own files when that limit is known; at least 1.
 */
export function effectiveMaxConnections(configured: number, fileLimit = openFileLimit()): number {
  const byFiles =
    fileLimit === null ? Number.POSITIVE_INFINITY : Math.max(1, fileLimit - RESERVED_DESCRIPTORS);
  const wanted = configured > 0 ? configured : Number.POSITIVE_INFINITY;
  return Math.min(wanted, byFiles);
}

/** Applies {@link effectiveMaxConnections} to `server`: Node closes a connection past it at once. */
export function limitConnections(server: Server, configured: number): number {
  const limit = effectiveMaxConnections(configured);
  if (Number.isFinite(limit)) server.maxConnections = limit;
  return limit;
}
