// Worker thread of SyncHTTPClient: runs the async client and answers through synckit.
import { serializeClientError } from '@skillport/sdk-browser';
import { runAsWorker } from 'synckit';
import { AsyncHTTPClient } from '../client.js';
import type { SyncClientOptions, SyncMethod, WorkerReply } from './protocol.js';

const clients = new Map<string, AsyncHTTPClient>();

function clientFor(options: SyncClientOptions): AsyncHTTPClient {
  const key = JSON.stringify(options);
  let client = clients.get(key);
  if (!client) {
    client = new AsyncHTTPClient(options);
    clients.set(key, client);
  }
  return client;
}

/** Byte arrays given as skill sources travel as Uint8Array; the async client uploads them as Blobs. */
function reviveArgs(method: SyncMethod, args: unknown[]): unknown[] {
  const index = method === 'addSkill' ? 0 : method === 'updateSkill' ? 1 : -1;
  if (index >= 0 && args[index] instanceof Uint8Array) {
    const copy = [...args];
    copy[index] = new Blob([args[index] as Uint8Array<ArrayBuffer>]);
    return copy;
  }
  return args;
}

runAsWorker(async (options: SyncClientOptions, method: SyncMethod, args: unknown[]): Promise<WorkerReply> => {
  try {
    const client = clientFor(options) as unknown as Record<SyncMethod, (...a: unknown[]) => Promise<unknown>>;
    const value = await client[method](...reviveArgs(method, args));
    return { ok: true, value };
  } catch (error) {
    const serialized = serializeClientError(error);
    if (serialized) return { ok: false, error: serialized };
    const plain = error instanceof Error ? error : new Error(String(error));
    return {
      ok: false,
      error: {
        kind: 'other',
        name: plain.name,
        message: plain.message,
        ...(plain.stack ? { stack: plain.stack } : {}),
      },
    };
  }
});
