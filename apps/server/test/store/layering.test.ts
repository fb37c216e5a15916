/**
 * The stores sit below the services: a store module imports store modules, core and drivers, never
 * the services (HTTP-facing logic) that call it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const storeDir = path.resolve(import.meta.dirname, '../../src/store');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('store layering', () => {
  it('no store module imports a service, a route or the HTTP layer', () => {
    const files = sources(storeDir);
    expect(files.length).toBeGreaterThan(20);
    const offenders: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)) {
        const target = path.resolve(path.dirname(file), match[1] as string);
        const relative = path.relative(path.dirname(storeDir), target).split(path.sep).join('/');
        if (
          relative.startsWith('services/') ||
          relative.startsWith('routes/') ||
          relative.startsWith('http/')
        ) {
          offenders.push(`${path.relative(storeDir, file)} -> ${relative}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });
});
