/**
 * Serving the web catalogue at `/`: `index.html` (never cached, strict Content-Security-Policy),
 * hashed `assets/*` (cached for a year), and the other top-level files of the build.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../http/context.js';
import type { WebAsset, WebAssets } from './web-assets.js';

/**
 * The page's Content-Security-Policy. Scripts, styles and API calls come from this origin only;
 * images also from `data:` and `blob:` (a skill's own images, fetched through the API); no plugins,
 * frames, forms or base changes; Trusted Types allow HTML parsing only to the sanitiser (DOMPurify),
 * so no other code path can turn a string into markup.
 */
export const WEB_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
  "require-trusted-types-for 'script'",
  'trusted-types dompurify',
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': WEB_CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
};

function send(c: Context<AppEnv>, asset: WebAsset): Response {
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    'Content-Type': asset.type,
    ETag: asset.etag,
    'Cache-Control': asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    Vary: 'Accept-Encoding',
  };
  const inm = c.req.header('if-none-match');
  if (inm?.split(',').some((t) => t.trim().replace(/^W\//, '') === asset.etag)) {
    return c.body(null, 304, headers);
  }
  const accepts = (c.req.header('accept-encoding') ?? '').toLowerCase();
  let body = asset.body;
  if (asset.br && /\bbr\b/.test(accepts)) {
    body = asset.br;
    headers['Content-Encoding'] = 'br';
  } else if (asset.gzip && /\bgzip\b/.test(accepts)) {
    body = asset.gzip;
    headers['Content-Encoding'] = 'gzip';
  }
  headers['Content-Length'] = String(body.byteLength);
  return c.body(body as Uint8Array<ArrayBuffer>, 200, headers);
}

/**
 * Registers the catalogue's routes: `GET /` and `/index.html` (the page), `/assets/*` and each
 * top-level file of the build. With no build, `GET /` says how to get one.
 *
 * @param assets - the loaded build, or null
 */
export function registerWebRoutes(app: OpenAPIHono<AppEnv>, assets: WebAssets | null): void {
  if (!assets) {
    app.get('/', (c) =>
      c.text(
        'The Skillport web catalogue is not part of this build. The API is at /api/v1 (see /openapi.json). ' +
          'Build it with `pnpm build`, or point SKILLPORT_WEB_DIR at a built catalogue.\n',
        404,
      ),
    );
    return;
  }
  const index = assets.files.get('index.html') as WebAsset;
  app.get('/', (c) => send(c, index));
  app.get('/index.html', (c) => send(c, index));
  app.get('/assets/*', async (c, next) => {
    const asset = assets.files.get(c.req.path.slice(1));
    if (!asset) return next();
    return send(c, asset);
  });
  for (const [rel, asset] of assets.files) {
    if (rel.includes('/') || rel === 'index.html') continue;
    app.get(`/${rel}`, (c) => send(c, asset));
  }
}
