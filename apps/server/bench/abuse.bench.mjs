// Abuse benchmark (`pnpm bench abuse`, against the built dist/): starts `dist/main.js` (SQLite, keyed)
// in its own process and, for each hostile input, sends it while probing `GET /health` every 5 ms
// from this process. Prints per input: the hostile request's status, its time, and /health p50 /
// p99 / max while it ran (the goal: p99 under 100 ms — nothing one user sends stalls the server).
// A second table gives the data folder's growth per accepted request byte: a normal inline add, and
// a highly compressible zip (each accepted byte may expand by up to SKILLPORT_MAX_COMPRESSION_RATIO).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, process.env.BENCH_SERVER_DIST ?? '../dist');
const ROOT = 'abuse-bench-root-key-0123456789abcdef';

function startChild(env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(dist, 'main.js')], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let buffer = '';
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      const match = /"url":"(http:[^"]+)"/.exec(buffer);
      if (match) {
        child.stdout.removeAllListeners('data');
        child.stdout.resume();
        resolve({ child, url: match[1] });
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`server exited early with ${code}: ${buffer.slice(0, 500)}`)),
    );
  });
}

function folderBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(p) : statSync(p).size;
  }
  return total;
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

/** Runs `hostile()` while probing /health; returns the hostile status and /health latencies. */
async function underProbe(url, hostile) {
  const latencies = [];
  let done = false;
  const probe = (async () => {
    while (!done) {
      const t0 = performance.now();
      await fetch(`${url}/health`).then((r) => r.arrayBuffer());
      latencies.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const t0 = performance.now();
  const status = await hostile();
  const ms = performance.now() - t0;
  done = true;
  await probe;
  latencies.sort((a, b) => a - b);
  return {
    status,
    ms,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? 0,
    n: latencies.length,
  };
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'skillport-abuse-'));
const { child, url } = await startChild({
  SKILLPORT_DATA_DIR: dataDir,
  SKILLPORT_PORT: '0',
  SKILLPORT_HOST: '127.0.0.1',
  SKILLPORT_ROOT_API_KEY: ROOT,
});
try {
  const call = async (method, p, { key, body, headers = {} } = {}) => {
    const isForm = body instanceof FormData;
    const res = await fetch(`${url}${p}`, {
      method,
      headers: {
        ...(key ? { 'x-api-key': key } : {}),
        ...(body !== undefined && !isForm && typeof body !== 'string'
          ? { 'content-type': 'application/json' }
          : {}),
        ...(typeof body === 'string' ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : isForm || typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text };
  };
  await call('POST', '/api/v1/admin/accounts', { key: ROOT, body: { account_id: 'bench' } });
  await call('POST', '/api/v1/admin/accounts/bench/users', { key: ROOT, body: { user_id: 'ann' } });
  const created = await call('POST', '/api/v1/admin/accounts/bench/keys', {
    key: ROOT,
    body: { user_id: 'ann', role: 'admin' },
  });
  const key = JSON.parse(created.text).result.api_key;
  const md = (name, body) => `---\nname: ${name}\ndescription: Abuse bench input ${name}\n---\n${body}`;
  const upload = async (bytes) => {
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'upload.zip');
    const up = await call('POST', '/api/v1/resources/temp_upload', { key, body: form });
    if (up.status !== 200) return up;
    return call('POST', '/api/v1/skills', {
      key,
      body: { temp_file_id: JSON.parse(up.text).result.temp_file_id, wait: true },
    });
  };
  let deep = '"x"';
  for (let i = 0; i < 5000; i++) deep = `{"a":${deep}}`;
  const bomb = zipSync({
    'SKILL.md': new TextEncoder().encode(md('bomb', 'x')),
    'zeros.bin': new Uint8Array(60 * 1024 * 1024).fill(97),
  });
  const manyEntries = zipSync(
    Object.fromEntries([
      ['SKILL.md', new TextEncoder().encode(md('many', 'x'))],
      ...Array.from({ length: 1001 }, (_, i) => [`f/${i}.txt`, new TextEncoder().encode('x')]),
    ]),
  );

  const inputs = [
    ['baseline (no hostile request)', () => new Promise((r) => setTimeout(() => r(0), 1000))],
    [
      '60 KB heading line (`# a` + spaces + `b`), wait=true',
      () =>
        call('POST', '/api/v1/skills', {
          key,
          body: { data: md('heading-60k', `# a${' '.repeat(60_000)}b\n`), wait: true },
        }).then((r) => r.status),
    ],
    [
      '1 MiB SKILL.md of one heading line, wait=true',
      () =>
        call('POST', '/api/v1/skills', {
          key,
          body: { data: md('heading-1m', `# a${' '.repeat(1_040_000)}b\n`), wait: true },
        }).then((r) => r.status),
    ],
    [
      'source_metadata nested 5,000 deep',
      () =>
        call('POST', '/api/v1/skills', {
          key,
          body: `{"data":${JSON.stringify(md('deep', 'x'))},"source_metadata":${deep}}`,
        }).then((r) => r.status),
    ],
    [
      `zip bomb: ${(bomb.length / 1024).toFixed(0)} KiB inflating to 60 MiB`,
      () => upload(bomb).then((r) => r.status),
    ],
    ['zip with 1,002 entries', () => upload(manyEntries).then((r) => r.status)],
    [
      '500 wrong keys at /health (throttle)',
      async () => {
        const statuses = await Promise.all(
          Array.from({ length: 500 }, (_, i) =>
            fetch(`${url}/health`, { headers: { 'x-api-key': `sk_wrong${i}xxxxxxxxxxxxxxxxxxxx` } }).then(
              (r) => r.status,
            ),
          ),
        );
        return `${statuses.filter((s) => s === 429).length}×429`;
      },
    ],
  ];
  const rows = [];
  for (const [label, hostile] of inputs) {
    const r = await underProbe(url, hostile);
    rows.push({
      'hostile input': label,
      status: r.status,
      'its ms': r.ms.toFixed(0),
      '/health n': r.n,
      'p50 ms': r.p50.toFixed(1),
      'p99 ms': r.p99.toFixed(1),
      'max ms': r.max.toFixed(1),
      'p99 ≤ 100 ms': r.p99 <= 100 ? 'PASS' : 'MISS',
    });
    console.log(`${label}: status ${r.status}, /health p99 ${r.p99.toFixed(1)} ms`);
  }
  console.log('\n/health latency while each hostile input is processed (SQLite, keyed):');
  console.table(rows);

  // Data folder growth per accepted request byte.
  const growth = [];
  const measure = async (label, send, acceptedBytes) => {
    const before = folderBytes(dataDir);
    const status = await send();
    const after = folderBytes(dataDir);
    growth.push({
      input: label,
      status,
      'accepted bytes': acceptedBytes,
      'folder growth bytes': after - before,
      'growth per accepted byte': ((after - before) / acceptedBytes).toFixed(2),
    });
  };
  const inline = Array.from({ length: 50 }, (_, i) => ({
    data: md(`inline-${i}`, `# Inline ${i}\n\n${'Some ordinary guidance text. '.repeat(100)}\n`),
    wait: true,
  }));
  const inlineBytes = inline.reduce((n, b) => n + JSON.stringify(b).length, 0);
  await measure(
    '50 inline adds (3 KB SKILL.md each)',
    async () => {
      for (const body of inline) await call('POST', '/api/v1/skills', { key, body });
      return 200;
    },
    inlineBytes,
  );
  const compressible = zipSync({
    'SKILL.md': new TextEncoder().encode(md('compressible', 'x')),
    'log.txt': new TextEncoder().encode('2026-12-01 INFO request served\n'.repeat(400_000)),
  });
  await measure(
    `zip of ${(compressible.length / 1024).toFixed(0)} KiB inflating to 12 MiB`,
    () => upload(compressible).then((r) => r.status),
    compressible.length,
  );
  console.log('\nData folder growth per accepted byte (SQLite, WAL included):');
  console.table(growth);
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
