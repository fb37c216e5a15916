/**
 * The limits a client checks offline (`DEFAULT_UPLOAD_LIMITS` of `@skillport/core/node`, used by
 * `skillport skills validate`) are this server's defaults, and `checkSkillZip` refuses what the
 * server's zip reader refuses (and accepts what it accepts) on the same zip.
 */
import { checkSkillZip, DEFAULT_UPLOAD_LIMITS } from '@skillport/core/node';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, LIMIT_ENV } from '../../src/config.js';
import { readZip } from '../../src/uploads/zip-reader.js';

const zipLimits = (maxCompressionRatio: number) => ({
  maxEntries: DEFAULT_LIMITS.maxZipEntries,
  maxUncompressedBytes: DEFAULT_LIMITS.maxUncompressedBytes,
  maxCompressionRatio,
  maxPathDepth: DEFAULT_LIMITS.maxPathDepth,
});

describe('offline upload limits', () => {
  it('equal the server defaults, with the same settings', () => {
    const { settings, ...values } = DEFAULT_UPLOAD_LIMITS;
    expect(values).toEqual({
      max_upload_bytes: DEFAULT_LIMITS.maxUploadBytes,
      max_zip_entries: DEFAULT_LIMITS.maxZipEntries,
      max_uncompressed_bytes: DEFAULT_LIMITS.maxUncompressedBytes,
      max_compression_ratio: DEFAULT_LIMITS.maxCompressionRatio,
      max_files_per_skill: DEFAULT_LIMITS.maxFilesPerSkill,
      max_skill_md_bytes: DEFAULT_LIMITS.maxSkillMdBytes,
      max_path_depth: DEFAULT_LIMITS.maxPathDepth,
    });
    expect(settings).toEqual({
      max_upload_bytes: LIMIT_ENV.maxUploadBytes,
      max_zip_entries: LIMIT_ENV.maxZipEntries,
      max_uncompressed_bytes: LIMIT_ENV.maxUncompressedBytes,
      max_compression_ratio: LIMIT_ENV.maxCompressionRatio,
      max_files_per_skill: LIMIT_ENV.maxFilesPerSkill,
      max_skill_md_bytes: LIMIT_ENV.maxSkillMdBytes,
      max_path_depth: LIMIT_ENV.maxPathDepth,
    });
  });

  it('checkSkillZip and the server zip reader agree on the compression ratio', () => {
    const skillMd = new TextEncoder().encode(
      '---\nname: big-text\ndescription: A big text file\n---\n\n# Big\n',
    );
    const repeated = new TextEncoder().encode('the same line of text, again and again\n'.repeat(800_000)); // ~30 MB
    const bomb = zipSync({ 'SKILL.md': skillMd, 'notes.txt': repeated }, { level: 6 });
    const problem = checkSkillZip(bomb, DEFAULT_UPLOAD_LIMITS);
    expect(problem).toMatchObject({
      limit: 'max_compression_ratio',
      setting: 'SKILLPORT_MAX_COMPRESSION_RATIO',
      path: 'notes.txt',
    });
    expect(() => readZip(bomb, zipLimits(DEFAULT_LIMITS.maxCompressionRatio))).toThrow(
      /compression ratio above 200:1/,
    );
    // Raised on both sides, both accept it.
    expect(checkSkillZip(bomb, { ...DEFAULT_UPLOAD_LIMITS, max_compression_ratio: 100_000 })).toBeNull();
    expect(() => readZip(bomb, zipLimits(100_000))).not.toThrow();
  });
});
