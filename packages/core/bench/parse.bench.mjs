// Benchmark of SKILL.md parsing over the real corpus, against the built output:
// `pnpm --filter @skillport/core build` first, then `node packages/core/bench/parse.bench.mjs`
// (or `pnpm bench parse`). The corpus is read once into memory; every contender then parses the same
// strings in the same process:
//   (a) floor        — fence split + `yaml` parse of the frontmatter, nothing else;
//   (b) gray-matter  — its default engine (js-yaml), the cache bypassed so each call really parses;
//   (c) parseSkillMd — our parser alone;
//   (d) validate     — our `validateSkill(text)`: parse (once) + the openviking rules, the full path.
// Each figure is the median CPU time of RUNS timed runs after WARMUP untimed ones (CPU time, so
// other busy processes on the machine do not inflate it); a run parses every file REPEAT times.
// Goal: (d) at least 0.8x the throughput of (a).
// Set SKILLPORT_CORPUS to use a corpus elsewhere than ../shared/corpus beside the repository.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSkillMd, validateSkill } from '@skillport/core';
import matter from 'gray-matter';
import { parse as parseYaml } from 'yaml';

const RUNS = 15;
const WARMUP = 3;
const REPEAT = 10;
const GOAL = 0.8;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const corpus = process.env.SKILLPORT_CORPUS ?? path.resolve(root, '../shared/corpus');
const skillsDir = path.join(corpus, 'skills');
if (!existsSync(skillsDir)) {
  console.error(`The skill corpus is missing: expected ${skillsDir} (set SKILLPORT_CORPUS).`);
  process.exit(1);
}
const texts = readdirSync(skillsDir)
  .sort()
  .map((dir) => path.join(skillsDir, dir, 'SKILL.md'))
  .filter((file) => existsSync(file))
  .map((file) => readFileSync(file, 'utf8'));
const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);

/** (a) The least any frontmatter parser does: find the fences, parse the YAML. */
function floor(text) {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!source.startsWith('---')) return null;
  const open = source.indexOf('\n');
  if (open === -1) return null;
  const close = source.indexOf('\n---', open);
  if (close === -1) return null;
  try {
    return parseYaml(source.slice(open + 1, close));
  } catch {
    return null;
  }
}

/** (b) gray-matter with an options object, which skips its content cache. */
function grayMatter(text) {
  try {
    return matter(text, {});
  } catch {
    return null;
  }
}

const contenders = [
  ['(a) floor: split + yaml.parse', floor],
  ['(b) gray-matter (js-yaml)', grayMatter],
  ['(c) parseSkillMd', (text) => parseSkillMd(text)],
  ['(d) validateSkill (parse + rules)', (text) => validateSkill(text)],
];

/** CPU time (user + system) of one run, in ms: unlike wall time, not inflated by other busy processes. */
function runOnce(fn) {
  const started = process.cpuUsage();
  let sink = 0;
  for (let r = 0; r < REPEAT; r++) {
    for (const text of texts) if (fn(text) !== undefined) sink++;
  }
  const used = process.cpuUsage(started);
  if (sink < 0) console.log(sink);
  return (used.user + used.system) / 1000;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// Interleave contenders run by run so drift (CPU frequency, other processes) hits all alike.
const samples = new Map(contenders.map(([name]) => [name, []]));
for (let run = 0; run < WARMUP + RUNS; run++) {
  for (const [name, fn] of contenders) {
    globalThis.gc?.();
    const ms = runOnce(fn);
    if (run >= WARMUP) samples.get(name).push(ms);
  }
}

const perRun = texts.length * REPEAT;
const results = contenders.map(([name]) => {
  const ms = median(samples.get(name));
  return { name, ms, filesPerSec: (perRun / ms) * 1000, mbPerSec: (bytes * REPEAT) / ms / 1000 / 1.048576 };
});
const [floorResult, grayResult] = results;

console.log(
  `${texts.length} SKILL.md files, ${(bytes / 1024).toFixed(0)} KiB; median of ${RUNS} runs ` +
    `(after ${WARMUP} warm-up), each parsing every file ${REPEAT}x; Node ${process.version}\n`,
);
const header = ['contender', 'CPU ms/run', 'files/s', 'MB/s', 'vs (a)', 'vs (b)'];
const rows = results.map((r) => [
  r.name,
  r.ms.toFixed(1),
  Math.round(r.filesPerSec).toLocaleString('en-US'),
  r.mbPerSec.toFixed(1),
  `${(r.filesPerSec / floorResult.filesPerSec).toFixed(2)}x`,
  `${(r.filesPerSec / grayResult.filesPerSec).toFixed(2)}x`,
]);
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
const line = (cells) =>
  `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
console.log(line(header));
console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
for (const row of rows) console.log(line(row));
const ratio = results[3].filesPerSec / floorResult.filesPerSec;
console.log(`\ngoal: (d) >= ${GOAL}x of (a): ${ratio.toFixed(2)}x — ${ratio >= GOAL ? 'met' : 'MISSED'}`);
