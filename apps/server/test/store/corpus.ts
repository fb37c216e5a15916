import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { requireCorpus } from '../../../../scripts/test-corpus.js';

/**
 * The shared corpus folder: `SKILLPORT_CORPUS`, else `<repo>/../shared/corpus`, for suites declared
 * with `describeCorpus`; throws when missing.
 */
export function corpusDir(): string {
  return requireCorpus();
}

/** Every corpus SKILL.md as raw text (byte-exact), in folder order. */
export function corpusSkillTexts(): Array<{ folder: string; text: string }> {
  const dir = path.join(corpusDir(), 'skills');
  return readdirSync(dir)
    .sort()
    .filter((folder) => existsSync(path.join(dir, folder, 'SKILL.md')))
    .map((folder) => ({ folder, text: readFileSync(path.join(dir, folder, 'SKILL.md'), 'utf8') }));
}
