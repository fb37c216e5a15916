/** The CLI's version, read from its own package.json (one level above `src/` and `dist/`). */
import { createRequire } from 'node:module';

export const CLI_VERSION: string = (
  createRequire(import.meta.url)('../../package.json') as { version: string }
).version;
