/**
 * Kept `find` results against a reference: random adds, replacements and deletes (two users, both
 * roots) through either of two replicas, and random finds (misspelt words, names, stop words,
 * `limit`, `level`, `score_threshold`, `target_uri`; lexical, then with semantic search) asked twice
 * of a replica that keeps results and once of one that keeps nothing (`readCacheMb: 0`), all on one
 * database: every answer is the reference's. `FIND_SEED` picks another sequence.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddingsServer } from '../helpers/embeddings-server.js';
import { TEST_ENGINE } from '../helpers/engine.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const server = await startTestServer(options);
  cleanups.push(() => server.close());
  return server;
}

function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 2246822507) + 0x9e3779b9) >>> 0;
    s = Math.imul(s ^ (s >>> 13), 3266489909) >>> 0;
    return ((s ^ (s >>> 16)) >>> 0) / 2 ** 32;
  };
}

const WORDS = [
  'invoice',
  'receipts',
  'audio',
  'transcribe',
  'slides',
  'deck',
  'raffle',
  'winner',
  'tax',
  'speech',
  'ledger',
  'vendor',
];
const QUERIES = [
  ...WORDS,
  'recepits',
  'transcirbe',
  'invoice receipts',
  'slides deck',
  'alpha-tool',
  'beta tool',
  'led',
  'the',
  'audio tax winner',
  'zzzz',
];
const NAMES = ['alpha-tool', 'beta-tool', 'gamma-tool', 'delta-tool', 'invoice-tool', 'speech-tool'];
const USERS = ['alice', 'bob'];
const TARGETS = [null, 'viking://agent/skills', 'viking://~/skills'];

describe(`kept finds equal fresh finds (${TEST_ENGINE})`, () => {
  it.each([false, true])(
    'random writes and finds (semantic: %s): the keeping replica answers what the reference does',
    async (semantic) => {
      let options: Parameters<typeof startTestServer>[0] = {};
      if (semantic) {
        const embeddings = await startEmbeddingsServer();
        cleanups.push(() => embeddings.close());
        options = { embeddings: { baseURL: embeddings.url, model: 'concepts-1', apiKey: 'k', retryMs: 100 } };
      }
      const a = await start(options);
      const b = await start({ ...options, dataDir: a.dataDir });
      const c = await start({ ...options, dataDir: a.dataDir, readCacheMb: 0 });
      const rnd = prng(Number(process.env.FIND_SEED ?? 1));
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
      const log: string[] = [];
      let hits = 0;
      let refused = 0;
      for (let step = 0; step < 160; step++) {
        const user = pick(USERS);
        const headers = { 'x-openviking-user': user };
        if (rnd() < 0.3) {
          const name = pick(NAMES);
          const target = pick(['viking://agent/skills', 'viking://~/skills']);
          if (rnd() < 0.2) {
            const res = await pick([a, b]).request(
              'DELETE',
              `/api/v1/skills/${name}?target_uri=${encodeURIComponent(target)}`,
              { headers },
            );
            log.push(`${step} delete ${user} ${name} ${target} ${res.status}`);
          } else {
            const description = `${pick(WORDS)} ${pick(WORDS)} helper`;
            const body = `Steps: ${pick(WORDS)} ${pick(WORDS)}.`;
            const data = `---\nname: ${name}\ndescription: ${description}\ntags: [${pick(WORDS)}]\n---\n\n# ${name}\n\n${body}\n`;
            const res = await pick([a, b]).request('POST', '/api/v1/skills', {
              body: { data, wait: true, target_uri: target },
              headers,
            });
            expect(res.status, res.text).toBe(200);
            if (semantic) await a.request('POST', '/api/v1/system/wait', { body: { timeout: 60 } });
            log.push(`${step} add ${user} ${name} ${target} "${description}"`);
          }
          continue;
        }
        const find: Record<string, unknown> = { query: pick(QUERIES) };
        if (rnd() < 0.3) find.limit = 1 + Math.floor(rnd() * 3);
        if (rnd() < 0.2) find.level = pick([0, 1, 2, [0, 1], [2]]);
        if (rnd() < 0.2) find.score_threshold = pick([0, 0.2, 0.5, 1]);
        const target = pick(TARGETS);
        if (target !== null) find.target_uri = target;
        const ask = async (t: TestServer) => {
          const res = await t.request('POST', '/api/v1/skills/find', { body: find, headers });
          return { status: res.status, result: res.json?.result ?? res.json?.error?.code };
        };
        const first = await ask(b);
        const kept = await ask(b);
        const reference = await ask(c);
        log.push(`${step} find ${user} ${JSON.stringify(find)}`);
        expect(first, log.slice(-12).join('\n')).toEqual(reference);
        expect(kept, log.slice(-12).join('\n')).toEqual(reference);
        if (first.status === 200) hits += (first.result as { total: number }).total;
        else refused += 1;
      }
      // The finds found something (not only empty answers) and none was refused.
      expect(hits).toBeGreaterThan(50);
      expect(refused).toBe(0);
    },
    120_000,
  );
});
