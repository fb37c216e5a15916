/**
 * One read of the store's change token (`Store.changeToken`) shared by the requests that ask for it
 * in the same turn of the event loop: on SQLite each read is a statement on the HTTP thread, on
 * PostgreSQL a round trip, and every request reads the token before it authenticates.
 */

/**
 * Wraps a change-token read so that the callers of one event-loop turn share a single read. The read
 * runs in the check phase after the first call (`setImmediate`), so it always starts after every
 * caller sharing it has asked: each caller gets a token read after its request arrived, never an
 * older one — a commit this replica acknowledged before the request came is always seen, as is a
 * commit of any other process completed by then. Callers of the next turn get the next read.
 *
 * @param read - the store's `changeToken`
 * @returns the shared reader (rejects when `read` rejects, for every caller of that turn)
 * @example const changeToken = sharedChangeToken(() => store.changeToken());
 */
export function sharedChangeToken(read: () => Promise<string>): () => Promise<string> {
  let next: Promise<string> | null = null;
  return () => {
    if (next === null) {
      next = new Promise<string>((resolve, reject) => {
        setImmediate(() => {
          // Callers from now on wait for the next read: this one may have started before they came.
          next = null;
          read().then(resolve, reject);
        });
      });
    }
    return next;
  };
}
