/**
 * The module every pool thread loads: it imports task modules on demand (once per thread) and
 * calls the named export. Errors come back as plain data so a `SkillportError` keeps its code,
 * status and details across the thread boundary.
 */
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { type SerializedError, serializeError } from './thread-errors.js';
import { isTransferring } from './worker-task.js';

/** What the pool posts to a thread. */
export interface WorkerRequest {
  moduleUrl: string;
  exportName: string;
  arg: unknown;
}

/** What a thread answers. */
export type WorkerReply = { ok: true; value: unknown } | { ok: false; error: SerializedError };

const modules = new Map<string, Promise<Record<string, unknown>>>();

/**
 * Runs one request in this thread.
 *
 * @param request - module URL, export name and the argument
 * @returns `{ok: true, value}` or `{ok: false, error}`; buffers marked with `withTransfer` are moved
 */
export default async function dispatch(request: WorkerRequest): Promise<WorkerReply> {
  try {
    let loading = modules.get(request.moduleUrl);
    if (loading === undefined) {
      loading = import(request.moduleUrl) as Promise<Record<string, unknown>>;
      modules.set(request.moduleUrl, loading);
    }
    const fn = (await loading)[request.exportName];
    if (typeof fn !== 'function') {
      throw new Error(`worker task: ${request.moduleUrl} exports no function ${request.exportName}`);
    }
    const value: unknown = await fn(request.arg);
    if (isTransferring(value)) {
      const reply: WorkerReply = { ok: true, value: value.value };
      return move({
        [transferableSymbol]: value.transfer,
        [valueSymbol]: reply,
      } as never) as unknown as WorkerReply;
    }
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: serializeError(error) };
  }
}
