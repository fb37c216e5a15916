// Summarises a V8 CPU profile (`node --cpu-prof`, e.g. the server's under `BENCH_CPU_PROF` of
// server.bench.mjs): the functions with the most self time, and self time per package/module folder.
// Usage: node apps/server/bench/cpu-profile-summary.mjs <file.cpuprofile> [top=20]
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: cpu-profile-summary.mjs <file.cpuprofile> [top]');
  process.exit(2);
}
const top = Number(topArg ?? 20);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const byFunction = new Map();
const byModule = new Map();
for (const [id, us] of selfUs) {
  const { callFrame } = nodes.get(id);
  const url = callFrame.url.replace(/^file:\/\//, '');
  const where = url ? `${url.split('/').slice(-2).join('/')}:${callFrame.lineNumber + 1}` : '';
  const key = `${callFrame.functionName || '(anonymous)'} ${where}`.trim();
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  const module =
    pkg ??
    (url.includes('/dist/') ? 'server dist' : url ? url.split('/').slice(-2, -1)[0] : callFrame.functionName);
  byModule.set(module, (byModule.get(module) ?? 0) + us);
}
const table = (map) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, us]) => ({
      name,
      'self ms': Math.round(us / 1000),
      '%': Number(((us / total) * 100).toFixed(1)),
    }));
console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled`);
console.table(table(byFunction));
console.table(table(byModule));
