/**
 * The app's router keeps match results by method and path: every answer must be the one Hono's
 * default router gives for the same routes, whether routed afresh or from memory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoRouter } from '../../src/http/memo-router.js';
import { createApp, createSqliteStore, type SkillportApp, type Store } from '../../src/index.js';

/** Hono's default router (what `new Hono()` builds). */
function defaultRouter<T>(): Router<T> {
  return new SmartRouter<T>({ routers: [new RegExpRouter(), new TrieRouter()] });
}

/** A match result as comparable data: each handler's route (method and path) and its params. */
function shape(result: Result<{ method: string; path: string }>) {
  const [handlers, stash] = result as [
    Array<[{ method: string; path: string }, Record<string, unknown>]>,
    unknown,
  ];
  return {
    handlers: handlers.map(([route, params]) => ({
      route: `${route.method} ${route.path}`,
      params: { ...params },
    })),
    stash,
  };
}

const PATHS: Array<[string, string]> = [
  ['GET', '/health'],
  ['GET', '/ready'],
  ['GET', '/openapi.json'],
  ['GET', '/api/v1/skills'],
  ['GET', '/api/v1/skills/alpha'],
  ['GET', '/api/v1/skills/beta'],
  ['PUT', '/api/v1/skills/alpha'],
  ['DELETE', '/api/v1/skills/alpha'],
  ['POST', '/api/v1/skills'],
  ['POST', '/api/v1/skills/find'],
  ['POST', '/api/v1/skills/validate'],
  ['POST', '/api/v1/skills/alpha/restore'],
  ['GET', '/api/v1/skills/alpha/revisions'],
  ['GET', '/api/v1/skills/alpha/files/docs/guide.md'],
  ['GET', '/api/v1/skills/alpha/files/docs%2Fguide.md'],
  ['GET', '/api/v1/skills/find'],
  ['POST', '/api/v1/resources/temp_upload'],
  ['GET', '/api/v1/tasks/t-1'],
  ['POST', '/api/v1/tasks/t-1/cancel'],
  ['GET', '/api/v1/admin/accounts'],
  ['POST', '/mcp'],
  ['GET', '/'],
  ['GET', '/assets/app.js'],
  ['GET', '/no/such/route'],
  ['PATCH', '/api/v1/skills/alpha'],
];

describe('memo router', () => {
  let dataDir: string;
  let store: Store;
  let app: SkillportApp;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'skillport-router-'));
    store = createSqliteStore({ dataDir });
    app = await createApp({ store, logger: false, webDir: false });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Both routers loaded with the app's own route table (the route itself as the handler, to compare). */
  function routers() {
    const memo = new MemoRouter<{ method: string; path: string }>();
    const plain = defaultRouter<{ method: string; path: string }>();
    for (const route of app.app.routes) {
      const tag = { method: route.method, path: route.path };
      memo.add(route.method, route.path, tag);
      plain.add(route.method, route.path, tag);
    }
    return { memo, plain };
  }

  it("routes every path of the app's route table as Hono's default router does, afresh and from memory", () => {
    const { memo, plain } = routers();
    for (const [method, where] of PATHS) {
      const expected = shape(plain.match(method, where));
      expect(shape(memo.match(method, where)), `${method} ${where}`).toEqual(expected);
      // Asked again: from memory, the same answer.
      expect(shape(memo.match(method, where)), `${method} ${where} again`).toEqual(expected);
    }
  });

  it('keeps each path its own params, past its memory limit and for paths too long to keep', () => {
    const { memo, plain } = routers();
    const names = Array.from({ length: 5000 }, (_, i) => `skill-${i}`);
    names.push(`long-${'x'.repeat(300)}`);
    for (const round of [0, 1]) {
      for (const name of names) {
        const where = `/api/v1/skills/${name}`;
        const got = shape(memo.match('GET', where));
        expect(got, `round ${round} ${name}`).toEqual(shape(plain.match('GET', where)));
      }
    }
  });

  it('routes paths by their shape exactly as afresh: static segments, the stand-in itself, dots, encodings, file paths', () => {
    const { memo, plain } = routers();
    // Every static segment of the app's routes, plain names, the memo's own stand-in, and segments a
    // shape must never stand for (dots, percent-encodings, empty, too long, odd characters).
    const statics = [...new Set(app.app.routes.flatMap((r) => r.path.split('/')))].filter(
      (s) => s !== '' && !s.startsWith(':') && s !== '*',
    );
    const segments = [
      ...statics,
      'alpha',
      'beta-2',
      'Skill_3',
      'a.b',
      'x~y',
      'memo-router-any-segment',
      'memo-router-any-segment-2',
      '.',
      '..',
      '.hidden',
      '',
      '%41',
      'docs%2Fguide.md',
      'sp ace',
      'ünï',
      'x'.repeat(129),
    ];
    const prefixes = [
      '',
      '/api/v1',
      '/api/v1/skills',
      '/api/v1/skills/alpha',
      '/api/v1/skills/alpha/files',
      '/api/v1/skills/alpha/files/docs',
      '/api/v1/skills/memo-router-any-segment/files',
      '/api/v1/tasks',
      '/api/v1/tasks/t-1',
      '/api/v1/admin/accounts/acc',
      '/api/v1/admin/accounts/acc/keys',
      '/assets',
      '/no/such',
    ];
    let checked = 0;
    for (const round of [0, 1, 2]) {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH']) {
        for (const prefix of prefixes) {
          for (const segment of segments) {
            const where = `${prefix}/${segment}`;
            expect(shape(memo.match(method, where)), `round ${round} ${method} ${where}`).toEqual(
              shape(plain.match(method, where)),
            );
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('routes by shape only where a param pattern judges the segment as it judges the stand-in', () => {
    const memo = new MemoRouter<{ method: string; path: string }>();
    const plain = defaultRouter<{ method: string; path: string }>();
    for (const [method, where] of [
      ['GET', '/items/:id{[0-9]+}'],
      ['GET', '/items/:slug'],
      ['GET', '/items/:id{[0-9]+}/parts/:part'],
      ['GET', '/files/:path{.+}'],
      ['GET', '/files/:path{.+}/raw'],
      ['GET', '/codes/:code{[a-z]{2}}'],
      ['GET', '/codes/:any'],
    ] as const) {
      const tag = { method, path: where };
      memo.add(method, where, tag);
      plain.add(method, where, tag);
    }
    const paths = [
      '/items/42',
      '/items/abc',
      '/items/7',
      '/items/x9',
      '/items/42/parts/p1',
      '/items/abc/parts/p1',
      '/items/42/parts/p2',
      '/files/a',
      '/files/a/b',
      '/files/a/b/c.md',
      '/files/a/raw',
      '/files/a/b/raw',
      '/files/a/b/other',
      '/codes/ab',
      '/codes/abc',
      '/codes/x1',
    ];
    for (const round of [0, 1]) {
      for (const where of paths) {
        expect(shape(memo.match('GET', where)), `round ${round} ${where}`).toEqual(
          shape(plain.match('GET', where)),
        );
      }
    }
  });

  it('serves the app through it: the same answers over repeated requests', async () => {
    const first = await app.fetch(new Request('http://local/health'));
    const again = await app.fetch(new Request('http://local/health'));
    expect(first.status).toBe(200);
    expect(await again.json()).toMatchObject({ status: 'ok', healthy: true });
    const missing = await app.fetch(new Request('http://local/api/v1/skills/nope'));
    const missingAgain = await app.fetch(new Request('http://local/api/v1/skills/nope'));
    expect(missing.status).toBe(404);
    expect(missingAgain.status).toBe(404);
    expect(app.app.router.name).toBe('MemoRouter');
  });
});
