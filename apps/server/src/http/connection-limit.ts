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
import { isIP, type Socket } from 'node:net';

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

/**
 * The per-address connection limit to apply: `configured` (0 = none), never more than half of the
 * process's connection limit (`globalLimit`, from {@link effectiveMaxConnections}), so one address
 * can never hold every slot; at least 1.
 */
export function effectiveMaxConnectionsPerAddress(configured: number, globalLimit: number): number {
  if (configured <= 0) return Number.POSITIVE_INFINITY;
  const half = Number.isFinite(globalLimit) ? Math.max(1, Math.floor(globalLimit / 2)) : configured;
  return Math.max(1, Math.min(configured, half));
}

/** How a connection refused by {@link limitConnectionsPerAddress} is reported (at most once a minute). */
export type ConnectionRefusalReport = (record: { address: string; limit: number; refused: number }) => void;

const REPORT_EVERY_MS = 60_000;

/**
 * Makes `server` close at once a new connection from a client address that already holds `limit`
 * open connections (TCP peer address; IPv4-mapped IPv6 counted as IPv4), as Node closes connections
 * past `maxConnections`. Peers that `exempt` accepts (trusted reverse proxies, which carry many
 * clients) count only against the global limit. A connection is counted from accept to close.
 *
 * @param limit - from {@link effectiveMaxConnectionsPerAddress}; not finite = no limit
 * @param exempt - trusted proxy matcher (`parseTrustedProxies`), or null
 * @param report - called with the refused count at most once a minute, when any were refused
 */
export function limitConnectionsPerAddress(
  server: Server,
  limit: number,
  exempt: ((address: string) => boolean) | null,
  report?: ConnectionRefusalReport,
): void {
  if (!Number.isFinite(limit)) return;
  const open = new Map<string, number>();
  let refused = 0;
  let reportedAt = 0;
  server.on('connection', (socket: Socket) => {
    const raw = socket.remoteAddress;
    if (raw === undefined) return;
    const address = raw.startsWith('::ffff:') && isIP(raw.slice(7)) === 4 ? raw.slice(7) : raw;
    if (exempt?.(address)) return;
    const held = open.get(address) ?? 0;
    if (held >= limit) {
      socket.destroy();
      refused++;
      const now = Date.now();
      if (report && now - reportedAt >= REPORT_EVERY_MS) {
        reportedAt = now;
        report({ address, limit, refused });
        refused = 0;
      }
      return;
    }
    open.set(address, held + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
