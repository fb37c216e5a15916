/**
 * A real OpenAI-compatible embeddings server on 127.0.0.1:0 for tests (`POST /v1/embeddings`). It
 * serves the vectors of a given embedding function — the bundled local model, or by default the
 * concept embedder below.
 *
 * Its vectors come from a small, deterministic concept embedder: each word (lower case, or each
 * CJK character sequence listed) that belongs to a concept adds 1 on that concept's axis, every
 * other word a little on a hashed "noise" axis. Texts about the same concept — in other words or
 * another language, as listed in `CONCEPTS` — are therefore close, unrelated texts are not. It
 * stands in for a multilingual model so the plumbing (job, storage, fusion, fallbacks) is tested
 * over real HTTP.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';

/** Concept → words that express it (any language). */
export const CONCEPTS: Record<string, readonly string[]> = {
  raffle: [
    'raffle',
    'lottery',
    'draw',
    'lucky',
    'winner',
    'winners',
    'giveaway',
    'sweepstakes',
    '抽奖',
    '中奖',
  ],
  speech: ['transcribe', 'transcription', 'speech', 'audio', 'recording', 'dictation', '录音', '文字'],
  invoice: ['invoice', 'invoices', 'receipt', 'receipts', 'bills', 'expenses', 'tax', '发票', '报销'],
  slides: ['slides', 'presentation', 'deck', 'pptx', 'powerpoint', '幻灯片', '演示'],
};

const DIM = 1024;
const NOISE_AXES = DIM - Object.keys(CONCEPTS).length;

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** The test embedding of a text (not normalised; the client normalises). */
export function conceptVector(text: string): number[] {
  const v: number[] = new Array<number>(DIM).fill(0);
  const lower = text.toLowerCase();
  const names = Object.keys(CONCEPTS);
  names.forEach((concept, axis) => {
    for (const word of CONCEPTS[concept] ?? []) {
      const cjk = /[^\x00-\x7f]/.test(word);
      const hits = cjk
        ? lower.split(word).length - 1
        : (lower.match(new RegExp(`\\b${word}\\b`, 'g')) ?? []).length;
      v[axis] = (v[axis] as number) + hits;
    }
  });
  for (const word of lower.match(/[a-z0-9]+/g) ?? []) {
    const axis = names.length + (hash(word) % NOISE_AXES);
    v[axis] = (v[axis] as number) + 0.05;
  }
  if (!v.some((x) => x !== 0)) v[DIM - 1] = 1;
  return v;
}

/** A running embeddings server. */
export interface EmbeddingsServer {
  /** Base URL for `SKILLPORT_EMBEDDINGS_URL` (`http://127.0.0.1:PORT/v1`). */
  url: string;
  /** Requests received: model, number of inputs, authorization header. */
  requests: Array<{ model: string; inputs: number; authorization: string | undefined }>;
  /** Answer with this status (and no vectors) until set back to null. */
  failWith: number | null;
  /** Delay each answer by this many ms. */
  delayMs: number;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Starts the server.
 *
 * @param embed - how it embeds a request's texts (default: {@link conceptVector} per text); e.g. the
 *   bundled local model, to serve real vectors
 */
export async function startEmbeddingsServer(
  embed: (texts: string[]) => Promise<ArrayLike<number>[]> = async (texts) => texts.map(conceptVector),
): Promise<EmbeddingsServer> {
  const state: EmbeddingsServer = {
    url: '',
    requests: [],
    failWith: null,
    delayMs: 0,
    close: async () => {},
  };
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
      res.writeHead(404).end();
      return;
    }
    const json = JSON.parse(body) as { model: string; input: string | string[] };
    const inputs = Array.isArray(json.input) ? json.input : [json.input];
    state.requests.push({
      model: json.model,
      inputs: inputs.length,
      authorization: req.headers.authorization,
    });
    if (state.delayMs > 0) await new Promise((r) => setTimeout(r, state.delayMs));
    if (state.failWith !== null) {
      res.writeHead(state.failWith, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'failing on purpose' } }));
      return;
    }
    // Answer out of order, as the API allows: clients must place vectors by `index`.
    const vectors = await embed(inputs);
    const data = inputs
      .map((_, index) => ({ object: 'embedding', index, embedding: Array.from(vectors[index] ?? []) }))
      .reverse();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        object: 'list',
        data,
        model: json.model,
        usage: { prompt_tokens: 0, total_tokens: 0 },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  state.url = `http://127.0.0.1:${address.port}/v1`;
  state.close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    });
  return state;
}
