/**
 * Test helper: probes `GET /health` from a thread of its own every few milliseconds while a server
 * works, and reports for each probe
 *
 * - its latency from the moment it was due (not from when it could be sent: a server that stops
 *   answering for 200 ms shows a probe of ~200 ms even if the test's own thread is busy too), and
 * - when the server is a local process on Linux, the CPU time its main (HTTP) thread used while the
 *   probe waited (`/proc/<pid>/task/<pid>/schedstat`). On a machine loaded by other processes every
 *   probe waits longer, but a server whose HTTP thread computes for 300 ms shows 300 ms of CPU under
 *   one probe whatever the load: that is what "the server stalled" means.
 */
import { Worker } from 'node:worker_threads';

const PROBER = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const { url, intervalMs, statFile } = workerData;
const cpuMs = () => {
  if (statFile === null) return Number.NaN;
  try { return Number(readFileSync(statFile, 'utf8').split(' ')[0]) / 1e6; } catch { return Number.NaN; }
};
const probes = [];
let stopped = false;
let outstanding = 0;
const start = performance.now();
let tick = 0;
function schedule() {
  if (stopped) return;
  tick += 1;
  const due = start + tick * intervalMs;
  setTimeout(() => {
    if (stopped) return;
    outstanding += 1;
    const cpuBefore = cpuMs();
    fetch(url).then((r) => r.arrayBuffer()).then(
      () => { probes.push({ latencyMs: performance.now() - due, serverCpuMs: cpuMs() - cpuBefore }); },
      () => { probes.push({ latencyMs: Number.POSITIVE_INFINITY, serverCpuMs: Number.NaN }); },
    ).finally(() => { outstanding -= 1; if (stopped && outstanding === 0) parentPort.postMessage(probes); });
    schedule();
  }, Math.max(0, due - performance.now()));
}
schedule();
parentPort.on('message', () => {
  stopped = true;
  if (outstanding === 0) parentPort.postMessage(probes);
});
`;

/** One probe. */
export interface Probe {
  /** ms from when the probe was due until its answer arrived (Infinity: it failed). */
  latencyMs: number;
  /** ms of CPU the server's HTTP thread used while the probe waited (NaN when unknown). */
  serverCpuMs: number;
}

/** A running probe. */
export interface HealthProbe {
  /** Stops probing; resolves with every probe. */
  stop(): Promise<Probe[]>;
}

/**
 * Starts probing `${baseUrl}/health`.
 *
 * @param baseUrl - the server's base URL
 * @param pid - the server's process id, to read its HTTP thread's CPU time (Linux), if local
 * @param intervalMs - time between probes (default 10 ms)
 */
export function startHealthProbe(baseUrl: string, pid?: number, intervalMs = 10): HealthProbe {
  const statFile = pid === undefined ? null : `/proc/${pid}/task/${pid}/schedstat`;
  const worker = new Worker(PROBER, {
    eval: true,
    workerData: { url: `${baseUrl}/health`, intervalMs, statFile },
  });
  const result = new Promise<Probe[]>((resolve, reject) => {
    worker.once('message', (probes: Probe[]) => resolve(probes));
    worker.once('error', reject);
  });
  return {
    async stop() {
      worker.postMessage('stop');
      const probes = await result;
      await worker.terminate();
      return probes;
    },
  };
}

/** Summary of the probes of one run of {@link healthDuring}. */
export interface HealthRun {
  probes: number;
  /** Worst latency, ms. */
  worstLatencyMs: number;
  /** Most CPU the server's HTTP thread used under one probe, ms (NaN when unknown). */
  worstServerCpuMs: number;
}

/** Result of {@link healthDuring}. */
export interface HealthVerdict {
  /** True when a run stayed under `maxMs` (server CPU under one probe when known, else latency). */
  ok: boolean;
  runs: HealthRun[];
}

/**
 * Runs `op` while probing `/health` and judges whether the server kept answering within `maxMs`
 * (default 100): by the CPU its HTTP thread spent under any one probe when that can be read (a
 * measure other processes on a busy machine do not inflate), else by probe latency. A failing run is
 * repeated (up to `attempts`, default 3); a server that really stops answering fails every run.
 *
 * @param baseUrl - the server's base URL
 * @param op - the work to run (it may run several times)
 * @param options.pid - the server's process id (local process on Linux)
 */
export async function healthDuring(
  baseUrl: string,
  op: () => Promise<unknown>,
  options: { pid?: number; maxMs?: number; attempts?: number } = {},
): Promise<HealthVerdict> {
  const maxMs = options.maxMs ?? 100;
  const runs: HealthRun[] = [];
  for (let attempt = 0; attempt < (options.attempts ?? 3); attempt++) {
    const probe = startHealthProbe(baseUrl, options.pid);
    let probes: Probe[] = [];
    try {
      await op();
    } finally {
      probes = await probe.stop();
    }
    const run: HealthRun = {
      probes: probes.length,
      worstLatencyMs: Math.max(...probes.map((p) => p.latencyMs)),
      worstServerCpuMs: Math.max(...probes.map((p) => p.serverCpuMs)),
    };
    runs.push(run);
    const measure = Number.isNaN(run.worstServerCpuMs) ? run.worstLatencyMs : run.worstServerCpuMs;
    if (measure < maxMs) return { ok: true, runs };
  }
  return { ok: false, runs };
}
