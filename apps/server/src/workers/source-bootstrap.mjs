// Threads of a source run (tests, `vitest`): teach the thread TypeScript (tsx) before it loads its
// TypeScript entry (`workerData.entryUrl`). A built server starts its threads on the compiled `.js`
// entries directly and never reads this file.
import { workerData } from 'node:worker_threads';

const { register } = await import('tsx/esm/api');
register();
const entry = await import(workerData.entryUrl);

// A pool thread (piscina) calls the entry's default export; other threads run on import.
export default entry.default;
