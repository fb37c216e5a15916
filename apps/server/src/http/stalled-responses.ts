/**
 * Closing connections whose client stopped reading its response.
 *
 * A response the client does not read waits in the process's memory (a 20 MiB file answered to 30
 * connections that never read held ~2 GB, for as long as the connections stayed open: Node's HTTP
 * server has no send timeout). Node's socket inactivity timeout cannot be used as is: a slow reader
 * whose one large write is still being taken by the kernel shows no activity to it, and a `wait=true`
 * request or a quiet notification stream sends nothing for minutes on purpose.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** What a socket's send side looks like at one check: bytes not yet written, of them queued in libuv. */
function sendMark(socket: Socket): string {
  const handle = (socket as Socket & { _handle?: { writeQueueSize?: number } | null })._handle;
  return `${socket.writableLength}:${handle?.writeQueueSize ?? -1}`;
}

/**
 * Makes `server` close a connection whose response has bytes waiting to be sent and none of them
 * taken by the client for `stallMs` (checked every `stallMs`, so it is closed after one to two
 * periods). A response being read, however slowly, is never cut; neither is a request whose handler
 * is still working or a stream with nothing to send. Idle keep-alive connections still close after
 * the server's `keepAliveTimeout`. `stallMs` 0 leaves the server as it is.
 */
export function closeStalledResponses(server: Server, stallMs: number): void {
  if (stallMs <= 0) return;
  const marks = new WeakMap<Socket, string>();
  // Node arms each connection's inactivity timer with `server.timeout` (idle keep-alive connections
  // with `keepAliveTimeout` instead) and, once a `timeout` listener exists, leaves the socket to it.
  server.setTimeout(stallMs);
  server.on('timeout', (socket: Socket) => {
    if (socket.writableLength === 0) {
      // Nothing waiting to be sent. No response under way: an idle keep-alive connection or an
      // unfinished request head (Node's own behaviour: close). Otherwise a handler still working or
      // a quiet stream: keep; the timer is armed again by the next write.
      if (!(socket as Socket & { _httpMessage?: unknown })._httpMessage) socket.destroy();
      return;
    }
    const mark = sendMark(socket);
    if (marks.get(socket) === mark) {
      socket.destroy();
      return;
    }
    // Bytes left since the last check (or this is the first): look again after another period.
    marks.set(socket, mark);
    socket.setTimeout(stallMs);
  });
}
