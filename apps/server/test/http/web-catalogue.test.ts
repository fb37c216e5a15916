/**
 * Serving the web catalogue at `/` from a built folder: headers of the page (CSP, no-cache) and of
 * hashed assets (a year, immutable), ETag revalidation, compressed encodings, the API unchanged,
 * and the catalogue turned off or missing.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { optionsFromEnv } from '../../src/config.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const INDEX =
  '<!doctype html><html><head><script type="module" src="./assets/index-abc123.js"></script></head><body></body></html>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});\n`;
let dir: string;
let t: TestServer;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'skillport-webapp-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), INDEX);
  writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), SCRIPT);
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  t = await startTestServer({ webDir: dir });
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('GET / (web catalogue)', () => {
  test('the page: strict CSP, no-cache, no framing, no sniffing, no referrer', async () => {
    for (const p of ['/', '/index.html']) {
      const res = await fetch(`${t.url}${p}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(INDEX);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/default-src 'none'/);
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(csp).toMatch(/connect-src 'self'/);
      expect(csp).toMatch(/frame-ancestors 'none'/);
      expect(csp).toMatch(/require-trusted-types-for 'script'/);
      expect(csp).not.toMatch(/unsafe/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });

  test('hashed assets are cached for a year; ETag revalidates with 304', async () => {
    const res = await fetch(`${t.url}/assets/index-abc123.js`, {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await res.text()).toBe(SCRIPT);
    const etag = res.headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    const again = await fetch(`${t.url}/assets/index-abc123.js`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    const icon = await fetch(`${t.url}/favicon.svg`);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('cache-control')).toBe('no-cache');
  });

  test('text files go out gzip-encoded to clients that accept it', async () => {
    const { request } = await import('node:http');
    const body = await new Promise<{ encoding: string | undefined; bytes: Buffer }>((resolve, reject) => {
      request(`${t.url}/assets/index-abc123.js`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ encoding: res.headers['content-encoding'], bytes: Buffer.concat(chunks) }),
        );
      })
        .on('error', reject)
        .end();
    });
    expect(body.encoding).toBe('gzip');
    expect(body.bytes.length).toBeLessThan(SCRIPT.length / 4);
    expect(gunzipSync(body.bytes).toString()).toBe(SCRIPT);
  });

  test('unknown assets are 404; the API answers as before, without a key in dev mode', async () => {
    expect((await fetch(`${t.url}/assets/missing.js`)).status).toBe(404);
    expect((await t.request('GET', '/health')).json.healthy).toBe(true);
    expect((await t.request('GET', '/api/v1/skills')).status).toBe(200);
    expect((await t.request('GET', '/openapi.json')).json.openapi).toBe('3.1.0');
  });
});

describe('without a catalogue', () => {
  test('webDir false: GET / says how to get one, the API still works', async () => {
    const off = await startTestServer({ webDir: false });
    try {
      const res = await fetch(`${off.url}/`);
      expect(res.status).toBe(404);
      expect(await res.text()).toMatch(/web catalogue is not part of this build/);
      expect((await off.request('GET', '/health')).status).toBe(200);
    } finally {
      await off.close();
    }
  });

  test('a configured folder without index.html refuses to start, naming the variable', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'skillport-webapp-empty-'));
    const dataDir = mkdtempSync(path.join(tmpdir(), 'skillport-webapp-data-'));
    try {
      await expect(startTestServer({ webDir: empty, dataDir })).rejects.toThrow(
        /SKILLPORT_WEB_DIR: .* has no index\.html/,
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test.each([
    ['off', false],
    ['false', false],
    ['./web/dist', './web/dist'],
  ])('SKILLPORT_WEB_DIR=%s → webDir %s', (value, expected) => {
    expect(optionsFromEnv({ SKILLPORT_WEB_DIR: value }).webDir).toBe(expected);
  });
});
