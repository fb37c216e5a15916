// Benchmark of skill discovery over a real node_modules: the workspace's own install (the repository
// root, resolved from this file). Runs against the built output: `pnpm --filter @skillport/core build`
// first, then `node packages/core/bench/discover.bench.mjs` (or `pnpm bench core`).
// Cold = a fresh scan cache each run (the OS file cache stays warm after the first run);
// warm = one cache reused, as a long-running agent process would.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDiscoveryCache, discoverSkills } from '@skillport/core/node';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const COLD_RUNS = 7;
const WARM_RUNS = 15;
const GOAL_MS = 1000;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function timed(options) {
  const started = process.hrtime.bigint();
  const result = await discoverSkills(options);
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, result };
}

const cold = [];
let last;
for (let i = 0; i < COLD_RUNS; i++) {
  const run = await timed({ cwd: root, cache: createDiscoveryCache() });
  cold.push(run.ms);
  last = run.result;
}
const cache = createDiscoveryCache();
await discoverSkills({ cwd: root, cache });
const warm = [];
for (let i = 0; i < WARM_RUNS; i++) {
  const run = await timed({ cwd: root, cache });
  warm.push(run.ms);
  last = run.result;
}

const kinds = {};
for (const d of last.diagnostics) kinds[d.kind] = (kinds[d.kind] ?? 0) + 1;
const rows = [
  ['project root', path.basename(root)],
  ['packages scanned', String(last.stats.packagesScanned)],
  ['skills found', String(last.skills.length)],
  [
    'diagnostics',
    Object.entries(kinds)
      .map(([k, n]) => `${k}: ${n}`)
      .join(', ') || 'none',
  ],
  ['cache hits (warm)', String(last.stats.cacheHits)],
  [`cold median (${COLD_RUNS} runs)`, `${median(cold).toFixed(1)} ms`],
  [`warm median (${WARM_RUNS} runs)`, `${median(warm).toFixed(1)} ms`],
  ['goal', `< ${GOAL_MS} ms: ${median(cold) < GOAL_MS ? 'met' : 'MISSED'}`],
];
const width = Math.max(...rows.map(([k]) => k.length));
console.log('| discoverSkills (declared + shipped) | value |');
console.log('|---|---|');
for (const [k, v] of rows) console.log(`| ${k.padEnd(width)} | ${v} |`);
if (process.argv.includes('--list')) {
  for (const s of last.skills)
    console.log(`${s.name}\t${s.source.strategy}\t${s.source.package ?? ''}\t${s.path}`);
}
