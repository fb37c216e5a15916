/**
 * Answers given before the request body has arrived: 401 to a caller without a valid key, 413 as
 * soon as a streamed body passes its limit, and any other answer a route gives without reading the
 * body it was sent.
 *
 * Such an answer leaves the rest of the body on the wire. The server then has two honest choices:
 * read all of it (unbounded: a stranger could make it read gigabytes) or close the connection. The
 * server closes, and takes care on both ends of the answer:
 *
 * - The answer says `Connection: close`. A keep-alive answer followed by a close (what the HTTP
 *   adapter did after draining for 500 ms) loses the client's next request: the client finished
 *   sending the body into its kernel's buffers, read the keep-alive answer and reused the
 *   connection, which the server then cut.
 * - The connection is not destroyed as soon as the answer is flushed (Node's way with a
 *   `Connection: close` answer): the body bytes still arriving would then meet a closed socket, the
 *   kernel would answer them with a reset, and a reset can wipe the answer from the client's
 *   receive queue before the client has read it (RFC 9112 §9.6). Instead the server half-closes
 *   after the answer and reads and discards what still arrives, up to {@link LINGER_MAX_BYTES} and
 *   for up to {@link LINGER_MAX_MS}, then closes: a client that reads while it sends has the answer
 *   at once, and one that reads only after sending gets it if its body ends within those bounds.
 */
import {
  type IncomingMessage,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
  ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';

/** Longest a connection answered early keeps reading (and discarding) the body, ms. */
export const LINGER_MAX_MS = 5000;
/** Most bytes a connection answered early reads (and discards) after its answer. */
export const LINGER_MAX_BYTES = 16 * 1024 * 1024;

/** Sockets whose close is (or will be) a lingering one. */
const lingering = new WeakSet<Socket>();

/**
 * Whether `request` has a body of which part has not been received yet: a request has a body when
 * it declares `Transfer-Encoding` or a `Content-Length` other than 0 (RFC 9112 §6.3). `complete`
 * alone cannot tell: it is still false for a bodiless request while its `request` event runs.
 */
export function bodyStillArriving(request: IncomingMessage): boolean {
  if (request.complete) return false;
  const headers = request.headers;
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}

/**
 * The server's response class (`http.createServer({ ServerResponse: EarlyAnswerResponse })`): a
 * response whose headers are written while the request body is still arriving is sent with
 * `Connection: close`, and its connection closes with {@link lingeringClose} rather than at once.
 * Any other response is Node's, unchanged.
 */
export class EarlyAnswerResponse<
  Request extends IncomingMessage = IncomingMessage,
> extends ServerResponse<Request> {
  override writeHead(
    statusCode: number,
    statusMessage?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
    headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
  ): this {
    if (!this.headersSent && bodyStillArriving(this.req)) closeAfterAnswer(this);
    // Passed on as given: Node reads a non-string second argument as the headers.
    return super.writeHead(statusCode, statusMessage as string | undefined, headers);
  }
}

/**
 * Marks `response` as the last on its connection (`Connection: close`), has the rest of the body
 * discarded once the response is finished, and makes the connection's close a lingering one: Node
 * ends a connection whose response said `Connection: close` by calling the socket's `destroySoon()`
 * once the response is finished; on this socket that call lingers.
 */
function closeAfterAnswer(response: ServerResponse): void {
  response.shouldKeepAlive = false;
  const request = response.req;
  const socket = request.socket;
  if (socket.destroyed || lingering.has(socket)) return;
  lingering.add(socket);
  // Ahead of Node's own `finish` step, which would otherwise dump the body where it cannot be counted.
  response.prependOnceListener('finish', () => discardRestOfBody(request, socket));
  let started = false;
  socket.destroySoon = () => {
    // Also called by the HTTP adapter when it gives up draining: the first call decides.
    if (started) return;
    started = true;
    lingeringClose(socket, request);
  };
}

/** Destroys `socket` once what it has to send is flushed (nothing unread: no reset is sent). */
function destroyWhenFlushed(socket: Socket): void {
  if (socket.destroyed) return;
  if (socket.writableFinished) socket.destroy();
  else socket.once('finish', () => socket.destroy());
}

/**
 * Reads the rest of `request`'s body to nowhere: whoever was reading it (a size limit that gave up)
 * is done with it. The connection is destroyed once more than {@link LINGER_MAX_BYTES} arrived, and
 * (when what it has to send is flushed) once the body has ended.
 */
function discardRestOfBody(request: IncomingMessage, socket: Socket): void {
  if (request.readableEnded || request.destroyed) return;
  request.removeAllListeners('data');
  let received = 0;
  request.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > LINGER_MAX_BYTES) socket.destroy();
  });
  request.once('end', () => destroyWhenFlushed(socket));
  request.resume();
}

/**
 * Half-closes `socket` after the answer (FIN once it is flushed) while the rest of `request`'s body
 * is read and discarded; destroys it after {@link LINGER_MAX_MS} at the latest. It closes earlier
 * when the body ends, past {@link LINGER_MAX_BYTES}, or when the client closes its side first.
 */
function lingeringClose(socket: Socket, request: IncomingMessage): void {
  if (socket.destroyed) return;
  socket.end();
  if (request.readableEnded) {
    destroyWhenFlushed(socket);
    return;
  }
  const timer = setTimeout(() => socket.destroy(), LINGER_MAX_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}
