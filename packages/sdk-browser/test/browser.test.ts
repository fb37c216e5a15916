/**
 * `@skillport/sdk-browser` in a real browser (Chromium through playwright-core): the built package is
 * loaded by a page (import map for ky and fflate), talks to a real server across origins (CORS),
 * uploads a skill folder picked in an `<input webkitdirectory>` and a single `File`, finds the skill and
 * reads it back.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../../cli/test/support/processes.js';
import { type ServerProcess, startServerProcess } from '../../sdk-node/test/support/server-process.js';
import { type PageServer, startPageServer } from './support/page-server.js';

const CHROMIUM = process.env.SKILLPORT_CHROMIUM ?? '/usr/bin/chromium';

const SKILL_MD = [
  '---',
  'name: browser-upload',
  'description: Convert meeting notes into a task list with owners and due dates',
  'tags: [notes, tasks]',
  '---',
  '',
  '# Meeting notes to tasks',
  '',
  'Read the notes and list every action item.',
  '',
].join('\n');
const GUIDE = '# Guide\n\nOwners are people named next to an action.\n';

let page: Page;
let browser: Browser;
let pages: PageServer;
let server: ServerProcess;
let folder: string;

beforeAll(async () => {
  requireBuild();
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: apt-get install -y chromium, or set SKILLPORT_CHROMIUM`,
    );
  }
  pages = await startPageServer();
  server = await startServerProcess([pages.origin]);
  folder = mkdtempSync(path.join(os.tmpdir(), 'skillport-pick-'));
  mkdirSync(path.join(folder, 'browser-upload', 'docs'), { recursive: true });
  writeFileSync(path.join(folder, 'browser-upload', 'SKILL.md'), SKILL_MD);
  writeFileSync(path.join(folder, 'browser-upload', 'docs', 'guide.md'), GUIDE);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
      '--disable-quic',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(pages.origin);
  await page
    .waitForFunction(() => document.title === 'ready', undefined, { timeout: 15_000 })
    .catch(() => {
      throw new Error(`the page did not load the SDK: ${errors.join('; ')}`);
    });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await pages?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('AsyncHTTPClient in Chromium', () => {
  it('uploads a picked folder (zipped with fflate), finds it and reads it back', async () => {
    await page.setInputFiles('#pick', path.join(folder, 'browser-upload'));
    const result = await page.evaluate(async (url) => {
      const { AsyncHTTPClient } = (window as unknown as { sdk: typeof import('../src/index.js') }).sdk;
      const client = new AsyncHTTPClient({ url });
      const health = await client.initialize();
      const input = document.querySelector<HTMLInputElement>('#pick')!;
      const picked = Array.from(input.files ?? []).map((f) => f.webkitRelativePath);
      const added = await client.addSkill(Array.from(input.files ?? []), { wait: true });
      const found = await client.findSkills('turn notes from a meeting into action items', { limit: 3 });
      const got = await client.getSkill('browser-upload', { include_content: true });
      client.close();
      return { health, picked, added, found: found.skills.map((s) => s.name), got };
    }, server.url);
    expect(result.health.healthy).toBe(true);
    expect(result.picked.sort()).toEqual(['browser-upload/SKILL.md', 'browser-upload/docs/guide.md']);
    expect(result.added).toMatchObject({ name: 'browser-upload', auxiliary_files: 1 });
    expect(result.found).toContain('browser-upload');
    expect(result.got.content).toBe(SKILL_MD);
    const files = (result.got.files ?? []).filter((f) => f.kind === 'auxiliary').map((f) => [f.path, f.size]);
    expect(files).toEqual([['docs/guide.md', Buffer.byteLength(GUIDE)]]);
  });

  it('uploads a single File as SKILL.md and reports errors as typed classes', async () => {
    const result = await page.evaluate(async (url) => {
      const sdk = (window as unknown as { sdk: typeof import('../src/index.js') }).sdk;
      const client = new sdk.AsyncHTTPClient({ url });
      const text =
        '---\nname: single-file\ndescription: Added from one File object in a browser\n---\n\nBody\n';
      const added = await client.addSkill(new File([text], 'SKILL.md', { type: 'text/markdown' }));
      const back = await client.getSkill('single-file', { level: 2 });
      const missing = await client.getSkill('no-such-skill').catch((error: unknown) => error);
      const invalid = await client.addSkill('no frontmatter here\nat all').catch((error: unknown) => error);
      const down = await new sdk.AsyncHTTPClient({ url: 'http://127.0.0.1:9', retry: 0 })
        .listSkills()
        .catch((error: unknown) => error);
      return {
        added: added.name,
        same: back.content === text,
        missing: {
          guard: sdk.isApiError(missing),
          notFound: missing instanceof sdk.NotFoundError,
          status: (missing as { status?: number }).status,
          code: (missing as { code?: string }).code,
        },
        invalid: {
          skillInvalid: invalid instanceof sdk.SkillInvalidError,
          details: (invalid as { details?: unknown }).details,
        },
        down: { network: sdk.isNetworkError(down), message: (down as Error).message },
      };
    }, server.url);
    expect(result.added).toBe('single-file');
    expect(result.same).toBe(true);
    expect(result.missing).toEqual({ guard: true, notFound: true, status: 404, code: 'NOT_FOUND' });
    expect(result.invalid.skillInvalid).toBe(true);
    expect(result.invalid.details).toMatchObject({
      issues: [expect.objectContaining({ rule: 'yaml_format' })],
    });
    expect(result.down.network).toBe(true);
    expect(result.down.message).toMatch(/cannot reach the Skillport server at http:\/\/127\.0\.0\.1:9/);
    // A browser cannot tell a server that is down from one whose CORS settings refuse this page: both
    // are "Failed to fetch", so the message names the second cause too, with the page's origin.
    expect(result.down.message).toContain(
      `(if the server is running, it may not allow calls from this page's origin ${pages.origin}: the server's SKILLPORT_CORS_ORIGINS must list it)`,
    );
  });

  // A 429's Retry-After must be readable from another origin (exposed by CORS): the client waits as
  // long as the server asks before its retry. Hidden, it retried after 0.3 s into another 429.
  it("reads a 429's Retry-After across origins and waits that long before retrying", async () => {
    const limited = await startServerProcess([pages.origin], undefined, {
      limits: { rateLimitPerMinute: 60 },
    });
    try {
      const result = await page.evaluate(async (url) => {
        const sdk = (window as unknown as { sdk: typeof import('../src/index.js') }).sdk;
        // Spend the burst (60) until the server answers 429.
        let refused: Response | null = null;
        for (let i = 0; i < 100 && !refused; i++) {
          const res = await fetch(`${url}/api/v1/skills?node_limit=0`);
          if (res.status === 429) refused = res;
        }
        const header = refused?.headers.get('retry-after') ?? null;
        // Still limited: the first attempt gets 429, the retry comes after Retry-After (1 s).
        const attempts: number[] = [];
        const start = performance.now();
        const client = new sdk.AsyncHTTPClient({
          url,
          retry: 1,
          fetch: (input, init) => {
            attempts.push(Math.round(performance.now() - start));
            return fetch(input, init);
          },
        });
        const listed = await client
          .listSkills({ node_limit: 0 })
          .then((r) => ({ ok: true, total: r.total }))
          .catch((e: unknown) => ({ ok: false, error: String(e) }));
        client.close();
        return { status: refused?.status ?? null, header, listed, attempts };
      }, limited.url);
      expect(result.status).toBe(429);
      expect(result.header).toMatch(/^\d+$/);
      expect(result.listed).toEqual({ ok: true, total: 0 });
      expect(result.attempts).toHaveLength(2);
      expect((result.attempts[1] ?? 0) - (result.attempts[0] ?? 0)).toBeGreaterThanOrEqual(900);
    } finally {
      await limited.stop();
    }
  });
});
