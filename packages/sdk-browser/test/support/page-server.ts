/**
 * A static server for the browser test: a page whose import map points at the BUILT
 * `@skillport/sdk-browser` (`dist/`) and its two runtime dependencies, ky and fflate, as ESM files.
 */

import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Folder of a dependency as installed for this package (pnpm links it under node_modules). */
function packageDir(name: string): string {
  return realpathSync(path.join(PACKAGE_DIR, 'node_modules', name));
}

const ROUTES: Record<string, string> = {
  '/sdk/': path.join(PACKAGE_DIR, 'dist'),
  '/deps/ky/': path.join(packageDir('ky'), 'distribution'),
  '/deps/fflate/': path.join(packageDir('fflate'), 'esm'),
};

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>skillport sdk-browser</title>
<script type="importmap">${JSON.stringify({
  imports: {
    '@skillport/sdk-browser': '/sdk/index.js',
    ky: '/deps/ky/index.js',
    fflate: '/deps/fflate/browser.js',
  },
})}</script>
<script type="module">
  import * as sdk from '@skillport/sdk-browser';
  window.sdk = sdk;
  document.title = 'ready';
</script></head>
<body><input id="pick" type="file" webkitdirectory multiple></body></html>`;

export interface PageServer {
  origin: string;
  close(): Promise<void>;
}

/** Serves the page on 127.0.0.1 (port 0). Only files under the mapped folders are served. */
export async function startPageServer(): Promise<PageServer> {
  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
      return;
    }
    const prefix = Object.keys(ROUTES).find((p) => url.pathname.startsWith(p));
    const base = prefix ? ROUTES[prefix] : undefined;
    const file = base && prefix ? path.join(base, url.pathname.slice(prefix.length)) : undefined;
    if (!base || !file?.startsWith(base + path.sep)) {
      response.writeHead(404).end();
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
