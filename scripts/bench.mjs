#!/usr/bin/env node
// `pnpm bench`: runs every benchmark script of the workspace (`<package>/bench/*.bench.mjs`, run
// against the built `dist/` output) one after another in its own Node process, so the figures of
// one do not disturb the next. Each script prints its own table. Pass a substring to run a subset
// (`pnpm bench core`) or a script's name to run that one (`pnpm bench server`).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const filter = process.argv[2] ?? '';
const scripts = [];
for (const group of ['packages', 'apps']) {
  const groupDir = join(root, group);
  if (!existsSync(groupDir)) continue;
  for (const pkg of readdirSync(groupDir).sort()) {
    const benchDir = join(groupDir, pkg, 'bench');
    if (!existsSync(benchDir)) continue;
    for (const file of readdirSync(benchDir).sort()) {
      if (file.endsWith('.bench.mjs')) scripts.push(join(benchDir, file));
    }
  }
}

// A filter naming a script exactly (`server` for `server.bench.mjs`) runs that one only.
const exact = scripts.filter((script) => script.endsWith(`/${filter}.bench.mjs`));
let failed = 0;
for (const script of exact.length > 0 ? exact : scripts) {
  const name = relative(root, script);
  if (filter && !name.includes(filter)) continue;
  console.log(`\n## ${name}\n`);
  const run = spawnSync(process.execPath, ['--expose-gc', script], { stdio: 'inherit', cwd: root });
  if (run.status !== 0) {
    failed++;
    console.error(`${name} exited with ${run.status ?? run.signal}`);
  }
}
process.exit(failed ? 1 : 0);
