/**
 * Describing work the worker pool can run: a named export of a module, loaded by URL inside the
 * worker thread. A task module is an ordinary module of the server (it may import core and other
 * server modules); its exported function takes one structured-cloneable argument and returns a
 * cloneable value (or a promise of one).
 */

/** A function a worker can run: one cloneable argument, one cloneable result. */
export type WorkerFunction<A, R> = (arg: A) => R | Promise<R>;

/**
 * A task the worker pool runs: `exportName` of the module at `moduleUrl`, plus the same function
 * in this thread for the inline path (small inputs skip the thread hop).
 */
export interface WorkerTask<A, R> {
  /** `file:` URL of the module, with the extension this build runs (`.js` in `dist`, `.ts` from sources). */
  readonly moduleUrl: string;
  /** The named export to call. */
  readonly exportName: string;
  /** The same function, for running inline. */
  readonly fn: WorkerFunction<A, R>;
  /** Shown in errors and logs, e.g. `prepare-skill.prepareSkill`. */
  readonly label: string;
}

/**
 * Describes a task. Call it from the task's own module so the URL is right in both `dist` and a
 * source run:
 *
 * @example
 * ```ts
 * export function countLines(text: string): number { return text.split('\n').length; }
 * export const COUNT_LINES = defineWorkerTask(import.meta.url, 'countLines', countLines);
 * ```
 *
 * @param moduleUrl - `import.meta.url` of the module that exports the function
 * @param exportName - the export's name (must equal the function's export)
 * @param fn - the function itself (used inline, and to type the task)
 * @returns the task descriptor
 */
export function defineWorkerTask<A, R>(
  moduleUrl: string,
  exportName: string,
  fn: WorkerFunction<A, R>,
): WorkerTask<A, R> {
  const base = moduleUrl.slice(moduleUrl.lastIndexOf('/') + 1).replace(/\.[cm]?[jt]s$/, '');
  return Object.freeze({ moduleUrl, exportName, fn, label: `${base}.${exportName}` });
}

const TRANSFER = Symbol.for('@skillport/server/worker-transfer');

/** A result that moves these buffers to the caller instead of copying them. */
export interface Transferring<R> {
  readonly [TRANSFER]: true;
  readonly value: R;
  readonly transfer: readonly ArrayBuffer[];
}

/**
 * Marks a task result whose buffers should be moved (not copied) back to the calling thread; the
 * caller receives `value`. Inline runs return `value` as is. Buffers listed twice or shared by
 * several views are moved once.
 *
 * @param value - the result
 * @param buffers - the `ArrayBuffer`s inside `value` to move (each must be whole, not a pooled slab)
 */
export function withTransfer<R>(value: R, buffers: Iterable<ArrayBuffer>): R {
  const transfer = [...new Set(buffers)];
  return { [TRANSFER]: true, value, transfer } as unknown as R;
}

/** True for a value built by {@link withTransfer}. */
export function isTransferring(value: unknown): value is Transferring<unknown> {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TRANSFER] === true;
}
