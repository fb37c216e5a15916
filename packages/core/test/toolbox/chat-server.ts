/**
 * A real HTTP server on 127.0.0.1 (port 0) speaking the OpenAI chat-completions wire format, for
 * tests: each request is recorded and answered by the next scripted reply.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server received it. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  rawBody: string;
}

/** A scripted reply: status, headers and body (an object is sent as JSON), or a delay first. */
export interface ScriptedReply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Milliseconds to wait before answering (to provoke client timeouts). */
  delayMs?: number;
}

export interface ChatServer {
  baseURL: string;
  requests: RecordedRequest[];
  /** Queues replies, answered in order; when the queue is empty the server answers 599. */
  reply(...replies: ScriptedReply[]): void;
  close(): Promise<void>;
}

/** A chat-completions success body carrying `content`. */
export function completion(content: unknown): Record<string, unknown> {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

export async function startChatServer(): Promise<ChatServer> {
  const requests: RecordedRequest[] = [];
  const queue: ScriptedReply[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: unknown = rawBody;
      try {
        body = JSON.parse(rawBody);
      } catch {
        // keep the raw text
      }
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, rawBody });
      const reply = queue.shift() ?? { status: 599, body: { error: { message: 'no scripted reply left' } } };
      const send = (): void => {
        if (res.destroyed) return;
        const payload = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        res.end(payload);
      };
      if (reply.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          send();
        }, reply.delayMs);
        timers.add(timer);
      } else {
        send();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    reply: (...replies) => queue.push(...replies),
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
