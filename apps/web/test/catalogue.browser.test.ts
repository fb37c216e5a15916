/**
 * The web catalogue in Debian's Chromium (playwright-core) against the real, built server, which
 * serves the page at `/`: browse, search, filter, open a skill, view and download a file, upload a
 * folder, see located validation errors before anything is sent, delete with confirmation; a hostile
 * skill executes nothing (page-side tripwire, CSP violation listener, DOM checks); a keyed server
 * asks for a key and keeps it in the tab only. Screenshots go to apps/web/test-results/screenshots/
 * (git-ignored) for people to look at.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AsyncHTTPClient } from '@skillport/sdk-browser';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../../../packages/cli/test/support/processes.js';
import {
  type ServerProcess,
  startServerProcess,
} from '../../../packages/sdk-node/test/support/server-process.js';

const CHROMIUM = process.env.SKILLPORT_CHROMIUM ?? '/usr/bin/chromium';
const HERE = path.dirname(fileURLToPath(import.meta.url));
const SHOTS = path.resolve(HERE, '../test-results/screenshots');
const WEBAPP = path.resolve(HERE, '../../server/dist/webapp/index.html');

/**
 * How long to wait for what a find shows: a server's first find also starts its search reader
 * threads (~0.5 s on an idle machine, seconds on a loaded one), longer than `expect.poll`'s 1 s.
 */
const FIND_SHOWN = { timeout: 15_000 };

const md = (name: string, description: string, body: string, extra = '') =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n${body}`;

const NOTES = md(
  'meeting-notes',
  'Turn meeting notes into a task list with owners and due dates',
  '# Meeting notes to tasks\n\nRead the notes and list every **action item**.\n\nSee [the guide](docs/guide.md) and [usage](#usage).\n\n## Usage\n\n| step | what |\n|---|---|\n| 1 | read |\n| 2 | list |\n\n![chart](assets/chart.png)\n',
  'tags: [notes, tasks, productivity]\nlicense: MIT\nmetadata:\n  author: Ada\n',
);
const GUIDE = '# Guide\n\nOwners are the people named next to an action.\n';
// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const HOSTILE = [
  '---',
  'name: hostile-skill',
  'description: <img src=x onerror="window.__tripwire(\'frontmatter-description\')"> looks harmless',
  'title: <script>window.__tripwire("frontmatter-title")</script>',
  'tags: ["<svg onload=window.__tripwire(\'tag\')>", safe]',
  'homepage: javascript:window.__tripwire("frontmatter-link")',
  '---',
  '',
  '# Hostile',
  '',
  '<script>window.__tripwire("body-script")</script>',
  '',
  '<img src="x" onerror="window.__tripwire(\'body-img\')">',
  '',
  '<a href="javascript:window.__tripwire(\'raw-link\')">raw html link</a>',
  '',
  '[markdown js link](javascript:window.__tripwire("md-link"))',
  '',
  '[encoded js link](jav&#x61;script:window.__tripwire("md-encoded"))',
  '',
  '[data link](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX190cmlwd2lyZSgiZGF0YSIpPC9zY3JpcHQ+)',
  '',
  '![remote](https://tracker.example/pixel.png)',
  '',
  '<iframe src="javascript:window.__tripwire(\'iframe\')"></iframe>',
  '',
  '<div style="background:url(javascript:window.__tripwire(\'style\'))" onclick="window.__tripwire(\'onclick\')">click me</div>',
  '',
  '[see the evil file](evil.md)',
  '',
].join('\n');
const EVIL_MD =
  '# Evil aux\n\n<img src=x onerror="window.__tripwire(\'aux-img\')">\n\n[js](javascript:window.__tripwire("aux-link"))\n';

let server: ServerProcess;
let keyed: ServerProcess;
let large: ServerProcess;
let browser: Browser;
let api: AsyncHTTPClient;
let work: string;

interface Watched {
  page: Page;
  context: BrowserContext;
  errors: string[];
  dialogs: string[];
}

async function openPage(
  url: string,
  viewport = { width: 1280, height: 900 },
  colorScheme: 'light' | 'dark' = 'light',
) {
  const context = await browser.newContext({ viewport, colorScheme, acceptDownloads: true });
  // The tripwire: any payload that runs records itself here; CSP violations are recorded too.
  await context.addInitScript(() => {
    const w = window as unknown as { __tripped: string[]; __tripwire: (what: string) => void };
    w.__tripped = [];
    w.__tripwire = (what: string) => w.__tripped.push(what);
    document.addEventListener('securitypolicyviolation', (event) =>
      w.__tripped.push(`csp:${event.violatedDirective}:${event.blockedURI}`),
    );
  });
  const page = await context.newPage();
  const watched: Watched = { page, context, errors: [], dialogs: [] };
  page.on('pageerror', (error) => watched.errors.push(error.message));
  page.on('console', (message) => {
    // Failed requests the page expects (a 404 for a missing skill) are logged by Chromium itself.
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) {
      watched.errors.push(message.text());
    }
  });
  page.on('dialog', async (dialog) => {
    watched.dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  await page.goto(url);
  return watched;
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });
}

async function tripped(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __tripped: string[] }).__tripped);
}

beforeAll(async () => {
  requireBuild();
  if (!existsSync(WEBAPP))
    throw new Error(`${WEBAPP} is missing: run \`pnpm build\` (the server bundles the catalogue)`);
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: apt-get install -y chromium, or set SKILLPORT_CHROMIUM`,
    );
  }
  mkdirSync(SHOTS, { recursive: true });
  work = mkdtempSync(path.join(os.tmpdir(), 'skillport-web-'));
  server = await startServerProcess();
  api = new AsyncHTTPClient({ url: server.url });
  await api.addSkill(
    [
      { path: 'meeting-notes/SKILL.md', data: NOTES },
      { path: 'meeting-notes/docs/guide.md', data: GUIDE },
      { path: 'meeting-notes/assets/chart.png', data: new Uint8Array(PNG) },
    ],
    { wait: true },
  );
  await api.addSkill(
    md(
      'release-notes',
      'Draft release notes from merged pull requests',
      '# Release notes\n',
      'tags: [release, git]\n',
    ),
    {
      wait: true,
    },
  );
  await api.addSkill(
    md('deploy-service', 'Deploy a service to the shared cluster', '# Deploy\n', 'tags: [ops]\n'),
    {
      wait: true,
      target_uri: 'viking://agent/skills',
    },
  );
  await api.addSkill(
    [
      { path: 'hostile-skill/SKILL.md', data: HOSTILE },
      { path: 'hostile-skill/evil.md', data: EVIL_MD },
    ],
    { wait: true },
  );
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
}, 120_000);

afterAll(async () => {
  api?.close();
  await browser?.close();
  await server?.stop();
  await keyed?.stop();
  await large?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the catalogue page served at /', () => {
  it('is served with a strict CSP, no-cache for the page and a year for hashed assets', async () => {
    const res = await fetch(`${server.url}/`, { headers: { 'accept-encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("require-trusted-types-for 'script'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await res.text();
    const asset = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const js = await fetch(`${server.url}/${asset}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const again = await fetch(`${server.url}/${asset}`, {
      headers: { 'if-none-match': js.headers.get('etag') ?? '' },
    });
    expect(again.status).toBe(304);
    // The API answers as before.
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    expect((await fetch(`${server.url}/openapi.json`)).status).toBe(200);
    expect((await fetch(`${server.url}/assets/nope.js`)).status).toBe(404);
  });

  it('browses the roots, searches as you type and filters by tag and root', async () => {
    const { page, context, errors } = await openPage(`${server.url}/`);
    const list = page.getByTestId('skill-list');
    await expect.poll(() => list.locator('li').count()).toBe(4);
    expect(await page.getByTestId('result-line').textContent()).toContain('1–4 of 4 skills');
    await shot(page, 'catalogue-desktop-light');

    await page.getByLabel('Search skills').fill('action items from a meeting');
    await expect.poll(() => page.url()).toContain('q=action');
    await expect
      .poll(() => list.locator('li').first().getAttribute('data-skill'), FIND_SHOWN)
      .toBe('meeting-notes');
    await shot(page, 'catalogue-search');

    await page.getByLabel('Search skills').fill('');
    await expect.poll(() => list.locator('li').count()).toBe(4);
    await page.getByLabel('Filter by tag').selectOption('notes');
    await expect.poll(() => list.locator('li').count()).toBe(1);
    expect(await list.locator('li').first().getAttribute('data-skill')).toBe('meeting-notes');
    await page.getByRole('link', { name: 'Clear' }).click();
    await page.getByRole('link', { name: 'Shared' }).click();
    await expect.poll(() => list.locator('li').count()).toBe(1);
    expect(await list.locator('li').first().getAttribute('data-skill')).toBe('deploy-service');
    expect(errors).toEqual([]);
    expect(await tripped(page)).toEqual([]);
    await context.close();
  });

  // The server unreachable while the user types: the result line says so and that the rows shown
  // are the earlier ones (not results for the words now in the box).
  it('a find that cannot reach the server says the rows shown are the earlier results', async () => {
    const { page, context } = await openPage(`${server.url}/`);
    const list = page.getByTestId('skill-list');
    await page.getByLabel('Search skills').fill('action items from a meeting');
    await expect
      .poll(() => list.locator('li').first().getAttribute('data-skill'), FIND_SHOWN)
      .toBe('meeting-notes');
    await page.route('**/api/v1/skills/find**', (route) => route.abort('connectionrefused'));
    await page.getByLabel('Search skills').fill('deploy to the cluster');
    await expect
      .poll(() => page.getByTestId('result-line').textContent(), FIND_SHOWN)
      .toMatch(/Cannot reach the Skillport server/);
    expect(await page.getByTestId('result-line').textContent()).toContain(
      'Still showing the earlier results for “action items from a meeting”.',
    );
    await context.close();
  });

  // A right-to-left query (Hebrew, an RLO mark) repeated in the result line is isolated with <bdi>, so
  // it cannot reorder the figures and words of the sentence around it; the same for the tag filter.
  it('isolates a right-to-left query and tag where the page repeats them', async () => {
    const q = 'meeting \u05e9\u05dc\u05d5\u05dd \u202e 42';
    const tag = '\u05ea\u05d2';
    const { page, context, errors } = await openPage(`${server.url}/`);
    await page.getByLabel('Search skills').fill(q);
    const echoed = page.getByTestId('result-line').locator('bdi');
    await expect.poll(() => echoed.count(), FIND_SHOWN).toBe(1);
    expect(await echoed.textContent()).toBe(q);
    expect(await echoed.evaluate((e) => getComputedStyle(e).unicodeBidi)).toBe('isolate');
    expect(await page.getByTestId('result-line').textContent()).toMatch(/^1–1 of 1 matches for “.*”$/);
    await page.goto(`${server.url}/#/?tag=${encodeURIComponent(tag)}`);
    const filter = page.locator('.active-filters bdi');
    await filter.waitFor();
    expect(await filter.textContent()).toBe(tag);
    // A tag link in a row and on the skill page sets its own direction, apart from what follows it.
    await api.addSkill(
      md('rtl-tags', 'A skill with a right-to-left tag', '# RTL\n', `tags: [${tag}, ok]\n`),
      {
        wait: true,
      },
    );
    try {
      await page.goto(`${server.url}/#/?tag=${encodeURIComponent(tag)}`);
      await page.reload();
      const rowTag = page.locator('[data-skill="rtl-tags"] a.tag').first();
      await rowTag.waitFor();
      expect(await rowTag.getAttribute('dir')).toBe('auto');
      await page.goto(`${server.url}/#/skill/rtl-tags`);
      const pageTag = page.locator('.skill-meta a.tag').first();
      await pageTag.waitFor();
      expect(await pageTag.textContent()).toBe(tag);
      expect(await pageTag.evaluate((e) => getComputedStyle(e).unicodeBidi)).toBe('isolate');
    } finally {
      await api.deleteSkill('rtl-tags', { purge: true });
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('works at 360 px and in dark mode, and "/" focuses the search box', async () => {
    const narrow = await openPage(`${server.url}/`, { width: 360, height: 780 });
    await expect.poll(() => narrow.page.getByTestId('skill-list').locator('li').count()).toBe(4);
    const overflow = await narrow.page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(narrow.page, 'catalogue-360px');
    await narrow.page.keyboard.press('/');
    expect(await narrow.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Search skills',
    );
    await narrow.page.goto(`${server.url}/#/skill/meeting-notes`);
    await narrow.page.getByTestId('skill-body').locator('h1').waitFor();
    const skillOverflow = await narrow.page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(skillOverflow).toBeLessThanOrEqual(0);
    await shot(narrow.page, 'skill-360px');
    await narrow.context.close();

    const dark = await openPage(`${server.url}/#/skill/meeting-notes`, undefined, 'dark');
    await dark.page.getByTestId('skill-body').locator('h1').waitFor();
    const background = await dark.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).not.toBe('rgb(247, 247, 251)');
    await shot(dark.page, 'skill-desktop-dark');
    await dark.context.close();
  });

  // A bookmark from when there were more skills, or a page number typed into the address: the
  // page said "No skills here yet" and offered to add one, on a registry full of skills.
  it('a page past the end says so and links to the last page', async () => {
    const { page, context, errors } = await openPage(`${server.url}/#/?page=7`);
    const empty = page.locator('.empty-state');
    await empty.waitFor();
    expect(await empty.locator('h2').textContent()).toBe('No page 7');
    expect(await empty.textContent()).not.toContain('No skills here yet');
    await empty.getByRole('link', { name: 'Go to page 1' }).click();
    await expect.poll(() => page.getByTestId('skill-list').locator('li').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('result-line').textContent()).toMatch(/^1–\d+ of \d+ skills$/);
    // A search too: its results fill fewer pages.
    await page.goto(`${server.url}/#/?q=meeting&page=3`);
    await expect.poll(() => page.locator('.empty-state h2').textContent(), FIND_SHOWN).toBe('No page 3');
    expect(await page.locator('.empty-state').textContent()).toContain('These results fill 1 page.');
    expect(errors).toEqual([]);
    await context.close();
  });

  // Keyboard and screen-reader users: the link they followed is gone, so focus goes to the skill's
  // name (it stayed on <body>: the heading was focused before it existed). Back returns to the
  // same place in the list, not to its top.
  it('opening a skill focuses its name, and Back returns to the same place in the list', async () => {
    const { page, context, errors } = await openPage(`${server.url}/`, { width: 360, height: 260 });
    const rows = page.getByTestId('skill-list').locator('li');
    await expect.poll(() => rows.count()).toBeGreaterThan(2);
    const last = rows.last();
    const name = (await last.getAttribute('data-skill')) ?? '';
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const y = await page.evaluate(() => window.scrollY);
    expect(y).toBeGreaterThan(100);
    await last.locator('a.skill-name').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(name);
    await page.goBack();
    await expect.poll(() => rows.count()).toBeGreaterThan(2);
    await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(Math.round(y));
    // Forward to the skill and Back again: the same.
    await page.goForward();
    await page.locator('.skill-header h1').waitFor();
    await page.goBack();
    await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(Math.round(y));
    expect(errors).toEqual([]);
    await context.close();
  });

  // The server down or restarting while the page is open: the skill page said "Could not load this
  // skill" with the client's raw "Failed to fetch" text, and stayed so once the server was back.
  it('a skill that cannot be loaded says why in words and loads on "Try again"', async () => {
    const { page, context } = await openPage(`${server.url}/`);
    await page.getByTestId('skill-list').locator('li').first().waitFor();
    const skillGet = (url: URL) => url.pathname === '/api/v1/skills/meeting-notes';
    await page.route(skillGet, (route) => route.abort('connectionrefused'));
    await page.goto(`${server.url}/#/skill/meeting-notes`);
    const failed = page.locator('.empty-state');
    await failed.waitFor();
    expect(await failed.locator('h1').textContent()).toBe('Could not load this skill');
    expect(await failed.locator('p').textContent()).toBe('Cannot reach the Skillport server. Is it running?');
    await shot(page, 'skill-load-failed');
    await page.unroute(skillGet);
    await failed.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('skill-body').locator('h1').waitFor();
    expect(await page.locator('.skill-header h1').textContent()).toBe('meeting-notes');
    await context.close();
  });

  // A 1 MB list kept the tab busy ~3 s (more on a loaded machine) before anything showed.
  it('a very long SKILL.md is shown in part first, and in full on "Render all"', async () => {
    const items = '- step with a few words in it\n'.repeat(30_000);
    await api.addSkill(
      md('long-manual', 'A very long manual', `# Long manual\n\n${items}\n## The end\n\nDone.\n`),
      {
        wait: true,
      },
    );
    const { page, context, errors } = await openPage(`${server.url}/#/skill/long-manual`);
    const body = page.getByTestId('skill-body');
    await body.locator('h1').waitFor();
    const cut = page.getByTestId('markdown-cut');
    await cut.waitFor();
    expect(await cut.textContent()).toMatch(/^This document is 879 KB; the first 195 KB are shown\./);
    const shown = await body.locator('li').count();
    expect(shown).toBeGreaterThan(6_000);
    expect(shown).toBeLessThan(7_000);
    expect(await body.locator('h2').count()).toBe(0);
    await shot(page, 'skill-long-cut');
    await cut.getByRole('button', { name: 'Render all' }).click();
    await body.locator('h2').waitFor();
    expect(await body.locator('li').count()).toBe(30_000);
    expect(await cut.count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the install command of a skill whose name starts with "-" puts it after "--"', async () => {
    const added = await api.addSkill(
      md('-dash-notes', 'A skill whose name starts with a hyphen', '# Dash\n'),
      {
        wait: true,
      },
    );
    // Accepted (OpenViking accepts it), with the warning every surface gives.
    expect(added.warnings.map((w) => w.rule)).toContain('name_leading_hyphen');
    const { page, context, errors } = await openPage(`${server.url}/#/skill/-dash-notes`);
    await page.getByTestId('install-command').waitFor();
    expect(await page.getByTestId('install-command').textContent()).toBe('skillport install -- -dash-notes');
    expect(errors).toEqual([]);
    await context.close();
    await api.deleteSkill('-dash-notes', { purge: true });
  });

  // A restore writes an earlier revision anew: the same revision id appears twice in the history, and
  // only the newest entry is current.
  it('history after a restore marks only the current entry current', async () => {
    const first = await api.addSkill(md('history-notes', 'A skill that is changed and restored', '# One\n'), {
      wait: true,
    });
    await api.updateSkill(
      'history-notes',
      md('history-notes', 'A skill that is changed and restored', '# Two\n'),
      {
        wait: true,
      },
    );
    await api.restoreSkill('history-notes', first.revision, { wait: true });
    const { page, context, errors } = await openPage(`${server.url}/#/skill/history-notes`);
    const items = page.getByTestId('revisions').locator('li');
    await expect.poll(() => items.count(), { timeout: 15_000 }).toBe(3);
    const texts = await items.allInnerTexts();
    expect(texts.filter((t) => /current/.test(t))).toHaveLength(1);
    expect(texts[0]).toMatch(/current/);
    expect(texts[0]).toContain(first.revision.slice(0, 10));
    expect(texts[2]).toContain(first.revision.slice(0, 10));
    expect(errors).toEqual([]);
    await context.close();
    await api.deleteSkill('history-notes', { purge: true });
  });

  it('a history entry opens that revision read-only: SKILL.md, levels and files as kept then', async () => {
    const DESC = 'A skill whose history is opened';
    const first = await api.addSkill(md('past-notes', DESC, '# One\n'), { wait: true });
    const second = await api.addSkill(
      [
        {
          path: 'past-notes/SKILL.md',
          data: md('past-notes', DESC, '# Two\n\nSee [the extra](docs/extra.md).\n'),
        },
        { path: 'past-notes/docs/extra.md', data: '# Extra\n\nOnly the second revision has it.\n' },
      ],
      { wait: true },
    );
    await api.restoreSkill('past-notes', first.revision, { wait: true });
    const { page, context, errors } = await openPage(`${server.url}/#/skill/past-notes`);
    const items = page.getByTestId('revisions').locator('li');
    await expect.poll(() => items.count(), { timeout: 15_000 }).toBe(3);
    expect(await page.getByTestId('past-revision').count()).toBe(0);
    expect(await page.getByRole('button', { name: /Delete/ }).count()).toBe(1);
    // The second entry is the revision with the extra file.
    await items.nth(1).getByRole('link').click();
    await expect.poll(() => page.url()).toContain(`revision=${second.revision}`);
    const body = page.getByTestId('skill-body');
    await expect.poll(() => body.locator('h1').textContent(), { timeout: 15_000 }).toBe('Two');
    expect(await page.getByTestId('past-revision').textContent()).toContain(second.revision.slice(0, 10));
    expect(await page.getByRole('button', { name: /Delete/ }).count()).toBe(0);
    expect(await page.getByRole('link', { name: /Update/ }).count()).toBe(0);
    expect(await page.getByTestId('install-command').textContent()).toBe(
      `skillport install past-notes@${second.revision.slice(0, 12)}`,
    );
    expect(await items.nth(1).getByRole('link').getAttribute('aria-current')).toBe('page');
    // Its file, which the current revision no longer has, opens from that revision.
    await body.getByText('the extra').click();
    const viewer = page.getByTestId('file-viewer');
    await expect
      .poll(() => viewer.textContent(), { timeout: 15_000 })
      .toContain('Only the second revision has it.');
    // The tabs stay on the revision.
    await page.getByRole('tab', { name: /Source/ }).click();
    await expect.poll(() => page.getByTestId('skill-source').textContent()).toContain('# Two');
    expect(page.url()).toContain(`revision=${second.revision}`);
    await shot(page, 'skill-past-revision');
    // Back to the current revision: editable again.
    await page.getByRole('link', { name: 'Open the current revision' }).click();
    await expect.poll(() => page.getByTestId('skill-body').locator('h1').textContent()).toBe('One');
    expect(await page.getByTestId('past-revision').count()).toBe(0);
    expect(await page.getByRole('button', { name: /Delete/ }).count()).toBe(1);
    // A revision the server does not keep says so.
    await page.goto(`${server.url}/#/skill/past-notes?revision=${'0'.repeat(64)}`);
    await expect
      .poll(() => page.locator('h1').first().textContent(), { timeout: 15_000 })
      .toContain('has no revision 000000000000');
    expect(errors).toEqual([]);
    await context.close();
    await api.deleteSkill('past-notes', { purge: true });
  });

  it('opens a skill: levels, frontmatter, files with sizes, file view and download, copy buttons', async () => {
    const { page, context, errors } = await openPage(`${server.url}/`);
    await page.getByRole('link', { name: 'meeting-notes' }).click();
    await expect.poll(() => page.url()).toContain('#/skill/meeting-notes');
    const body = page.getByTestId('skill-body');
    await body.locator('h1').waitFor();
    expect(await body.locator('strong').first().textContent()).toBe('action item');
    expect(await body.locator('table td').first().textContent()).toBe('1');
    // The skill's own image loads through the API as a blob URL.
    await expect.poll(() => body.locator('img').first().getAttribute('src')).toMatch(/^blob:/);
    expect(await page.getByTestId('install-command').textContent()).toBe('skillport install meeting-notes');
    expect(await page.getByTestId('skill-uri').textContent()).toBe(
      'viking://user/default/skills/meeting-notes',
    );
    const frontmatter = page.getByTestId('frontmatter');
    expect(await frontmatter.textContent()).toContain('MIT');
    expect(await frontmatter.textContent()).toContain('Ada');
    const files = page.getByTestId('files');
    expect(await files.locator('tr[data-path="docs/guide.md"] td').nth(1).textContent()).toBe(
      `${GUIDE.length} B`,
    );
    await shot(page, 'skill-desktop-light');

    // A Markdown view fills itself in an effect after the tab's first paint: poll, not read once.
    await page.getByRole('tab', { name: /Overview/ }).click();
    await expect.poll(() => page.getByTestId('skill-overview').textContent()).toContain('meeting-notes');
    await page.getByRole('tab', { name: /Abstract/ }).click();
    await expect.poll(() => page.getByTestId('skill-abstract').textContent()).toContain('Turn meeting notes');
    await page.getByRole('tab', { name: /Source/ }).click();
    expect(await page.getByTestId('skill-source').textContent()).toBe(NOTES);
    await page.getByRole('tab', { name: /SKILL\.md/ }).click();

    // A relative link in the body opens the file viewer.
    await body.getByText('the guide').click();
    const viewer = page.getByTestId('file-viewer');
    await viewer.locator('h1').waitFor();
    expect(await viewer.textContent()).toContain('Owners are the people named next to an action.');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      viewer.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('guide.md');
    const saved = path.join(work, 'guide.md');
    await download.saveAs(saved);
    expect(readFileSync(saved, 'utf8')).toBe(GUIDE);

    // The clipboard gets the install command.
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copy install' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('skillport install meeting-notes');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows located validation errors before anything is sent, and uploads a folder with progress', async () => {
    const { page, context, errors } = await openPage(`${server.url}/#/add`);
    const editor = page.getByTestId('skill-editor');
    await editor.fill('---\nname: broken skill\ndescription: [unclosed\n---\n\n# Broken\n');
    const verdict = page.getByTestId('verdict');
    await expect.poll(() => verdict.textContent()).toMatch(/error/);
    const issue = verdict.locator('.diagnostic.error').first();
    expect(await issue.textContent()).toMatch(/SKILL\.md:\d+:\d+/);
    expect(await page.getByTestId('submit').isDisabled()).toBe(true);
    await shot(page, 'add-validation-error');
    // Nothing reached the server.
    expect((await api.listSkills()).skills.map((s) => s.name)).not.toContain('broken skill');

    // A name add would refuse is an error here too, although validate only warns about it.
    await editor.fill(md('Changelog Helper', 'Helps write changelogs for releases', '# Changelog\n'));
    await expect
      .poll(() => verdict.locator('.diagnostic.error').first().getAttribute('data-rule'))
      .toBe('name_allowed_characters');

    const folder = path.join(work, 'pdf-helper');
    mkdirSync(path.join(folder, 'scripts'), { recursive: true });
    const skillMd = md(
      'pdf-helper',
      'Extract tables from PDF files into CSV',
      '# PDF helper\n\nRun `scripts/extract.py`.\n',
      'tags: [pdf]\n',
    );
    writeFileSync(path.join(folder, 'SKILL.md'), skillMd);
    writeFileSync(path.join(folder, 'scripts', 'extract.py'), 'print("tables")\n');
    writeFileSync(path.join(folder, '.env'), 'SECRET=1\n');
    await page.getByTestId('folder-input').setInputFiles(folder);
    await expect.poll(() => verdict.textContent()).toContain('Ready');
    const listed = await page.getByTestId('upload-files').textContent();
    expect(listed).toContain('scripts/extract.py');
    expect(listed).not.toContain('.env');
    await shot(page, 'add-folder-ready');
    await page.getByTestId('submit').click();
    const result = page.getByTestId('add-result');
    await result.waitFor();
    expect(await result.textContent()).toContain('Added pdf-helper');
    await shot(page, 'add-folder-done');
    const stored = await api.getSkill('pdf-helper', { include_content: true });
    expect(stored.content).toBe(skillMd);
    const paths = (stored.files ?? []).filter((f) => f.kind === 'auxiliary').map((f) => f.path);
    expect(paths).toEqual(['scripts/extract.py']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a SKILL.md file that is not UTF-8 is refused before upload, naming where; a BOM and CRLF file is stored byte for byte', async () => {
    const { page, context, errors } = await openPage(`${server.url}/#/add`);
    const fileInput = page.getByTestId('file-input');
    const alert = page.getByRole('alert');
    // Latin-1 "é" (E9) where add and validate refuse it: line 3, column 31.
    const latin1 = Buffer.concat([
      Buffer.from('---\nname: latin1-notes\ndescription: Notes for the caf'),
      Buffer.from([0xe9]),
      Buffer.from(' team meetings\n---\n\n# Notes\n'),
    ]);
    await fileInput.setInputFiles({ name: 'SKILL.md', mimeType: 'text/markdown', buffer: latin1 });
    await expect
      .poll(() => alert.textContent())
      .toContain('SKILL.md is not valid UTF-8 (first bad byte at line 3, column 31)');
    // UTF-16 (as Windows PowerShell 5 saves text) is named as such.
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(md('utf16-notes', 'Notes saved as UTF-16', '# N\n'), 'utf16le'),
    ]);
    await fileInput.setInputFiles({ name: 'SKILL.md', mimeType: 'text/markdown', buffer: utf16 });
    await expect.poll(() => alert.textContent()).toContain('SKILL.md is UTF-16LE, not UTF-8');
    expect((await api.listSkills()).skills.map((s) => s.name)).not.toContain('latin1-notes');

    const windows = Buffer.from(
      `\ufeff${md('bom-notes', 'Notes saved by a Windows editor', '# Notes\n')}`.replace(/\n/g, '\r\n'),
    );
    await fileInput.setInputFiles({ name: 'SKILL.md', mimeType: 'text/markdown', buffer: windows });
    await expect.poll(() => page.getByTestId('verdict').textContent()).toContain('Ready');
    await page.getByTestId('submit').click();
    await page.getByTestId('add-result').waitFor();
    const stored = await api.getSkill('bom-notes', { level: 2 });
    expect(Buffer.from(stored.content ?? '', 'utf8').equals(windows)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('deletes a skill after the name is typed', async () => {
    const { page, context, errors } = await openPage(`${server.url}/#/skill/release-notes`);
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    const confirm = dialog.getByRole('button', { name: 'Delete skill' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByRole('textbox').fill('release-notes');
    await shot(page, 'delete-confirm');
    await confirm.click();
    await expect.poll(() => page.url()).toMatch(/#\/$/);
    await expect
      .poll(() => page.getByTestId('skill-list').locator('li[data-skill="release-notes"]').count())
      .toBe(0);
    await expect(api.getSkill('release-notes')).rejects.toMatchObject({ status: 404 });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('runs nothing from a hostile skill: scripts, handlers, javascript: links, HTML in frontmatter', async () => {
    const { page, context, errors, dialogs } = await openPage(`${server.url}/#/skill/hostile-skill`);
    const body = page.getByTestId('skill-body');
    await body.locator('h1').waitFor();
    // Raw HTML is shown as text, never parsed.
    expect(await body.textContent()).toContain('<script>window.__tripwire("body-script")</script>');
    expect(await page.getByTestId('skill-description').textContent()).toContain('<img src=x onerror=');
    const dom = await page.evaluate(() => {
      const root = document.querySelector('[data-testid="skill-body"]') as HTMLElement;
      const all = Array.from(root.querySelectorAll('*'));
      return {
        scripts: root.querySelectorAll('script, iframe, object, embed').length,
        handlers: all.flatMap((el) =>
          Array.from(el.attributes)
            .filter((a) => /^on/i.test(a.name))
            .map((a) => a.name),
        ),
        hrefs: Array.from(root.querySelectorAll('a[href]')).map((a) => a.getAttribute('href')),
        images: Array.from(root.querySelectorAll('img')).map((i) => i.getAttribute('src')),
        styles: all.filter((el) => el.hasAttribute('style')).length,
      };
    });
    expect(dom.scripts).toBe(0);
    expect(dom.handlers).toEqual([]);
    expect(dom.styles).toBe(0);
    for (const href of dom.hrefs) expect(href).toMatch(/^https?:/);
    expect(dom.images).toEqual([]);
    expect(await body.textContent()).toContain('remote image on tracker.example, not loaded');
    // Click every link and control in the rendered body and the frontmatter.
    for (const link of await body.locator('a, [role="link"], div').all()) {
      await link.click({ force: true, timeout: 2000 }).catch(() => {});
    }
    await page.getByTestId('frontmatter').click();
    for (const tab of ['Overview', 'Abstract', 'Source'])
      await page.getByRole('tab', { name: new RegExp(tab) }).click();
    await page.getByRole('tab', { name: /SKILL\.md/ }).click();
    await page.getByTestId('skill-body').getByText('see the evil file').click();
    const viewer = page.getByTestId('file-viewer');
    await viewer.locator('h1').waitFor();
    for (const link of await viewer.locator('a, [role="link"]').all()) {
      await link.click({ force: true, timeout: 2000 }).catch(() => {});
    }
    await shot(page, 'hostile-skill');
    // The catalogue row shows the description as text too.
    await page.goto(`${server.url}/#/?q=hostile`);
    await page.getByTestId('skill-list').locator('li[data-skill="hostile-skill"]').waitFor();
    expect(await tripped(page)).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    // Control: the tripwire does record what the page's policy blocks (here a remote image; inline
    // handlers cannot even be set: Trusted Types refuse the attribute).
    await page.evaluate(() => {
      const img = document.createElement('img');
      img.src = 'https://tracker.example/control.png';
      document.body.append(img);
    });
    await expect.poll(() => tripped(page)).toEqual([expect.stringMatching(/^csp:img-src/)]);
    await context.close();
  });

  it('asks for an API key on a keyed server and keeps it in the tab only', async () => {
    const rootKey = `root-${randomBytes(12).toString('hex')}`;
    keyed = await startServerProcess([], rootKey);
    const root = new AsyncHTTPClient({ url: keyed.url, apiKey: rootKey });
    await root.request('POST', 'api/v1/admin/accounts', { json: { account_id: 'acme' } });
    await root.request('POST', 'api/v1/admin/accounts/acme/users', { json: { user_id: 'ann' } });
    const { api_key: key } = await root.createApiKey('acme', { user_id: 'ann' });
    root.close();
    const ann = new AsyncHTTPClient({ url: keyed.url, apiKey: key });
    await ann.addSkill(md('keyed-skill', 'Only readers with a key see this', '# Keyed\n'), { wait: true });
    ann.close();

    const { page, context, errors } = await openPage(`${keyed.url}/`);
    const dialog = page.getByRole('dialog', { name: 'API key' });
    await dialog.waitFor();
    await dialog.getByLabel('Key').fill('wrong-key');
    await dialog.getByRole('button', { name: 'Use key' }).click();
    await expect.poll(() => dialog.textContent()).toContain('refused');
    await shot(page, 'api-key-prompt');
    await dialog.getByLabel('Key').fill(key);
    await dialog.getByRole('button', { name: 'Use key' }).click();
    await page.getByTestId('skill-list').locator('li[data-skill="keyed-skill"]').waitFor();
    const stored = await page.evaluate(() => ({
      session: sessionStorage.getItem('skillport.apiKey'),
      local: Object.keys(localStorage).filter((k) => localStorage.getItem(k)?.includes('key')),
    }));
    expect(stored.session).toBe(key);
    expect(stored.local).toEqual([]);
    // A new tab (new session) asks again.
    const other = await context.newPage();
    await other.goto(`${keyed.url}/`);
    await other.getByRole('dialog', { name: 'API key' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('a root larger than the browser holds', () => {
  const COUNT = 1250;

  it('pages through the server without ever fetching more than a window, and sorts by name only', async () => {
    large = await startServerProcess();
    const client = new AsyncHTTPClient({ url: large.url });
    const names = Array.from({ length: COUNT }, (_, i) => `bulk-${String(i + 1).padStart(4, '0')}`);
    for (let i = 0; i < names.length; i += 50) {
      await Promise.all(
        names.slice(i, i + 50).map((name, j) =>
          client.addSkill(
            md(
              name,
              `Bulk skill number ${i + j + 1}`,
              '# Bulk\n',
              (i + j) % 10 === 0 ? 'tags: [tenth]\n' : '',
            ),
            {
              target_uri: 'viking://agent/skills',
            },
          ),
        ),
      );
    }
    await client.waitProcessed({ timeout: 120 });
    client.close();

    const { page, context, errors } = await openPage(`${large.url}/#/?root=agent`);
    const asked: number[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/v1/skills') asked.push(Number(url.searchParams.get('node_limit')));
    });
    const list = page.getByTestId('skill-list');
    const line = page.getByTestId('result-line');
    await expect.poll(() => line.textContent()).toBe('1–30 of 1,250 skills');
    await expect.poll(() => list.locator('li').first().getAttribute('data-skill')).toBe('bulk-0001');
    expect(await page.getByLabel('Sort').isDisabled()).toBe(true);
    await page.getByRole('link', { name: 'Next' }).click();
    await expect.poll(() => line.textContent()).toBe('31–60 of 1,250 skills');
    await expect.poll(() => list.locator('li').first().getAttribute('data-skill')).toBe('bulk-0031');
    await page.goto(`${large.url}/#/?root=agent&page=42`);
    await expect.poll(() => line.textContent()).toBe('1,231–1,250 of 1,250 skills');
    await expect.poll(() => list.locator('li').last().getAttribute('data-skill')).toBe('bulk-1250');
    expect(await page.locator('a[rel="next"]').getAttribute('aria-disabled')).toBe('true');
    await shot(page, 'catalogue-large-root');
    // Only pages and windows were fetched, never the whole root.
    expect(Math.max(...asked)).toBeLessThanOrEqual(1260);
    // A tag filter on a large root asks find for the tag and keeps exact matches.
    await page.goto(`${large.url}/#/?root=agent&tag=tenth`);
    await expect.poll(() => line.textContent(), FIND_SHOWN).toBe('1–30 of 125 skills');
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
