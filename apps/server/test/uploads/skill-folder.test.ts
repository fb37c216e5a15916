import { zipSync } from 'fflate';
import { describe, expect, test } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/config.js';
import { extractUploadedSkill } from '../../src/uploads/skill-folder.js';
import { refusal } from '../helpers/refusal.js';
import { buildZip } from '../helpers/zip-builder.js';

const enc = new TextEncoder();
const MiB = 1024 * 1024;

/** ~2.9 MiB of one repeated paragraph: deflate shrinks it far past the 200:1 ratio guard. */
const LONG_SKILL_MD = enc.encode(
  `---\nname: long-skill\ndescription: A skill whose SKILL.md is far over the size limit\n---\n\n${'Read the notes and list every action item with its owner.\n'.repeat(52_000)}`,
);

describe('extractUploadedSkill: a SKILL.md over SKILLPORT_MAX_SKILL_MD_BYTES', () => {
  test.each([
    ['at the archive root', 'SKILL.md'],
    ['in the single top-level folder', 'long-skill/SKILL.md'],
  ])('%s is refused for its size, not as a possible zip bomb', (_, path) => {
    const zip = zipSync({
      [path]: LONG_SKILL_MD,
      [path.replace('SKILL.md', 'notes.md')]: enc.encode('# notes\n'),
    });
    const { code, message, details } = refusal(() => extractUploadedSkill(zip, DEFAULT_LIMITS));
    // Before: 413 with details.reason "compression_ratio" (the archive read as a possible zip bomb).
    expect(code).toBe('PAYLOAD_TOO_LARGE');
    expect(details).toEqual({
      field: 'SKILL.md',
      size: LONG_SKILL_MD.length,
      limit: DEFAULT_LIMITS.maxSkillMdBytes,
    });
    expect(message).toContain('SKILLPORT_MAX_SKILL_MD_BYTES');
  });

  test('from the size the archive declares: nothing is inflated first', () => {
    // The entry claims 3 MiB but holds a few bytes: inflating it would end in a size refusal of its own.
    const zip = buildZip([
      { name: 'SKILL.md', data: '---\nname: x\ndescription: d\n---\n', declaredSize: 3 * MiB },
    ]);
    const { details } = refusal(() => extractUploadedSkill(zip, DEFAULT_LIMITS));
    expect(details).toEqual({ field: 'SKILL.md', size: 3 * MiB, limit: DEFAULT_LIMITS.maxSkillMdBytes });
  });

  test('a zip bomb beside a SKILL.md within its limit is still refused for its compression ratio', () => {
    const zip = zipSync({
      'SKILL.md': enc.encode(
        '---\nname: bomb\ndescription: A small skill with a bomb beside it\n---\n\nBody.\n',
      ),
      'zeros.bin': new Uint8Array(8 * MiB),
    });
    const { code, details } = refusal(() => extractUploadedSkill(zip, DEFAULT_LIMITS));
    expect(code).toBe('PAYLOAD_TOO_LARGE');
    expect(details).toMatchObject({ reason: 'compression_ratio', path: 'zeros.bin' });
  });

  test('a SKILL.md deeper than the skill folder is not the one checked', () => {
    const zip = zipSync({
      'SKILL.md': enc.encode(
        '---\nname: top\ndescription: The skill at the root of the archive\n---\n\nBody.\n',
      ),
      'examples/other/SKILL.md': enc.encode('x'.repeat(2 * MiB)),
    });
    const skill = extractUploadedSkill(zip, { ...DEFAULT_LIMITS, maxCompressionRatio: 100_000 });
    expect(skill.auxiliary.map((f) => f.path)).toEqual(['examples/other/SKILL.md']);
  });
});
