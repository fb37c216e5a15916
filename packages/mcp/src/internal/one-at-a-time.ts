/**
 * Answers the requests of one MCP connection one at a time, each after a turn of the event loop.
 *
 * A JSON-RPC batch carries up to 100 requests in one HTTP body of a few kilobytes, and the SDK starts
 * them all at once: their reads finish together, and their answers (a 1 MiB SKILL.md is decoded, then
 * encoded again as its JSON-RPC response) were all built in one go on the thread that serves every
 * other caller. Ten `get_skill` of a 1 MiB skill in one batch held the server's `/health` for
 * 0.4–0.8 s, 100 `resources/list` for 0.56 s. One request at a time, with a macrotask between two,
 * bounds that to the cost of one request, as a single REST call has.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

/** Node's `setImmediate` (after pending I/O), when the runtime has it; the package stays runtime-neutral. */
const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;

/** Resolves after the event loop has had a turn (I/O of other callers included). */
const nextTurn: () => Promise<void> = immediate
  ? () => new Promise((resolve) => immediate(resolve))
  : () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Makes every request handler registered on `server` from now on wait for the previous request of the
 * connection to be answered and for a turn of the event loop before it runs; a request cancelled while
 * waiting is not run. Requests whose handlers were registered before (`initialize`, `ping`) are cheap
 * and run at once.
 *
 * @param server - the low-level server, before its handlers are registered
 */
export function answerOneAtATime(server: Server): void {
  let previous: Promise<unknown> = Promise.resolve();
  const setRequestHandler = server.setRequestHandler.bind(server);
  server.setRequestHandler = (schema, handler) =>
    setRequestHandler(schema, (request, extra) => {
      const answer = previous
        .then(nextTurn)
        .then(() => (extra.signal.aborted ? Promise.reject(extra.signal.reason) : handler(request, extra)));
      previous = answer.catch(() => {});
      return answer;
    });
}
