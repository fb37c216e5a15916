/**
 * Where a worker thread loads its code from. A built server runs `dist/…/<name>.js` directly. A
 * source run (tests) has only TypeScript: the thread starts `source-bootstrap.mjs`, which registers
 * tsx and then imports `<name>.ts`; workspace packages resolve to their sources there too.
 */

/** How to start a thread running the module `<name>` beside `moduleUrl`. */
export interface ThreadEntry {
  /** `file:` URL of the module the thread starts with. */
  url: URL;
  /** `workerData` of the thread: `entryUrl` (for the bootstrap) plus the caller's `data`. */
  workerData: { entryUrl: string; data: unknown };
  /** Node options of the thread (source runs add the `@skillport/source` condition). */
  execArgv?: string[];
}

/**
 * @param moduleUrl - `import.meta.url` of a module in the same folder as the entry
 * @param name - the entry's file name without extension, e.g. `worker-entry`
 * @param data - passed to the thread as `workerData.data`
 */
export function threadEntry(moduleUrl: string, name: string, data: unknown = null): ThreadEntry {
  const source = moduleUrl.endsWith('.ts');
  const entryUrl = new URL(`./${name}.${source ? 'ts' : 'js'}`, moduleUrl).href;
  const execArgv = threadExecArgv(process.execArgv);
  if (!source) return { url: new URL(entryUrl), workerData: { entryUrl, data }, execArgv };
  return {
    url: new URL('./source-bootstrap.mjs', import.meta.url),
    workerData: { entryUrl, data },
    execArgv: [...execArgv, '--conditions=@skillport/source'],
  };
}

/** Options that name the process's own entry (`-e code`, `--input-type`); a thread must not inherit them. */
const ENTRY_OPTIONS = new Set(['-e', '--eval', '-p', '--print', '--input-type']);
/**
 * Options a worker thread refuses (`ERR_WORKER_INVALID_EXEC_ARGV`): the V8 options Node takes on its
 * command line and per-process Node options. V8 flags apply to every thread of the process anyway, and
 * a thread's heap limits come from its own `resourceLimits`.
 */
const PROCESS_ONLY_OPTIONS = new Set([
  '--expose-gc',
  '--max-old-space-size',
  '--max-semi-space-size',
  '--heap-growing-percent',
  '--stack-size',
  '--stack-trace-limit',
  '--jitless',
  '--huge-max-old-generation-size',
  '--interpreted-frames-native-stack',
  '--perf-basic-prof',
  '--perf-basic-prof-only-functions',
  '--perf-prof',
  '--perf-prof-unwinding-info',
  '--abort-on-uncaught-exception',
  '--disallow-code-generation-from-strings',
  '--enable-etw-stack-walking',
  '--v8-pool-size',
  '--title',
  '--use-largepages',
  '--secure-heap',
  '--secure-heap-min',
  '--icu-data-dir',
  '--openssl-config',
  '--openssl-legacy-provider',
  '--openssl-shared-config',
  '--use-openssl-ca',
  '--use-bundled-ca',
  '--tls-cipher-list',
  '--trace-sigint',
  '--disable-wasm-trap-handler',
  '--zero-fill-buffers',
  '--enable-fips',
  '--force-fips',
]);

/**
 * Whether a worker thread refuses the option `name` (without its value): one of
 * {@link PROCESS_ONLY_OPTIONS}, also spelt with underscores or negated with `--no-`. (Options Node
 * does not know at all go to V8 and are refused too, but cannot be told apart from Node's own
 * command-line-only options such as `--cpu-prof`, which threads accept: they are kept.)
 */
function processOnly(name: string): boolean {
  if (!name.startsWith('--')) return false;
  const dashed = `--${name.slice(2).replaceAll('_', '-')}`;
  return PROCESS_ONLY_OPTIONS.has(dashed.startsWith('--no-') ? `--${dashed.slice(5)}` : dashed);
}

/**
 * The process's Node options minus those about its entry point and the per-process and V8 options,
 * which a worker thread refuses (a server started with `node --input-type=module -e …`,
 * `node --expose-gc` or `node --max-old-space-size=…` would otherwise fail to start its threads).
 */
export function threadExecArgv(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i] as string;
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (!ENTRY_OPTIONS.has(name) && processOnly(name)) continue;
    if (!ENTRY_OPTIONS.has(name)) {
      out.push(arg);
      continue;
    }
    if (!arg.includes('=')) i++; // its value is the next argument
  }
  return out;
}
