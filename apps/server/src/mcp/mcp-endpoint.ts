/**
 * `/mcp`: the Skillport MCP server (`@skillport/mcp`) over Streamable HTTP (MCP specification
 * 2025-11-25, transports), with the API's keys. One MCP session per `initialize`, bound to the
 * account and user of the key that opened it; later requests of the session must come with a key of
 * the same user. Sessions live in this process: idle ones are closed, the oldest ones give way past
 * the maximum (a key's own oldest past its per-key maximum), and several replicas need the session id routed to the replica that issued it.
 */
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { createSkillportMcpServer } from '@skillport/mcp';
import type { Context } from 'hono';
import type { ServerLimits } from '../config.js';
import type { AppEnv } from '../http/context.js';
import type { Logger } from '../logger.js';
import type { ServiceDeps } from '../services/deps.js';
import type { SkillChanges } from '../services/skill-changes.js';
import { SERVER_VERSION } from '../version.js';
import { createChangePoller } from './change-poller.js';
import { createServiceRegistry } from './service-registry.js';

/** How often idle sessions are looked for, ms. */
const SWEEP_INTERVAL_MS = 60_000;

interface Session {
  id: string;
  accountId: string;
  userId: string;
  /** The caller that opened it: its API key, or its user in dev mode. */
  caller: string;
  transport: WebStandardStreamableHTTPServerTransport;
  close: () => Promise<void>;
  /** Epoch ms of the last request. */
  lastSeen: number;
  /** Open `GET` notification streams (a session with one is never idle). */
  openStreams: number;
}

/** The `/mcp` endpoint: its request handler, and what the server needs to manage it. */
export interface McpEndpoint {
  /** Handles a request on `/mcp` (after auth: `identity` is set). */
  handle(c: Context<AppEnv>): Promise<Response>;
  /** Open sessions. */
  sessionCount(): number;
  /** Closes every session (their notification streams end) and stops the idle sweep. */
  close(): Promise<void>;
}

/**
 * Longest JSON-RPC `id` string taken, in characters. The SDK's transport matches every answer of a
 * batch against every request id of its stream, and V8 hashes a string of more than 16,383
 * characters by its length alone: a batch of 100 pings with 40,000-character ids held the request
 * thread for 0.26–0.35 s. Clients use numbers or UUIDs.
 */
export const MAX_RPC_ID_CHARS = 256;

/** A JSON-RPC error answer, as the MCP transport gives them (`id: null`). */
export function rpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** Characters of an unsupported `MCP-Protocol-Version` header repeated in the refusal. */
const SHOWN_VERSION_CHARS = 64;

/**
 * The 400 answer to a request of a session whose `MCP-Protocol-Version` header names a version this
 * server does not speak, else `null` (the transport's own check, with the header's value cut to
 * {@link SHOWN_VERSION_CHARS} characters: it repeated all of it, up to the 16 KB a header may hold).
 */
function refuseUnsupportedVersion(header: string | undefined): Response | null {
  if (header === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(header)) return null;
  const shown =
    header.length > SHOWN_VERSION_CHARS
      ? `${JSON.stringify(header.slice(0, SHOWN_VERSION_CHARS))}… (${header.length} characters)`
      : JSON.stringify(header);
  return rpcError(
    400,
    -32000,
    `Bad Request: Unsupported protocol version: ${shown} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
  );
}

/** The 400 answer to a message (of a batch or alone) whose `id` is a string over {@link MAX_RPC_ID_CHARS}, else `null`. */
function refuseLongIds(body: unknown): Response | null {
  const messages = Array.isArray(body) ? body : [body];
  for (const [index, message] of messages.entries()) {
    const id = (message as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' || id.length <= MAX_RPC_ID_CHARS) continue;
    const which = Array.isArray(body) ? `message ${index} of the batch` : 'the message';
    return rpcError(
      400,
      -32600,
      `Invalid Request: the id of ${which} is ${id.length} characters long; the limit is ${MAX_RPC_ID_CHARS} (use a number or a short string)`,
    );
  }
  return null;
}

/**
 * The response with its body wrapped so the session knows while a notification stream is open.
 */
function trackStream(response: Response, session: Session): Response {
  const body = response.body;
  if (!body || !response.headers.get('content-type')?.includes('text/event-stream')) return response;
  session.openStreams++;
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    session.openStreams--;
    session.lastSeen = Date.now();
  };
  const reader = body.getReader();
  const wrapped = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done: ended } = await reader.read();
        if (ended) {
          finish();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        finish();
        controller.error(error);
      }
    },
    async cancel(reason) {
      finish();
      await reader.cancel(reason);
    },
  });
  return new Response(wrapped, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * Creates the endpoint.
 *
 * @param deps - the services' dependencies (reads go through them, as the caller)
 * @param changes - the app's skill change channel (list-changed notifications)
 * @param limits - `maxBodyBytes`, `maxMcpSessions`, `maxMcpSessionsPerKey`, `mcpSessionIdleSeconds`,
 *   `mcpChangePollSeconds`
 * @param logger - session open/close lines
 */
export function createMcpEndpoint(
  deps: ServiceDeps,
  changes: SkillChanges,
  limits: ServerLimits,
  logger: Logger,
): McpEndpoint {
  const sessions = new Map<string, Session>();
  const poller = createChangePoller(deps.store, limits.mcpChangePollSeconds * 1000);

  const closeSession = async (session: Session, reason: string) => {
    if (!sessions.delete(session.id)) return;
    logger.info({ msg: 'mcp session closed', session_id: session.id, reason });
    await session.close().catch(() => {});
  };

  const sweep = setInterval(() => {
    const idleBefore = Date.now() - limits.mcpSessionIdleSeconds * 1000;
    for (const session of [...sessions.values()]) {
      if (session.openStreams === 0 && session.lastSeen < idleBefore) void closeSession(session, 'idle');
    }
  }, SWEEP_INTERVAL_MS);
  sweep.unref?.();

  /** The least recently seen session (of `caller` when given). */
  const leastRecent = (caller?: string): { session: Session | undefined; count: number } => {
    let oldest: Session | undefined;
    let count = 0;
    for (const s of sessions.values()) {
      if (caller !== undefined && s.caller !== caller) continue;
      count++;
      if (!oldest || s.lastSeen < oldest.lastSeen) oldest = s;
    }
    return { session: oldest, count };
  };

  /**
   * Makes room for one more session of `caller`: first its own least recently seen sessions give way
   * past the per-key limit (so one key opening sessions in a loop closes only its own), then the
   * least recently seen ones of the process past the process limit.
   */
  const makeRoom = async (caller: string) => {
    const perKey = limits.maxMcpSessionsPerKey;
    while (perKey > 0) {
      const { session, count } = leastRecent(caller);
      if (!session || count < perKey) break;
      await closeSession(session, 'session limit of the key');
    }
    while (sessions.size >= Math.max(1, limits.maxMcpSessions)) {
      const { session } = leastRecent();
      if (!session) return;
      await closeSession(session, 'session limit');
    }
  };

  async function open(c: Context<AppEnv>): Promise<Response> {
    const identity = c.get('identity');
    let body: unknown;
    try {
      body = await c.req.json();
    } catch (error) {
      return rpcError(400, -32700, `Parse error: the body is not JSON (${(error as Error).message})`);
    }
    const longId = refuseLongIds(body);
    if (longId) return longId;
    const messages = Array.isArray(body) ? body : [body];
    if (!messages.some((m) => isInitializeRequest(m))) {
      return rpcError(
        400,
        -32000,
        'Bad Request: no MCP session: send an initialize request first, then the Mcp-Session-Id it returns',
      );
    }
    const caller = identity.keyId ?? `${identity.accountId}/${identity.userId}`;
    await makeRoom(caller);
    const server = createSkillportMcpServer(createServiceRegistry(deps, identity, changes, poller), {
      version: SERVER_VERSION,
    });
    const session: Session = {
      id: '',
      accountId: identity.accountId,
      userId: identity.userId,
      caller,
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          session.id = id;
          sessions.set(id, session);
          logger.info({
            msg: 'mcp session opened',
            session_id: id,
            account_id: identity.accountId,
            user_id: identity.userId,
          });
        },
        onsessionclosed: (id) => {
          sessions.delete(id);
          logger.info({ msg: 'mcp session closed', session_id: id, reason: 'client' });
        },
        maxRequestBodySize: limits.maxBodyBytes,
      }),
      close: () => server.close(),
      lastSeen: Date.now(),
      openStreams: 0,
    };
    session.transport.onclose = () => {
      if (session.id) sessions.delete(session.id);
    };
    await server.connect(session.transport);
    const response = await session.transport.handleRequest(c.req.raw, { parsedBody: body });
    if (session.transport.sessionId === undefined) await server.close();
    return response;
  }

  return {
    async handle(c) {
      const sessionId = c.req.header('mcp-session-id');
      if (sessionId === undefined) {
        if (c.req.method !== 'POST') {
          return rpcError(
            400,
            -32000,
            'Bad Request: Mcp-Session-Id header is required (open a session with a POST of initialize)',
          );
        }
        return open(c);
      }
      const identity = c.get('identity');
      const session = sessions.get(sessionId);
      // Another user's session id is answered like an unknown one: nothing leaks about it.
      if (!session || session.accountId !== identity.accountId || session.userId !== identity.userId) {
        return rpcError(404, -32001, 'Session not found: it ended or expired; initialize a new session');
      }
      const unsupported = refuseUnsupportedVersion(c.req.header('mcp-protocol-version'));
      if (unsupported) return unsupported;
      session.lastSeen = Date.now();
      // The JSON checks before this route read the body already: hand the parsed body over.
      let parsedBody: unknown;
      if (c.req.method === 'POST') {
        try {
          parsedBody = await c.req.json();
        } catch (error) {
          return rpcError(400, -32700, `Parse error: the body is not JSON (${(error as Error).message})`);
        }
        const longId = refuseLongIds(parsedBody);
        if (longId) return longId;
      }
      const response = await session.transport.handleRequest(
        c.req.raw,
        parsedBody === undefined ? undefined : { parsedBody },
      );
      return c.req.method === 'GET' ? trackStream(response, session) : response;
    },
    sessionCount: () => sessions.size,
    async close() {
      clearInterval(sweep);
      poller.close();
      await Promise.all([...sessions.values()].map((s) => closeSession(s, 'shutdown')));
    },
  };
}
