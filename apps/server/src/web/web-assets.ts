/**
 * The web catalogue's static files (`@skillport/web`, built by Vite), held in memory and served at
 * `/` with the headers a page showing untrusted content needs.
 *
 * Where the files come from, first found wins:
 * 1. the `webDir` option / `SKILLPORT_WEB_DIR` (a folder holding `index.html`);
 * 2. `dist/webapp/` of this package — the server's build copies the catalogue there, so the
 *    published `@skillport/server` carries it;
 * 3. in the workspace, `apps/web/dist/` through the `@skillport/web` package.
 */

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** One file ready to send. */
export interface WebAsset {
  body: Uint8Array;
  /** Brotli and gzip encodings, when the build made them or the file is worth compressing. */
  br: Uint8Array | null;
  gzip: Uint8Array | null;
  type: string;
  etag: string;
  /** Hashed file names (`assets/…`) never change: cached for a year. */
  immutable: boolean;
}

/** The catalogue's files by URL path (without the leading `/`), and where they were read from. */
export interface WebAssets {
  dir: string;
  files: Map<string, WebAsset>;
}

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  ico: 'image/x-icon',
  webp: 'image/webp',
  json: 'application/json',
  webmanifest: 'application/manifest+json',
  txt: 'text/plain; charset=utf-8',
  woff2: 'font/woff2',
};
const COMPRESSIBLE = new Set(['html', 'js', 'mjs', 'css', 'svg', 'json', 'webmanifest', 'txt']);
/** Most files and bytes read from a catalogue folder (a guard against pointing it at a big tree). */
const MAX_FILES = 500;
const MAX_BYTES = 32 * 1024 * 1024;

function extension(file: string): string {
  return file.slice(file.lastIndexOf('.') + 1).toLowerCase();
}

function listFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(dir, rel));
    else if (entry.isFile()) out.push(rel);
    if (out.length > MAX_FILES)
      throw new Error(`${dir} holds more than ${MAX_FILES} files; is it the web catalogue?`);
  }
  return out;
}

function readOptional(file: string): Uint8Array | null {
  try {
    return new Uint8Array(readFileSync(file));
  } catch {
    return null;
  }
}

/**
 * Reads a built catalogue folder into memory.
 *
 * @param dir - folder holding `index.html` and `assets/`
 * @returns the files, with precompressed `.br` / `.gz` siblings used when present (otherwise text
 *   files are gzipped here)
 * @throws Error when the folder has no `index.html` or is too large
 */
export function loadWebAssets(dir: string): WebAssets {
  const files = new Map<string, WebAsset>();
  let total = 0;
  for (const rel of listFiles(dir)) {
    const ext = extension(rel);
    if (ext === 'br' || ext === 'gz' || ext === 'map') continue;
    const body = new Uint8Array(readFileSync(path.join(dir, rel)));
    total += body.length;
    if (total > MAX_BYTES)
      throw new Error(`${dir} holds more than ${MAX_BYTES} bytes; is it the web catalogue?`);
    const compressible = COMPRESSIBLE.has(ext) && body.length > 512;
    const br = compressible ? readOptional(path.join(dir, `${rel}.br`)) : null;
    const gzip = compressible
      ? (readOptional(path.join(dir, `${rel}.gz`)) ?? new Uint8Array(gzipSync(body, { level: 9 })))
      : null;
    files.set(rel, {
      body,
      br,
      gzip,
      type: TYPES[ext] ?? 'application/octet-stream',
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      immutable: rel.startsWith('assets/'),
    });
  }
  if (!files.has('index.html')) throw new Error(`${dir} has no index.html`);
  return { dir, files };
}

function hasIndex(dir: string): boolean {
  try {
    return statSync(path.join(dir, 'index.html')).isFile();
  } catch {
    return false;
  }
}

/**
 * Finds the built catalogue (see the module comment for the order).
 *
 * @param configured - `webDir` option or `SKILLPORT_WEB_DIR`; `false` turns the catalogue off
 * @returns the folder, or null when there is none (or it is turned off)
 * @throws Error when a configured folder has no `index.html`
 */
export function findWebDir(configured?: string | false): string | null {
  if (configured === false) return null;
  if (configured) {
    const dir = path.resolve(configured);
    if (!hasIndex(dir))
      throw new Error(`SKILLPORT_WEB_DIR: ${dir} has no index.html (build the catalogue first)`);
    return dir;
  }
  const bundled = fileURLToPath(new URL('../webapp/', import.meta.url));
  if (hasIndex(bundled)) return bundled;
  try {
    const require = createRequire(import.meta.url);
    const workspace = path.join(path.dirname(require.resolve('@skillport/web/package.json')), 'dist');
    if (hasIndex(workspace)) return workspace;
  } catch {
    // not in the workspace
  }
  return null;
}
