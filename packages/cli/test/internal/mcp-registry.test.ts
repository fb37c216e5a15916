/**
 * How `skillport mcp` notices changes: the client registry's `watch` against a raw HTTP server on
 * 127.0.0.1 that answers as each case needs (a change feed, a plain listing, a refused cursor) and
 * records what it was asked. The same path against the real server is covered by mcp.test.ts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AsyncHTTPClient } from '@skillport/sdk-node';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClientRegistry, FEED_CLOCK_MARGIN_MS } from '../../src/internal/mcp-registry.js';

let server: http.Server;
let url: string;
let asked: URL[] = [];
/** Requests of earlier cases' watchers, still in flight when a case starts, are not recorded. */
let round = 0;
let answer: (query: URL) => { status: number; body: unknown } = () => ({ status: 500, body: {} });

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://x');
    if (req.headers['x-round'] === String(round)) asked.push(query);
    const { status, body } = answer(query);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  asked = [];
  round++;
});

const ok = (result: unknown) => ({ status: 200, body: { status: 'ok', result, time: 0 } });
const item = (name: string, revision: string) => ({
  name,
  uri: `viking://user/default/skills/${name}`,
  root_uri: 'viking://user/default/skills',
  description: name,
  revision,
  tags: [],
  updated_at: '2026-01-01T00:00:00Z',
});
const feed = (cursor: string, skills: unknown[] = [], deleted: unknown[] = [], more = false) =>
  ok({
    root_uris: ['viking://user/default/skills', 'viking://agent/skills'],
    skills,
    deleted,
    total: skills.length + deleted.length,
    next_cursor: cursor,
    has_more: more,
  });
const gone = (name: string) => ({
  type: 'deleted',
  name,
  uri: `viking://user/default/skills/${name}`,
  root_uri: 'viking://user/default/skills',
  revision: 'r1',
  deleted_at: '2026-01-01T00:00:00Z',
});

/** Starts watching; returns the change count and a stop function. */
function watch(now = () => Date.parse('2026-06-01T12:00:00Z')) {
  const client = new AsyncHTTPClient({ url, retry: 0, headers: { 'x-round': String(round) } });
  const registry = createClientRegistry(client, { pollIntervalMs: 20, now });
  let changes = 0;
  const stop = registry.watch?.(() => {
    changes++;
  });
  return {
    changes: () => changes,
    stop: () => {
      stop?.();
      client.close();
    },
  };
}

describe('skillport mcp: noticing changes through the change feed', () => {
  it('starts at a time before the local clock, then follows the cursor; a page with changes is news', async () => {
    // After the first pass, cursor c<k> answers news[k] and moves on to c<k+1>; past the end, nothing.
    const news: Array<{ skills?: unknown[]; deleted?: unknown[] }> = [
      {},
      { skills: [item('fresh', 'r1')] },
      {},
      { deleted: [gone('fresh')] },
    ];
    answer = (query) => {
      // The first pass: two pages of older changes, never reported.
      if (query.searchParams.has('updated_since')) return feed('p1', [item('older', 'r0')], [], true);
      const cursor = query.searchParams.get('cursor') ?? '';
      if (cursor === 'p1') return feed('c0', [item('old', 'r0')]);
      const k = Number(cursor.slice(1));
      const step = news[k];
      if (step === undefined) return feed(`c${news.length}`);
      return feed(`c${k + 1}`, step.skills ?? [], step.deleted ?? []);
    };
    const watching = watch();
    try {
      await vi.waitFor(() => expect(asked.some((q) => q.searchParams.get('cursor') === 'c4')).toBe(true), {
        timeout: 10_000,
      });
      expect(watching.changes()).toBe(2);
      const first = asked[0];
      expect(first?.pathname).toBe('/api/v1/skills');
      expect(first?.searchParams.get('updated_since')).toBe(
        new Date(Date.parse('2026-06-01T12:00:00Z') - FEED_CLOCK_MARGIN_MS).toISOString(),
      );
      expect(first?.searchParams.get('node_limit')).toBe('1000');
      expect(asked[1]?.searchParams.get('cursor')).toBe('p1');
      // Only the first request carries the time; every later one a cursor, never a full listing.
      expect(asked.slice(1).every((q) => q.searchParams.has('cursor'))).toBe(true);
    } finally {
      watching.stop();
    }
  });

  it('a server without a change feed (a plain listing comes back) is watched by comparing listings', async () => {
    let revision = 'r1';
    answer = () =>
      ok({
        root_uris: ['viking://user/default/skills', 'viking://agent/skills'],
        skills: [item('a', revision)],
        total: 1,
        next_cursor: null,
        has_more: false,
      });
    const watching = watch();
    try {
      await vi.waitFor(() => expect(asked.length).toBeGreaterThan(3), { timeout: 10_000 });
      expect(watching.changes()).toBe(0);
      expect(asked.slice(1).every((q) => !q.searchParams.has('updated_since'))).toBe(true);
      revision = 'r2';
      await vi.waitFor(() => expect(watching.changes()).toBe(1), { timeout: 10_000 });
    } finally {
      watching.stop();
    }
  });

  it('a cursor the server refuses (400) starts the feed over and counts as a change', async () => {
    let refused = 0;
    answer = (query) => {
      if (query.searchParams.has('updated_since')) return feed('good');
      if (query.searchParams.get('cursor') === 'good' && refused === 0) {
        refused++;
        return {
          status: 400,
          body: { status: 'error', error: { code: 'INVALID_ARGUMENT', message: 'Invalid cursor' } },
        };
      }
      return feed('good');
    };
    const watching = watch();
    try {
      await vi.waitFor(() => expect(watching.changes()).toBe(1), { timeout: 10_000 });
      await vi.waitFor(
        () => expect(asked.filter((q) => q.searchParams.has('updated_since')).length).toBe(2),
        { timeout: 10_000 },
      );
    } finally {
      watching.stop();
    }
  });
});
