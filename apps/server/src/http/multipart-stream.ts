/**
 * Streaming multipart parse for `POST /api/v1/resources/temp_upload`.
 *
 * The form validator would buffer the whole body and then parse it in one synchronous pass (a
 * 25 MiB upload held the event loop for hundreds of milliseconds, stalling every other request).
 * Here the body is parsed chunk by chunk as it arrives (`@fastify/busboy`), so each turn of the
 * event loop handles one chunk; file parts are collected as their chunks and copied once into a
 * `File`. The result is left where the validator looks first (`c.req.bodyCache.formData`), so the
 * route's validation, its answers and its OpenAPI document are unchanged.
 *
 * A body of declared length is read from Node's request itself when the server's adapter hands it
 * over (`env.incoming`): no fetch `Request`, no web stream and no Node stream around it (those cost
 * a small folder upload about a tenth of its CPU). A chunked body, which the body limit in front has
 * already read whole, and a request without Node's request (`app.request()`) are read from the fetch
 * `Request`'s stream as before. Either way at most 64 KiB are parsed per turn of the event loop.
 *
 * A `file` part that passes `maxUploadBytes` is answered 413 `PAYLOAD_TOO_LARGE`
 * (`details {field: "file", limit}`) at once, without reading the rest of the body (the early
 * answer closes the connection; see `early-answer.ts`). A body that is not valid multipart is
 * answered 400 `INVALID_ARGUMENT` ("Malformed FormData request. …"), as before.
 */
import { IncomingMessage } from 'node:http';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Busboy } from '@fastify/busboy';
import { SkillportError } from '@skillport/core';
import type { MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ServerLimits } from '../config.js';
import type { AppEnv } from './context.js';

/** Why a parse stopped early: the named file part passed the upload limit. */
class FileTooLarge extends Error {}

/** The chunks each parsed file was made of, for {@link uploadedBytes}. */
const received = new WeakMap<Blob, { chunks: Uint8Array<ArrayBuffer>[]; size: number }>();

/**
 * The bytes of `file` when this parse made it, joined in one synchronous copy (a `File`'s own
 * `arrayBuffer()` reads it back in many asynchronous steps and copies it again); `undefined` for
 * any other `Blob`. Each call returns a new copy.
 */
export function uploadedBytes(file: Blob): Uint8Array<ArrayBuffer> | undefined {
  const parts = received.get(file);
  if (parts === undefined) return undefined;
  const bytes = new Uint8Array(parts.size);
  let at = 0;
  for (const chunk of parts.chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/** The multipart content types the route's OpenAPI validation accepts (the same pattern). */
const MULTIPART = /^multipart\/form-data(;\s?boundary=[a-zA-Z0-9'"()+_,\-./:=?]+)?$/i;

/** Most bytes handed to the parser in one turn of the event loop. */
const SLICE_BYTES = 64 * 1024;

/**
 * Middleware parsing a `multipart/form-data` body as it streams in, for the temp upload route.
 * Other content types pass through untouched (the validator answers them as before).
 *
 * @param limits - `maxUploadBytes` bounds each `file` part (bytes); the whole body stays bounded by
 *   the body limit in front of this middleware
 * @throws SkillportError `PAYLOAD_TOO_LARGE` (413) once a `file` part passes `maxUploadBytes`
 * @throws HTTPException 400 for a body that is not well-formed multipart
 */
export function streamMultipart(limits: Pick<ServerLimits, 'maxUploadBytes'>): MiddlewareHandler<AppEnv> {
  const maxFile = limits.maxUploadBytes;
  return async (c, next) => {
    const contentType = c.req.header('content-type');
    // Any other type (or a boundary outside the set the route accepts) is answered by the route's
    // own checks as before: 415 for a type it does not take.
    if (c.req.method !== 'POST' || contentType === undefined || !MULTIPART.test(contentType)) return next();
    const incoming = unreadIncoming(c.env, c.req.header('content-length'), c.req.header('transfer-encoding'));
    let body: ReadableStream<Uint8Array> | IncomingMessage;
    if (incoming !== undefined) {
      body = incoming;
    } else {
      const stream = c.req.raw.body;
      if (stream === null) return next();
      body = stream;
    }
    let formData: FormData;
    try {
      formData = await parseMultipart(body, contentType, maxFile);
    } catch (err) {
      if (err instanceof FileTooLarge) {
        throw new SkillportError(
          'PAYLOAD_TOO_LARGE',
          `Upload is larger than its limit: the limit is ${maxFile} bytes (SKILLPORT_MAX_UPLOAD_BYTES) for the file`,
          { details: { field: 'file', limit: maxFile } },
        );
      }
      // The body limit in front of this middleware reports its own 413 through the stream.
      if (err instanceof SkillportError || err instanceof HTTPException) throw err;
      const message = err instanceof Error ? err.message : String(err);
      throw new HTTPException(400, { message: `Malformed FormData request. ${message}` });
    }
    c.req.bodyCache.formData = formData;
    return next();
  };
}

/**
 * Node's request of a body that nothing has read yet and whose length is declared (`Content-Length`,
 * no `Transfer-Encoding`): the adapter's `env.incoming` when it is one. `undefined` otherwise: no
 * Node request (a fetch-only caller), a chunked body (the body limit has read it into the fetch
 * `Request`), or a body someone already reads.
 */
function unreadIncoming(
  env: unknown,
  contentLength: string | undefined,
  transferEncoding: string | undefined,
): IncomingMessage | undefined {
  if (contentLength === undefined || transferEncoding !== undefined) return undefined;
  const incoming = (env as { incoming?: unknown } | undefined)?.incoming;
  if (!(incoming instanceof IncomingMessage)) return undefined;
  if (incoming.readableDidRead || incoming.readableEnded || incoming.listenerCount('data') > 0)
    return undefined;
  return incoming;
}

/**
 * Feeds the body of Node's request `incoming` to `parser` as it arrives, at most {@link SLICE_BYTES}
 * per turn of the event loop (the request is paused between turns and while the parser is behind),
 * then ends the parser. Resolves once the parser has finished; rejects when the request fails or its
 * connection closes before the body ended. `stopped()` true ends the feed where it is: the request
 * is left paused, never destroyed (an answer given before the body ended discards the rest and
 * closes the connection itself: see `early-answer.ts`).
 */
function feedIncoming(incoming: IncomingMessage, parser: Writable, stopped: () => boolean): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    /** Bytes still allowed in this turn of the event loop. */
    let allowance = SLICE_BYTES;
    let turnEnds = false;
    /** The part of a chunk held back for a later turn (or until the parser drains). */
    let held: Buffer | null = null;
    let waitingForDrain = false;
    let ended = false;
    let settled = false;
    const settle = (err: Error | null) => {
      if (settled) return;
      settled = true;
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
      if (err !== null) {
        reject(err);
        return;
      }
      parser.once('finish', () => resolve());
      parser.end();
    };
    const nextTurn = () => {
      turnEnds = false;
      allowance = SLICE_BYTES;
      resume();
    };
    /** Writes what is held and what arrives, within this turn's allowance; pauses the request past it. */
    const push = (chunk: Buffer) => {
      let rest = chunk;
      while (rest.length > 0) {
        if (stopped()) {
          settle(new Error('the parse stopped'));
          incoming.pause();
          return;
        }
        if (allowance === 0 || waitingForDrain) {
          held = rest;
          incoming.pause();
          return;
        }
        const take = Math.min(allowance, rest.length);
        allowance -= take;
        if (!turnEnds) {
          turnEnds = true;
          setImmediate(nextTurn);
        }
        const written = parser.write(take === rest.length ? rest : rest.subarray(0, take));
        rest = rest.subarray(take);
        if (!written) {
          waitingForDrain = true;
          parser.once('drain', () => {
            waitingForDrain = false;
            resume();
          });
        }
      }
    };
    const resume = () => {
      if (settled || stopped() || waitingForDrain || allowance === 0) return;
      if (held !== null) {
        const chunk = held;
        held = null;
        push(chunk);
        if (held !== null) return;
      }
      if (ended) settle(null);
      else incoming.resume();
    };
    const onData = (chunk: Buffer) => {
      // A paused request delivers nothing more; should a chunk still come, it waits behind the held one.
      if (held !== null) held = Buffer.concat([held, chunk]);
      else push(chunk);
    };
    const onEnd = () => {
      ended = true;
      if (held === null && !waitingForDrain) settle(null);
    };
    const onError = (err: Error) => settle(err);
    const onClose = () => {
      if (!incoming.readableEnded) settle(new Error('the connection closed before the body ended'));
    };
    incoming.on('data', onData);
    incoming.once('end', onEnd);
    incoming.once('error', onError);
    incoming.once('close', onClose);
  });
}

/**
 * Parses `body` (multipart with the boundary in `contentType`) into a `FormData` in arrival order:
 * parts with a filename become `File`s (name and type as sent), the others strings.
 *
 * @param body - Node's request (see {@link unreadIncoming}), or the fetch `Request`'s body stream
 * @param maxFile - bytes a part named `file` may hold before the parse stops with {@link FileTooLarge}
 */
async function parseMultipart(
  body: ReadableStream<Uint8Array> | IncomingMessage,
  contentType: string,
  maxFile: number,
): Promise<FormData> {
  // Entries in order; files are filled in as their parts end.
  const entries: Array<{ name: string; value: string | File | null }> = [];
  const pendingFiles: Promise<void>[] = [];
  const parser = Busboy({
    headers: { 'content-type': contentType },
    // Names as sent (no path stripping) and UTF-8 text, as the fetch `formData()` parser reads them.
    preservePath: true,
    defCharset: 'utf8',
    limits: { fieldSize: maxFile },
  });
  // Settles (rejects) as soon as the parse must stop: a part too large, or the parser failed.
  let halted = false;
  let stop: (err: Error) => void = () => {};
  const stopped = new Promise<never>((_resolve, reject) => {
    stop = (err) => {
      halted = true;
      reject(err);
    };
  });
  stopped.catch(() => {});
  let tooLarge = false;
  parser.on('field', (name: string, value: string) => {
    entries.push({ name, value });
  });
  parser.on('file', (name, stream, filename, _encoding, mimeType) => {
    const entry: { name: string; value: string | File | null } = { name, value: null };
    entries.push(entry);
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let size = 0;
    const done = new Promise<void>((resolve, reject) => {
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (name === 'file' && size > maxFile) {
          tooLarge = true;
          stream.destroy();
          stop(new FileTooLarge());
          return;
        }
        chunks.push(chunk as Uint8Array<ArrayBuffer>);
      });
      stream.once('error', reject);
      stream.once('end', () => {
        const file = new File(chunks, filename, { type: mimeType });
        received.set(file, { chunks, size });
        entry.value = file;
        resolve();
      });
    });
    done.catch(() => {});
    pendingFiles.push(done);
  });
  parser.once('error', (err: Error) => stop(err));
  if (body instanceof IncomingMessage) {
    const fed = feedIncoming(body, parser, () => halted);
    fed.catch(() => {});
    await Promise.race([fed, stopped]);
    if (tooLarge) throw new FileTooLarge();
    await Promise.race([Promise.all(pendingFiles), stopped]);
    return formOf(entries);
  }
  const source = Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>);
  const feed = new Writable({
    async write(chunk: Buffer, _enc, done) {
      try {
        // A body buffered in front of this parse (a streamed one under the body limit) arrives
        // as one chunk: it is fed in slices, one per turn of the event loop.
        for (let at = 0; at < chunk.length && !tooLarge; at += SLICE_BYTES) {
          if (at > 0) await new Promise((resolve) => setImmediate(resolve));
          const slice = chunk.subarray(at, at + SLICE_BYTES);
          if (!parser.write(slice)) await new Promise((resolve) => parser.once('drain', resolve));
        }
        done(tooLarge ? new FileTooLarge() : null);
      } catch (err) {
        done(err as Error);
      }
    },
    final(done) {
      parser.once('finish', () => done());
      parser.end();
    },
  });
  const piped = pipeline(source, feed);
  piped.catch(() => {});
  try {
    await Promise.race([piped, stopped]);
    if (tooLarge) throw new FileTooLarge();
    await Promise.race([Promise.all(pendingFiles), stopped]);
  } finally {
    // Stops reading the body when the parse ended early (no-op once it has ended).
    source.destroy();
  }
  return formOf(entries);
}

/** The parsed parts as a `FormData`, in arrival order (a part whose file never ended is left out). */
function formOf(entries: ReadonlyArray<{ name: string; value: string | File | null }>): FormData {
  const form = new FormData();
  for (const { name, value } of entries) {
    if (value !== null) form.append(name, value);
  }
  return form;
}
