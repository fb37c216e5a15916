// Store benchmark (run by `pnpm bench`, against the built dist/): fills a fresh SQLite store with
// BENCH_STORE_SKILLS skills (default 10 000) made from the shared corpus SKILL.md files (real bodies,
// up to ~40 KB each), then measures the store itself, without HTTP: putSkill throughput, find
// p50/p95/p99 over a fixed query mix (two roots, limit 10), get and list latency, and file sizes.
// Goal reported (not enforced: timings depend on the machine): find p99 <= 20 ms.
//
// Env: BENCH_STORE_SKILLS (10000), SKILLPORT_CORPUS (default <repo>/../shared/corpus).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSkillMd } from '@skillport/core';
import { createSqliteStore } from '../dist/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const SKILLS = Number(process.env.BENCH_STORE_SKILLS ?? 10_000);
const corpus = process.env.SKILLPORT_CORPUS ?? path.resolve(here, '../../../../shared/corpus');
if (!existsSync(path.join(corpus, 'skills'))) {
  console.error(`corpus not found at ${corpus}: set SKILLPORT_CORPUS`);
  process.exit(1);
}
const USER_ROOT = 'viking://user/bench/skills';
const AGENT_ROOT = 'viking://agent/skills';
const QUERIES = [
  'pdf',
  'git commit',
  'search the web',
  'docker',
  'test',
  'api',
  'calc',
  'code review',
  'data analysis python',
  'skill',
  'the',
  'deploy kubernetes cluster',
  'write documentation',
  'frontend design',
  'mcp server',
  'xlsx spreadsheet',
];

const sources = readdirSync(path.join(corpus, 'skills'))
  .sort()
  .map((dir) => path.join(corpus, 'skills', dir, 'SKILL.md'))
  .filter((file) => existsSync(file))
  .map((file) => parseSkillMd(readFileSync(file, 'utf8')).skill);

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const fmt = (ms) => ms.toFixed(2);

const dataDir = mkdtempSync(path.join(tmpdir(), 'skillport-store-bench-'));
const store = createSqliteStore({ dataDir });
const enc = new TextEncoder();
try {
  const started = performance.now();
  for (let i = 0; i < SKILLS; i++) {
    const source = sources[i % sources.length];
    const name = `${(source.name ?? 'skill').replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 50)}-${i}`;
    await store.putSkill({
      accountId: 'bench',
      rootUri: i % 10 === 0 ? AGENT_ROOT : USER_ROOT,
      name,
      description: source.description ?? '',
      tags: source.tags,
      allowedTools: source.allowedTools,
      frontmatter: source.frontmatter,
      body: source.body,
      sourceMetadata: null,
      files: [{ path: 'SKILL.md', kind: 'definition', content: enc.encode(`${name}\n${source.body}`) }],
      task: { type: 'add_skill', userId: 'bench' },
    });
  }
  const putMs = performance.now() - started;

  for (const query of QUERIES) await store.search('bench', [USER_ROOT, AGENT_ROOT], query, { limit: 10 });
  // Wall time, and CPU time of this process (less sensitive to other load on a shared machine).
  const finds = [];
  const findsCpu = [];
  for (let round = 0; round < 20; round++) {
    for (const query of QUERIES) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await store.search('bench', [USER_ROOT, AGENT_ROOT], query, { limit: 10 });
      finds.push(performance.now() - t0);
      const cpu = process.cpuUsage(c0);
      findsCpu.push((cpu.user + cpu.system) / 1000);
    }
  }

  const names = (await store.listSkills('bench', USER_ROOT, { limit: 200 })).skills.map((s) => s.name);
  const gets = [];
  for (const name of names) {
    const t0 = performance.now();
    const skill = await store.getSkill('bench', USER_ROOT, name);
    await store.readFile(skill.id, 'SKILL.md');
    gets.push(performance.now() - t0);
  }
  const timeList = async (withBody) => {
    const times = [];
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      await store.listSkills('bench', USER_ROOT, { limit: 1000, withBody });
      times.push(performance.now() - t0);
    }
    return times;
  };
  const lists = await timeList(true);
  const listsLight = await timeList(false);

  const size = readdirSync(dataDir).reduce((sum, f) => sum + statSync(path.join(dataDir, f)).size, 0);
  const stats = (operation, times) => {
    const sorted = [...times].sort((a, b) => a - b);
    return {
      operation,
      n: sorted.length,
      'p50 ms': fmt(pct(sorted, 50)),
      'p95 ms': fmt(pct(sorted, 95)),
      'p99 ms': fmt(pct(sorted, 99)),
    };
  };
  console.table([
    {
      operation: `putSkill ×${SKILLS}`,
      'per op ms': fmt(putMs / SKILLS),
      'ops/s': Math.round((SKILLS / putMs) * 1000),
    },
  ]);
  console.table([
    stats('find (2 roots, limit 10), wall', finds),
    stats('find, CPU time', findsCpu),
    stats('get + read SKILL.md', gets),
    stats('list (limit 1000)', lists),
    stats('list (limit 1000, withBody: false)', listsLight),
  ]);
  console.log(`data folder: ${(size / 1e6).toFixed(0)} MB for ${SKILLS} skills`);
  const p99 = pct(
    [...finds].sort((a, b) => a - b),
    99,
  );
  const p99Cpu = pct(
    [...findsCpu].sort((a, b) => a - b),
    99,
  );
  console.log(
    `goal find p99 <= 20 ms: ${p99 <= 20 ? 'met' : 'NOT met'} (${fmt(p99)} ms wall, ${fmt(p99Cpu)} ms CPU; ` +
      `load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} CPUs)`,
  );
} finally {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
}
