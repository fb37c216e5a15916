/**
 * `GET /api/v1/skills/{name}` answered before the framework: a plain get (or, for `If-None-Match`, a
 * revalidation whose result or revision the read cache holds under the store's current change token),
 * by a caller whose key the authenticator resolved under that token, is answered straight on Node's
 * `ServerResponse` — the same status, headers and body, the same rate limit and request line as the
 * route answers — without building a WHATWG `Request`, routing or running the middleware chain. A
 * plain get the read cache does not hold is read as the route reads it (`getSkillJson`). Any request
 * that is not certain to get exactly that answer (another shape of query, a header given twice, a key
 * not resolved under this token, a skill not found, CORS configured, …) goes to the app. */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Authenticator } from '../auth/authenticator.js';
import { extractApiKey } from '../auth/authenticator.js';
import { ACCOUNT_HEADER, USER_HEADER } from '../auth/identity-headers.js';
import { logRequestLine } from '../http/access-log.js';
import { carryChangeToken } from '../http/carried-token.js';
import { clientAddressFrom } from '../http/client-address.js';
import { checkEntityTagList, matchesNoneMatch } from '../http/conditional.js';
import { ENVELOPE_HEAD } from '../http/envelope.js';
import type { RateLimit } from '../http/rate-limit.js';
import { requestIdOf } from '../http/request-id.js';
import type { Logger } from '../logger.js';
import type { ServiceDeps } from '../services/deps.js';
import { getSkillJson, keptSkillJson, keptSkillRevision } from '../services/skill-reader.js';
import { commonGetQuery } from './skills.js';

/** What the fast path answers with. */
export interface FastGetOptions {
  auth: Authenticator;
  deps: ServiceDeps;
  /** The app's rate limit (the same buckets). */
  limiter: RateLimit;
  /** The app's (redacting) logger, for the request line. */
  logger: Logger;
  /** Trusted proxies (`parseTrustedProxies`), for the request line's client address. */
  trusted: ((address: string) => boolean) | null;
  /** False turns the fast path off: every request goes to the app. */
  enabled: boolean;
}

/** Gets answered before the framework. */
export interface FastGets {
  /**
   * Answers `incoming` when it can: false at once when the request is not a get of a skill in a shape
   * the fast path knows (nothing read, nothing written), else a promise of whether it answered (a plain
   * get not kept is read from the store first). When the result is false the response is untouched
   * and the request must go to the app.
   */
  answer(incoming: IncomingMessage, outgoing: ServerResponse): false | Promise<boolean>;
  /** Requests answered so far (200 and 304). */
  readonly answered: number;
}

const SKILL_PREFIX = '/api/v1/skills/';
/** The `Vary` of a get: the answer depends on the caller's key. */
const VARY = 'Authorization, X-API-Key';
/** The Node adapter builds the URL as given for such a `Host` (others it parses and may refuse). */
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;

/** True when `text` is 1–128 characters of `[A-Za-z0-9_-]` (a name read as sent, no escapes). */
function isPlainName(text: string): boolean {
  if (text.length === 0 || text.length > 128) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (
      !(
        (c >= 0x61 && c <= 0x7a) ||
        (c >= 0x41 && c <= 0x5a) ||
        (c >= 0x30 && c <= 0x39) ||
        c === 0x2d ||
        c === 0x5f
      )
    ) {
      return false;
    }
  }
  return true;
}

/** The request headers the fast path reads, each given at most once. */
interface ReadHeaders {
  host?: string;
  'x-api-key'?: string;
  authorization?: string;
  'if-none-match'?: string;
  'x-request-id'?: string;
  'x-forwarded-for'?: string;
  'x-openviking-account'?: string;
  'x-openviking-user'?: string;
}

/** Headers that send a request to the app whenever present (a body, a browser's cross-origin call). */
const TO_APP = new Set(['content-length', 'transfer-encoding', 'origin']);
const READ = new Set([
  'host',
  'x-api-key',
  'authorization',
  'if-none-match',
  'x-request-id',
  'x-forwarded-for',
  ACCOUNT_HEADER,
  USER_HEADER,
]);

/** The headers read, or null when one is given twice or the request has a body. */
function readHeaders(raw: readonly string[]): ReadHeaders | null {
  const headers: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (TO_APP.has(name)) return null;
    if (!READ.has(name)) continue;
    if (Object.hasOwn(headers, name)) return null;
    headers[name] = raw[i + 1] as string;
  }
  return headers as ReadHeaders;
}

/**
 * Creates the fast path of `GET /api/v1/skills/{name}`. A result is served exactly when the route
 * would serve it: the token is read after the request arrived (shared with the requests of the same
 * event-loop turn), the caller is the one the authenticator resolved under that token (a key revoked,
 * rotated or created anywhere changes the token), and the result is the one kept under that token or,
 * for a plain get not kept, the one `getSkillJson` reads under it (and keeps), as the route would. The
 * rate limit counts these requests in the same buckets — a read is made only once the caller's bucket
 * gave one — the request line is logged as the app logs it, and connection limits apply to the socket
 * whichever way it is answered.
 *
 * Left to the app: any method but GET, other paths, names with anything but `[A-Za-z0-9_-]`, queries
 * other than `level` and the `include_*` flags (see `commonGetQuery`), a `Host` the adapter parses, a
 * request with a body or an `Origin`, a header read here given twice, a malformed `If-None-Match`, a
 * caller not resolved under the current token, a root key, OpenViking's identity headers in dev mode
 * (they name the caller there), an `If-None-Match` whose result and revision are not kept under the
 * current token (the app then checks the skill's stamp or reads it), a read that gives no result (not
 * found, a name the name policy refuses, a store error: the app reads again and words the error; the
 * request taken from the bucket is given back first), an empty rate-limit bucket, and everything
 * when the app answers CORS (`corsOrigins`) or `enabled` is false.
 *
 * @example
 * const fast = createFastGets({ auth, deps, limiter, logger, trusted: null, enabled: true });
 * http.createServer((req, res) => {
 *   const answered = fast.answer(req, res);
 *   if (answered === false) appListener(req, res);
 *   else answered.then((done) => done || appListener(req, res));
 * });
 */
export function createFastGets(options: FastGetOptions): FastGets {
  const { auth, deps, limiter, logger, trusted } = options;
  let answered = 0;

  async function answerKnown(
    incoming: IncomingMessage,
    outgoing: ServerResponse,
    url: string,
    name: string,
    query: NonNullable<ReturnType<typeof commonGetQuery>>,
    headers: ReadHeaders,
    startedAt: number,
  ): Promise<boolean> {
    // A failure before anything was sent leaves the request to the app.
    try {
      const token = await auth.changeToken();
      carryChangeToken(incoming, token);
      if (outgoing.headersSent || outgoing.writableEnded) return false;
      const key = extractApiKey({ get: (header) => headers[header as keyof ReadHeaders] });
      const identity = auth.knownIdentity(key, token);
      if (identity === null || identity.role === 'root') return false;
      // In dev mode OpenViking's identity headers name another caller: the app resolves it.
      if (
        auth.mode === 'dev' &&
        (headers[ACCOUNT_HEADER] !== undefined || headers[USER_HEADER] !== undefined)
      ) {
        return false;
      }
      const ifNoneMatch = headers['if-none-match'];
      try {
        checkEntityTagList('If-None-Match', ifNoneMatch);
      } catch {
        return false;
      }
      let status: 200 | 304 = 304;
      let etag: string;
      let cacheControl = 'private, no-cache';
      let json: Buffer | null = null;
      let taken = false;
      const current = ifNoneMatch ? keptSkillRevision(deps, identity, name, query, token) : undefined;
      if (ifNoneMatch && current === undefined) return false;
      if (current?.settled && matchesNoneMatch(ifNoneMatch, `"${current.revision}"`)) {
        etag = `"${current.revision}"`;
      } else {
        let read = keptSkillJson(deps, identity, name, query, token);
        if (read === undefined) {
          // A plain get not kept: read as the route reads it (`getSkillJson` under the same token), once
          // the rate limit allowed it, as the app's chain would. Anything but a result — not found, a
          // name the policy refuses, a store error — is left to the app, which words it; the request
          // taken is given back, so the bucket counts it once.
          if (ifNoneMatch) return false;
          if (!limiter.tryTake(identity)) return false;
          taken = true;
          try {
            read = await getSkillJson(deps, identity, name, query, token);
          } catch {
            limiter.giveBack(identity);
            return false;
          }
          if (outgoing.headersSent || outgoing.writableEnded) return true;
        }
        etag = `"${read.revision}"`;
        cacheControl = read.settled ? 'private, no-cache' : 'private, no-store';
        if (!(read.settled && matchesNoneMatch(ifNoneMatch, etag))) {
          status = 200;
          json = read.json;
        }
      }
      if (!taken && !limiter.tryTake(identity)) return false;
      const requestId = requestIdOf(headers['x-request-id']);
      // The headers in the order, and with the names, the app sends them; Node adds `Date`,
      // `Connection`, `Keep-Alive` and (for a body, see below) `Content-Length` after them, as for the
      // app's responses.
      if (json === null) {
        // No body: the headers go straight to the head of the response (no header map to fill first).
        outgoing.writeHead(304, [
          'X-Request-Id',
          requestId,
          'ETag',
          etag,
          'Cache-Control',
          cacheControl,
          'Vary',
          VARY,
        ]);
        outgoing.end();
      } else {
        // `Content-Length` is added by Node at `end` only to a head not yet written: the header map.
        outgoing.setHeader('X-Request-Id', requestId);
        outgoing.setHeader('ETag', etag);
        outgoing.setHeader('Cache-Control', cacheControl);
        outgoing.setHeader('Vary', VARY);
        outgoing.statusCode = status;
        outgoing.setHeader('content-type', 'application/json');
        const time = Math.round(performance.now() - startedAt) / 1000;
        const body = Buffer.concat([ENVELOPE_HEAD, json, Buffer.from(`,"time":${time}}`, 'latin1')]);
        // Node adds `Content-Length` (after `Connection`) only to a response it could send chunked: to
        // an HTTP/1.0 request (nginx proxies with HTTP/1.0 by default) it would end the body by closing
        // the connection, keep-alive asked or not. There the header is set here, in the place the Node
        // adapter sets it for the app.
        if (!(outgoing as { useChunkedEncodingByDefault?: boolean }).useChunkedEncodingByDefault) {
          outgoing.setHeader('Content-Length', body.byteLength);
        }
        outgoing.end(body);
      }
      answered += 1;
      logRequestLine(logger, {
        requestId,
        method: 'GET',
        path: url.slice(0, SKILL_PREFIX.length + name.length),
        status,
        startedAt,
        remote: clientAddressFrom(incoming.socket?.remoteAddress, headers['x-forwarded-for'], trusted),
        identity,
      });
      return true;
    } catch {
      return outgoing.headersSent || outgoing.writableEnded;
    }
  }

  return {
    answer(incoming, outgoing) {
      if (!options.enabled || incoming.method !== 'GET') return false;
      const url = incoming.url;
      if (url === undefined || !url.startsWith(SKILL_PREFIX)) return false;
      const q = url.indexOf('?', SKILL_PREFIX.length);
      const name = url.slice(SKILL_PREFIX.length, q === -1 ? url.length : q);
      if (!isPlainName(name)) return false;
      const query = commonGetQuery(url);
      if (query === null) return false;
      const headers = readHeaders(incoming.rawHeaders);
      if (headers === null || headers.host === undefined || !PLAIN_HOST.test(headers.host)) return false;
      return answerKnown(incoming, outgoing, url, name, query, headers, performance.now());
    },
    get answered() {
      return answered;
    },
  };
}

/**
 * A Node `request` listener offering each request to `fast` first and passing it to `listener` (the
 * Node adapter's listener of the app) when the fast path does not answer it.
 *
 * @param fast - from {@link createFastGets}
 * @param listener - the app's listener (e.g. `getRequestListener(app.fetch)`)
 * @param inFlight - counts the fast path's work as a handler in progress (shutdown waits for it):
 *   `enter` when it starts, `leave` when it ends (before a request it left goes to `listener`)
 */
export function withFastGets(
  fast: FastGets,
  listener: RequestListener,
  inFlight?: { enter(): void; leave(): void },
): RequestListener {
  return (incoming, outgoing) => {
    const answered = fast.answer(incoming, outgoing);
    if (answered === false) {
      listener(incoming, outgoing);
      return;
    }
    inFlight?.enter();
    void answered.then((done) => {
      inFlight?.leave();
      if (!done) listener(incoming, outgoing);
    });
  };
}
