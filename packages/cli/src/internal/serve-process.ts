/**
 * `skillport serve` in a child process with memory settings that only apply when a process starts.
 *
 * These settings lower the server's memory with a large SQLite registry and cannot be changed once
 * Node runs: glibc's number of allocation arenas (`MALLOC_ARENA_MAX`, read by the C library at
 * process start — each busy thread otherwise gets its own arena and freed memory stays spread over
 * them), glibc's fixed mmap and trim thresholds (`MALLOC_MMAP_THRESHOLD_`, `MALLOC_TRIM_THRESHOLD_`:
 * by default glibc raises its mmap threshold up to 32 MiB after a large block is freed, so later
 * large blocks — SQLite's full-text buffers, typed arrays of search relevance — come from the arenas
 * and stay there after they are freed; fixed, every block of 128 KiB or more is mapped on its own and
 * returned to the system when freed) and the young generation of every thread's V8 heap
 * (`--max-semi-space-size`, sized when Node starts), and V8's heap growing factor for every thread
 * (`--heap-growing-percent`: after each full collection a heap may grow by this share of what
 * survived before the next one; V8 otherwise lets it grow up to 4× when the machine has memory to
 * spare, so garbage and freed buffers of the threads piled up to ~100 MB on the HTTP thread alone at
 * 100,000 skills). On glibc, when the environment or the Node options do not set them all, `serve` starts itself again with those not set and stays as a thin
 * parent: it passes signals on, ends the child with itself, and exits with the child's status.
 * With PostgreSQL (`--database-url` or `SKILLPORT_DATABASE_URL` naming it) the child gets the heap
 * growing factor only: glibc's defaults are kept there, where fewer arenas made gets dearer, and so is
 * the young generation, whose smaller size cost distinct finds ~20% more CPU there.
 * `SKILLPORT_SERVE_RELAUNCH=0` keeps the server in this process.
 */
import { spawn } from 'node:child_process';

/** Marks the child: it runs the server itself and stops when its parent goes. */
export const SERVE_CHILD_ENV = 'SKILLPORT_SERVE_CHILD';
/** `0` (or `false`, `off`, `no`) keeps `serve` in one process. */
export const SERVE_RELAUNCH_ENV = 'SKILLPORT_SERVE_RELAUNCH';
/** Allocation arenas the child gets (glibc only). */
export const SERVE_MALLOC_ARENA_MAX = '2';
/**
 * glibc's fixed thresholds the child gets, bytes (glibc only): blocks of at least
 * `MALLOC_MMAP_THRESHOLD_` are mapped on their own (and unmapped when freed); free memory above
 * `MALLOC_TRIM_THRESHOLD_` at the top of an arena is given back. Setting either stops glibc's
 * dynamic raising of both.
 */
export const SERVE_MALLOC_THRESHOLDS: Readonly<Record<string, string>> = {
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '1048576',
};
/**
 * Semi-space of the child's young generations, MiB (V8's default grows to 16 on the main thread). A
 * process-wide V8 flag: it sizes every thread's young generation (the HTTP thread, the database
 * thread, each search reader, the WAL checkpointer, pool workers) to twice this, over their own
 * `resourceLimits`. At 2 (4 MiB young per thread) the server's peak at 100,000 skills was ~16 MB
 * lower than at 4, with CPU per get, list page and find within run-to-run noise.
 */
export const SERVE_SEMI_SPACE_MB = 2;
/**
 * V8's heap growing factor of the child (every thread), percent above what survived the last full
 * collection (V8's default: dynamic, up to 300 on a machine with memory to spare).
 */
export const SERVE_HEAP_GROWING_PERCENT = 50;

/** How to start this CLI again: the `skillport` executable's own command line. */
export interface SelfCommand {
  execPath: string;
  execArgv: readonly string[];
  /** The CLI's own script and its arguments (`process.argv.slice(1)`). */
  argv: readonly string[];
}

/** Global options of the CLI that take a value (the value is not the command's name). */
const GLOBAL_WITH_VALUE = new Set(['-o', '--output', '--url', '--api-key']);

/**
 * For `skillport [global options] serve …` (not its `--help`): the `--database-url` given, or
 * `{ databaseUrl: undefined }`; null for any other command. Read before the CLI loads, so the parent
 * of a relaunched `serve` loads nothing else.
 */
export function serveInvocation(args: readonly string[]): { databaseUrl: string | undefined } | null {
  let i = 0;
  while (i < args.length && (args[i] as string).startsWith('-')) {
    if (GLOBAL_WITH_VALUE.has(args[i] as string)) i++;
    i++;
  }
  if (args[i] !== 'serve') return null;
  let databaseUrl: string | undefined;
  for (let k = i + 1; k < args.length; k++) {
    const arg = args[k] as string;
    if (arg === '--') break;
    if (arg === '-h' || arg === '--help') return null;
    if (arg === '--database-url') databaseUrl = args[k + 1];
    else if (arg.startsWith('--database-url=')) databaseUrl = arg.slice('--database-url='.length);
  }
  return { databaseUrl };
}

/** Whether this process uses glibc (most Linux distributions; not musl, e.g. Alpine). */
export function usesGlibc(): boolean {
  if (process.platform !== 'linux') return false;
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: unknown } } | undefined;
  return typeof report?.header?.glibcVersionRuntime === 'string';
}

/**
 * The child's extra Node options and environment, or null when `serve` should run in this process:
 * not on glibc (where the measurements were made: Linux other than musl), already the child, turned
 * off, or every setting already chosen by the operator (one set by the operator is never replaced).
 * On PostgreSQL the setting is `--heap-growing-percent` alone: glibc's arena and threshold settings
 * are left at their defaults there (fewer arenas made gets dearer in our measurements), and so is the
 * young generation (`--max-semi-space-size=4` cost distinct finds ~20% more CPU at 100,000 skills).
 */
export function relaunchPlan(
  env: NodeJS.ProcessEnv,
  execArgv: readonly string[],
  databaseUrl: string | undefined,
  glibc: boolean,
): { execArgv: string[]; env: Record<string, string> } | null {
  if (!glibc || env[SERVE_CHILD_ENV] === '1') return null;
  if (/^(0|false|off|no)$/i.test(env[SERVE_RELAUNCH_ENV]?.trim() ?? '')) return null;
  const postgres = /^postgres(ql)?:/i.test(databaseUrl ?? env.SKILLPORT_DATABASE_URL ?? '');
  const given = [...execArgv, env.NODE_OPTIONS ?? ''];
  const flags: string[] = [];
  if (!postgres && !given.some((arg) => /max[-_]semi[-_]space[-_]size/.test(arg))) {
    flags.push(`--max-semi-space-size=${SERVE_SEMI_SPACE_MB}`);
  }
  if (!given.some((arg) => /heap[-_]growing[-_]percent/.test(arg))) {
    flags.push(`--heap-growing-percent=${SERVE_HEAP_GROWING_PERCENT}`);
  }
  const unset: Record<string, string> = {};
  const mallocSettings: Record<string, string> = postgres
    ? {}
    : { MALLOC_ARENA_MAX: SERVE_MALLOC_ARENA_MAX, ...SERVE_MALLOC_THRESHOLDS };
  for (const [name, value] of Object.entries(mallocSettings)) {
    if (env[name] === undefined) unset[name] = value;
  }
  if (flags.length === 0 && Object.keys(unset).length === 0) return null;
  return { execArgv: flags, env: { [SERVE_CHILD_ENV]: '1', ...unset } };
}

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs `self` again as a child with `plan`, sharing this process's standard streams, and waits for
 * it. The first SIGINT, SIGTERM or SIGHUP is passed on (the child stops gracefully, as `serve`
 * does); a second one ends the child at once (SIGKILL), like a second Ctrl-C of a server in one
 * process. The child ends itself when this process is gone (its IPC channel closes).
 *
 * @returns the child's exit status; a child ended by a signal ends this process with that signal
 */
export function runServeChild(
  self: SelfCommand,
  plan: { execArgv: string[]; env: Record<string, string> },
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const child = spawn(self.execPath, [...self.execArgv, ...plan.execArgv, ...self.argv], {
    env: { ...env, ...plan.env },
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  });
  let signalled = 0;
  const onSignal = (signal: NodeJS.Signals): void => {
    signalled++;
    child.kill(signalled === 1 ? signal : 'SIGKILL');
  };
  for (const signal of FORWARDED) process.on(signal, onSignal);
  return new Promise((resolve, reject) => {
    child.once('error', (error) => {
      for (const signal of FORWARDED) process.off(signal, onSignal);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      for (const signal of FORWARDED) process.off(signal, onSignal);
      if (signal !== null) {
        process.kill(process.pid, signal);
        return;
      }
      resolve(code ?? 1);
    });
  });
}

/**
 * In the child: end at once when the parent is gone (a parent killed with SIGKILL cannot pass the
 * signal on), and let the IPC channel not keep the process alive after the server stopped.
 */
export function followParent(): void {
  if (process.env[SERVE_CHILD_ENV] !== '1' || process.channel === undefined) return;
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGKILL'));
}
