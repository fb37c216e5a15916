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
/** Per-process V8 flags without a value that a worker thread refuses (`ERR_WORKER_INVALID_EXEC_ARGV`). */
const PROCESS_ONLY_FLAGS = new Set(['--expose-gc', '--expose_gc']);

/**
 * The process's Node options minus those about its entry point and the per-process flags, which a
 * worker thread refuses (a server started with `node --input-type=module -e …` or `node --expose-gc`
 * would otherwise fail to start its threads).
 */
export function threadExecArgv(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i] as string;
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (PROCESS_ONLY_FLAGS.has(name)) continue;
    if (!ENTRY_OPTIONS.has(name)) {
      out.push(arg);
      continue;
    }
    if (!arg.includes('=')) i++; // its value is the next argument
  }
  return out;
}
