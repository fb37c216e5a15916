/**
 * `#local-source` where there is no filesystem (browsers, workers, and any bundle built without the
 * `node` condition): no string names a local file, so every string is skill content. The Node flavour
 * is `local-source.ts`; package.json's `imports` map picks one by condition, so a browser bundle of the
 * package root never reaches `@skillport/core/node`.
 */
import type { LocalUpload } from './local-source.js';

/** Always `undefined`: without a filesystem a string is content. */
export async function readLocalSource(_value: string): Promise<LocalUpload | undefined> {
  return undefined;
}
