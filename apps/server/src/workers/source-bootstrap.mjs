// Pool threads of a source run (tests, `vitest`): teach the thread TypeScript (tsx) before it
// loads the TypeScript worker entry. A built server loads `dist/workers/worker-entry.js` directly
// and never reads this file.
import { workerData } from 'node:worker_threads';

const { register } = await import('tsx/esm/api');
register();
const entry = await import(workerData.entryUrl);

export default entry.default;
