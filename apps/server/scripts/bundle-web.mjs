// Copies the built web catalogue (`@skillport/web`, apps/web/dist) into dist/webapp, with brotli and
// gzip siblings of its text files, so the published @skillport/server serves it at `/` on its own.
// Run by `build` after tsc; turbo builds @skillport/web first (a devDependency of this package).
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));
const target = path.resolve(here, '../dist/webapp');
let source;
try {
  source = path.join(
    path.dirname(createRequire(import.meta.url).resolve('@skillport/web/package.json')),
    'dist',
  );
} catch {
  source = path.resolve(here, '../../web/dist');
}
rmSync(target, { recursive: true, force: true });
if (!existsSync(path.join(source, 'index.html'))) {
  console.warn(
    `web catalogue not built (${path.relative(process.cwd(), source)}): the server will serve none at /`,
  );
  process.exit(0);
}
cpSync(source, target, { recursive: true });

const COMPRESS = /\.(html|js|mjs|css|svg|json|webmanifest|txt)$/i;
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) walk(file);
    else if (COMPRESS.test(name) && statSync(file).size > 512) {
      const body = readFileSync(file);
      writeFileSync(
        `${file}.br`,
        brotliCompressSync(body, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
        }),
      );
      writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
    }
  }
}
walk(target);
console.log(`bundled the web catalogue into ${path.relative(process.cwd(), target)}`);
