// Writes spec/openapi.json from the server's route schemas (run after `build`: uses dist/).
// Usage: pnpm --filter @skillport/server generate   (or: node scripts/generate-openapi.mjs [--check])
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp, createSqliteStore, openApiDocument, renderOpenApiJson } from '../dist/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const target = path.resolve(here, '../../../spec/openapi.json');
const dataDir = mkdtempSync(path.join(tmpdir(), 'skillport-openapi-'));
const store = createSqliteStore({ dataDir });
try {
  const { app } = await createApp({ store, logger: false });
  const text = renderOpenApiJson(openApiDocument(app));
  if (process.argv.includes('--check')) {
    const current = readFileSync(target, 'utf8');
    if (current !== text) {
      console.error(
        `${path.relative(process.cwd(), target)} is stale: run \`pnpm --filter @skillport/server generate\``,
      );
      process.exitCode = 1;
    }
  } else {
    writeFileSync(target, text);
    console.log(`wrote ${path.relative(process.cwd(), target)} (${text.length} bytes)`);
  }
} finally {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
}
