// Empties a package's `dist/` before its build (run from the package folder: `node
// ../../scripts/clean-dist.mjs`), so a module renamed or deleted in the sources does not linger in
// the build output, and so in the packed tarball, which ships `dist/` as it is.
import { rmSync } from 'node:fs';
import path from 'node:path';

rmSync(path.resolve(process.cwd(), 'dist'), { recursive: true, force: true });
