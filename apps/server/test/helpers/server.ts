/**
 * Test helpers: a real server on 127.0.0.1:0 with a temp data folder on the engine under test (SQLite,
 * or a schema of the run's PostgreSQL cluster: see `engine.ts`), and a tiny JSON client.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { requireCorpus } from '../../../../scripts/test-corpus.js';
import { type RunningServer, type ServerOptions, startServer } from '../../src/index.js';
import { dropEngineData, engineServerOptions } from './engine.js';

/** A started test server and helpers bound to it. */
export interface TestServer {
  server: RunningServer;
  url: string;
  dataDir: string;
  /** Sends a request; JSON-encodes `body` unless it is a string, FormData or Uint8Array. */
  request(method: string, urlPath: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  apiKey?: string;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field in tests
  json: any;
  text: string;
}

/**
 * Starts a server for one test file.
 *
 * @param options - extra server options (logger silenced, port 0, temp data folder, and embeddings
 *   off by default: tests of semantic search turn the local model or an endpoint on themselves; the
 *   engine under test unless `store` or `databaseUrl` is given)
 */
export async function startTestServer(options: ServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'skillport-http-'));
  const engine =
    options.store === undefined && options.databaseUrl === undefined ? engineServerOptions(dataDir) : {};
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    logger: false,
    embeddings: 'off',
    ...engine,
    ...options,
    // Search threads start with a test's first find, as most test servers never find (the start
    // once listening, the default, has tests of its own).
    sqlite: { startSearchThreads: 'first-find', ...options.sqlite },
    dataDir,
  });
  const url = server.url;
  return {
    server,
    url,
    dataDir,
    async request(method, urlPath, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.apiKey) headers['x-api-key'] = opts.apiKey;
      let body: BodyInit | undefined;
      if (opts.body instanceof FormData || typeof opts.body === 'string' || opts.body instanceof Uint8Array) {
        body = opts.body as BodyInit;
      } else if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(`${url}${urlPath}`, {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
      });
      const text = await res.text();
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch {
        json = null;
      }
      return { status: res.status, headers: res.headers, json, text };
    },
    async close() {
      await server.close();
      if (options.dataDir === undefined) {
        if (options.store === undefined && options.databaseUrl === undefined) await dropEngineData(dataDir);
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * The shared corpus folder (`SKILLPORT_CORPUS`, else `../shared/corpus` beside the repo), for suites
 * declared with `describeCorpus`; throws when missing.
 */
export function corpusDir(): string {
  return requireCorpus();
}
