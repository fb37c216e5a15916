import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The shared corpus folder: `SKILLPORT_CORPUS`, else `<repo>/../shared/corpus`; throws when missing. */
export function corpusDir(): string {
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
  const dir = process.env.SKILLPORT_CORPUS ?? path.resolve(repoRoot, '../shared/corpus');
  if (!existsSync(path.join(dir, 'skills'))) {
    throw new Error(
      `Corpus not found at ${dir}: set SKILLPORT_CORPUS to the folder holding skills/ and mcp/`,
    );
  }
  return dir;
}

/** Every corpus SKILL.md as raw text (byte-exact), in folder order. */
export function corpusSkillTexts(): Array<{ folder: string; text: string }> {
  const dir = path.join(corpusDir(), 'skills');
  return readdirSync(dir)
    .sort()
    .filter((folder) => existsSync(path.join(dir, folder, 'SKILL.md')))
    .map((folder) => ({ folder, text: readFileSync(path.join(dir, folder, 'SKILL.md'), 'utf8') }));
}
