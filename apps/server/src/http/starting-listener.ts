/**
 * The listener of a server that is still starting: it binds the server's port before the store
 * opens, so the probes get an answer while the database is opened and its schema migrated — the
 * first start of a build on a registry of an older one rebuilds search data of every skill, which
 * takes seconds to minutes. `GET /health` answers 503 `{status: "starting", healthy: false}` (not 200:
 * scripts, tests and load balancers take a 200 from `/health` to mean the server serves), `GET /ready`
 * 503 with the reason, and every other request 503 `UNAVAILABLE`, all with `Retry-After`. A port in
 * use is found before the database is touched. The server closes it just before it listens on the
 * same port. A liveness probe must allow for a first start's migrations (e.g. a startup probe on
 * `/health`): restarting the process mid-step rolls the step back.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** `Retry-After` of a request answered while the server starts, seconds. */
export const STARTING_RETRY_AFTER_SECONDS = 5;

/** The reason `/ready` gives while the server starts. */
export const STARTING_REASON = 'starting: opening the database and applying its schema migrations';

/** What the starting listener reports. */
export interface StartingAnswers {
  /** Server version (`/health`, `/ready`). */
  version: string;
  /** `sqlite` or `postgres` (`/ready`). */
  engine: string;
  /** Schema version this build needs (`/ready`). */
  expectedSchemaVersion: number;
  /** Auth mode `/health` reports: `api_key`, unless the build knows it serves in dev mode. */
  authMode: 'dev' | 'api_key';
}

/** A bound starting listener. */
export interface StartingListener {
  /** The port bound (the one asked, or the one picked for port 0). */
  port: number;
  /** Stops accepting and drops its connections; the port is free when it settles. Idempotent. */
  close(): Promise<void>;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/** The answer to one request while the server starts (see the module comment). */
export function answerWhileStarting(
  req: IncomingMessage,
  res: ServerResponse,
  answers: StartingAnswers,
): void {
  // The body, if any, is not read: the connection is closed after the answer.
  res.shouldKeepAlive = false;
  const path = (req.url ?? '/').split('?', 1)[0];
  const read = req.method === 'GET' || req.method === 'HEAD';
  if (read && path === '/health') {
    sendJson(
      res,
      503,
      {
        status: 'starting',
        healthy: false,
        version: answers.version,
        auth_mode: answers.authMode,
        reason: STARTING_REASON,
      },
      { 'retry-after': String(STARTING_RETRY_AFTER_SECONDS) },
    );
    return;
  }
  if (read && path === '/ready') {
    sendJson(
      res,
      503,
      {
        status: 'unavailable',
        ready: false,
        version: answers.version,
        engine: answers.engine,
        schema_version: null,
        expected_schema_version: answers.expectedSchemaVersion,
        reason: STARTING_REASON,
      },
      { 'retry-after': String(STARTING_RETRY_AFTER_SECONDS) },
    );
    return;
  }
  sendJson(
    res,
    503,
    {
      status: 'error',
      error: {
        code: 'UNAVAILABLE',
        message:
          'The server is starting (opening the database and applying its schema migrations); ' +
          `retry in ${STARTING_RETRY_AFTER_SECONDS} s`,
        details: { reason: 'starting', retry_after_seconds: STARTING_RETRY_AFTER_SECONDS },
      },
      time: 0,
    },
    { 'retry-after': String(STARTING_RETRY_AFTER_SECONDS) },
  );
}

/**
 * Binds `host:port` with the answers of a starting server.
 *
 * @param listenError - turns a bind failure into the error the server reports (port in use, …)
 * @returns the listener, once bound
 * @throws what `listenError` returns when the port cannot be bound
 */
export function listenWhileStarting(
  host: string,
  port: number,
  answers: StartingAnswers,
  listenError: (error: NodeJS.ErrnoException) => Error,
): Promise<StartingListener> {
  const server = createServer((req, res) => answerWhileStarting(req, res, answers));
  // A probe that connects and sends nothing does not keep the port from being handed over.
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error)));
    server.listen({ host, port }, () => {
      let closed: Promise<void> | null = null;
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => {
          closed ??= new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          });
          return closed;
        },
      });
    });
  });
}
