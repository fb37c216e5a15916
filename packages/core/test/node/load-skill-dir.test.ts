import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itCorpus, requireCorpus } from '../../../../scripts/test-corpus.js';
import { isSkillportError, type SkillportError } from '../../src/errors.js';
import { loadSkillDir, zipSkillDir } from '../../src/node/index.js';
import { skillMd, tempDir, writeTree } from './fixture-tree.js';

let root: string;
let cleanup: () => Promise<void>;
const binary = new Uint8Array([0, 255, 1, 254, 0x50, 0x4b, 3, 4]);
const bomCrlf = '\uFEFF---\r\nname: bom-skill\r\ndescription: Has a BOM and CRLF\r\n---\r\n\r\n# Body\r\n';

beforeAll(async () => {
  ({ dir: root, cleanup } = await tempDir('skilldir'));
  await writeTree(root, {
    'skill/SKILL.md': bomCrlf,
    'skill/references/api.md': '# API\n',
    'skill/assets/logo.bin': binary,
    'skill/a.txt': 'first',
    'skill/.git/HEAD': 'ref: refs/heads/main\n',
    'skill/node_modules/x/index.js': '',
    'skill/.env': 'API_KEY=secret',
    'skill/config/.env.production': 'API_KEY=secret',
    'skill/.npmrc': '//registry.npmjs.org/:_authToken=secret',
    'skill/.envrc.md': 'not a secret file: kept',
    'skill/inner-link.md': { symlink: 'a.txt' },
    'skill/outer-link': { symlink: '../secret' },
    'skill/dangling': { symlink: 'nowhere' },
    'secret/token.txt': 'do not upload',
    'no-skill/readme.md': 'x',
    'lowercase/skill.md': skillMd('lower'),
    'linked-skill-md/SKILL.md': { symlink: '../skill/SKILL.md' },
    'not-a-dir.txt': 'file',
    'many/SKILL.md': skillMd('many'),
    'many/1.txt': '1',
    'many/2.txt': '22',
    'many/3.txt': '333',
    'deep/SKILL.md': skillMd('deep'),
    'deep/a/b/c/file.txt': 'deep',
    'broken/SKILL.md': '---\nname: broken\n',
  });
});
afterAll(async () => {
  await cleanup();
});

async function thrown(promise: Promise<unknown>): Promise<SkillportError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(isSkillportError(error)).toBe(true);
  return error as SkillportError;
}

describe('loadSkillDir', () => {
  it('returns SKILL.md exactly, parsed, with auxiliary files sorted and binary-safe', async () => {
    const loaded = await loadSkillDir(path.join(root, 'skill'));
    expect(loaded.dir).toBe(path.join(root, 'skill'));
    expect(loaded.skillMd).toBe(bomCrlf);
    expect(loaded.skill.name).toBe('bom-skill');
    expect(loaded.skill.description).toBe('Has a BOM and CRLF');
    expect(loaded.files.map((f) => [f.path, f.size])).toEqual([
      ['.envrc.md', 23],
      ['a.txt', 5],
      ['assets/logo.bin', 8],
      ['references/api.md', 6],
    ]);
    expect(loaded.files.find((f) => f.path === 'assets/logo.bin')?.content).toEqual(binary);
  });

  it('skips symlinks, entries escaping the folder and ignored names, and says why', async () => {
    const { skipped } = await loadSkillDir(path.join(root, 'skill'));
    expect(skipped.map((s) => [s.path, s.reason])).toEqual([
      ['.env', 'ignored'],
      ['.git', 'ignored'],
      ['.npmrc', 'ignored'],
      ['dangling', 'symlink'],
      ['inner-link.md', 'symlink'],
      ['node_modules', 'ignored'],
      ['outer-link', 'outside_root'],
      ['config/.env.production', 'ignored'],
    ]);
    expect(skipped.find((s) => s.path === 'config/.env.production')?.message).toBe(
      '.env.production matches ".env.*" of the ignore list',
    );
    expect(skipped.find((s) => s.path === 'outer-link')?.message).toContain(
      'resolves outside the skill folder',
    );
  });

  it('reports parse problems as issues without throwing', async () => {
    const loaded = await loadSkillDir(path.join(root, 'broken'));
    expect(loaded.issues.map((i) => [i.rule, i.severity])).toContainEqual(['yaml_format', 'error']);
    expect(loaded.skillMd).toBe('---\nname: broken\n');
  });

  it.each([
    { dir: 'missing', code: 'NOT_FOUND', message: 'Skill folder not found' },
    { dir: 'not-a-dir.txt', code: 'INVALID_ARGUMENT', message: 'Not a folder' },
    { dir: 'no-skill', code: 'NOT_FOUND', message: 'No SKILL.md at the root' },
    { dir: 'lowercase', code: 'NOT_FOUND', message: 'found skill.md; the name must be exactly SKILL.md' },
    { dir: 'linked-skill-md', code: 'INVALID_ARGUMENT', message: 'SKILL.md in' },
  ])('refuses $dir with $code', async ({ dir, code, message }) => {
    const error = await thrown(loadSkillDir(path.join(root, dir)));
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });

  it.each([
    { dir: 'many', options: { maxFiles: 2 }, limit: 'maxFiles' },
    { dir: 'many', options: { maxTotalBytes: 50 }, limit: 'maxTotalBytes' },
    { dir: 'deep', options: { maxDepth: 2 }, limit: 'maxDepth' },
  ])('enforces $limit', async ({ dir, options, limit }) => {
    const error = await thrown(loadSkillDir(path.join(root, dir), options));
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.details).toMatchObject({ limit });
    await expect(loadSkillDir(path.join(root, dir))).resolves.toBeDefined();
  });

  itCorpus('loads every corpus skill folder byte-exactly', async () => {
    const corpus = requireCorpus();
    const folders = (await readdir(path.join(corpus, 'skills'))).sort();
    expect(folders.length).toBeGreaterThan(50);
    for (const folder of folders) {
      const dir = path.join(corpus, 'skills', folder);
      const loaded = await loadSkillDir(dir);
      const bytes = await readFile(path.join(dir, 'SKILL.md'));
      expect(Buffer.from(loaded.skillMdBytes).equals(bytes), folder).toBe(true);
      const validUtf8 = !loaded.issues.some((issue) => issue.rule === 'encoding');
      expect(validUtf8, folder).toBe(!folder.includes('invalid-utf8'));
      if (validUtf8) expect(Buffer.from(loaded.skillMd, 'utf8').equals(bytes), folder).toBe(true);
      for (const file of loaded.files) {
        expect(Buffer.from(file.content).equals(await readFile(path.join(dir, file.path))), file.path).toBe(
          true,
        );
      }
    }
  });
});

describe('zipSkillDir', () => {
  it('zips SKILL.md first at the root, then the auxiliary files, leaving skipped entries out', async () => {
    const zip = await zipSkillDir(path.join(root, 'skill'));
    const entries = unzipSync(zip);
    expect(Object.keys(entries)).toEqual([
      'SKILL.md',
      '.envrc.md',
      'a.txt',
      'assets/logo.bin',
      'references/api.md',
    ]);
    expect(Object.keys(entries).some((p) => p.includes('.env') && p !== '.envrc.md')).toBe(false);
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(entries['SKILL.md'])).toBe(bomCrlf);
    expect(entries['assets/logo.bin']).toEqual(binary);
  });

  it('tells onSkipped of every entry it leaves out, with the reason', async () => {
    const told: Array<{ path: string; reason: string }> = [];
    const zip = await zipSkillDir(path.join(root, 'skill'), {
      onSkipped: (entry) => told.push({ path: entry.path, reason: entry.reason }),
    });
    const kept = Object.keys(unzipSync(zip));
    expect(told).toEqual(
      expect.arrayContaining([
        { path: 'inner-link.md', reason: 'symlink' },
        { path: 'outer-link', reason: 'outside_root' },
        { path: 'dangling', reason: 'symlink' },
        { path: '.env', reason: 'ignored' },
        { path: '.git', reason: 'ignored' },
      ]),
    );
    for (const entry of told) expect(kept).not.toContain(entry.path);
  });

  it('gives the same bytes for the same folder, whatever the level of detail asked', async () => {
    const first = await zipSkillDir(path.join(root, 'skill'));
    const second = await zipSkillDir(path.join(root, 'skill'));
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(true);
    const stored = await zipSkillDir(path.join(root, 'skill'), { level: 0 });
    expect(unzipSync(stored)['references/api.md']).toEqual(new TextEncoder().encode('# API\n'));
  });

  // A server refuses such an archive (400 path_conflict): zipping refuses it first, naming both.
  it('refuses two paths that are one file on macOS and Windows, before reading any file', async () => {
    const dir = path.join(root, 'case-clash');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: case-clash\ndescription: d\n---\n');
    writeFileSync(path.join(dir, 'Ref.md'), 'one');
    writeFileSync(path.join(dir, 'ref.md'), 'two');
    const error = await thrown(zipSkillDir(dir));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('"Ref.md" and "ref.md" differ only in letter case');
    expect(error.details).toEqual({ reason: 'path_conflict', path: 'ref.md', other: 'Ref.md' });
    // loadSkillDir reads what is there (it uploads nothing).
    expect((await loadSkillDir(dir)).files.map((f) => f.path)).toEqual(['Ref.md', 'ref.md']);
  });

  it('applies the same refusals as loadSkillDir', async () => {
    const error = await thrown(zipSkillDir(path.join(root, 'no-skill')));
    expect(error.code).toBe('NOT_FOUND');
  });

  // The server's add refuses a zip holding such a path (400 INVALID_ARGUMENT with this reason and
  // message): zipping refuses it first, as the server words it.
  const nested = (folders: number) => Array.from({ length: folders }, (_, i) => `d${i + 1}`).join('/');
  it.each([
    ['aux.py', 'windows_name', '"aux.py" is a device name Windows reserves'],
    ['notes: draft.md', 'windows_name', '"notes: draft.md" contains ":"'],
    ['COM1/readme.md', 'windows_name', '"COM1" is a device name'],
    ['draft.', 'windows_name', '"draft." ends with a dot or a space'],
    ['what?.md', 'windows_name', 'contains "?"'],
    ['bell\u0007.txt', 'control_character', 'control characters (NUL included) are not allowed'],
    ['a\\b.txt', 'backslash', 'backslashes are not allowed'],
    [`${nested(16)}/f.txt`, 'too_deep', 'nested 17 levels deep; the limit is 16'],
  ])('refuses a file %j as the server does (%s)', async (file, reason, message) => {
    if (process.platform === 'win32' && /[:?\\\u0007]|\.$/.test(file)) return; // no such file there
    const { dir, cleanup: done } = await tempDir('unsafe-path');
    try {
      await writeTree(dir, { 'SKILL.md': skillMd('unsafe-path'), 'ok.md': 'fine', [file]: 'x' });
      const error = await thrown(zipSkillDir(dir));
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.details).toEqual({ field: 'path', path: file, reason });
      expect(error.message.startsWith(`Unsafe file path ${JSON.stringify(file)}: `), error.message).toBe(
        true,
      );
      expect(error.message).toContain(message);
      // loadSkillDir reads what is there (it uploads nothing).
      expect((await loadSkillDir(dir)).files.map((f) => f.path)).toContain(file);
    } finally {
      await done();
    }
  });

  it('takes the depth limit of the server it uploads to (maxPathDepth), 16 by default', async () => {
    const { dir, cleanup: done } = await tempDir('path-depth');
    try {
      await writeTree(dir, { 'SKILL.md': skillMd('path-depth'), [`${nested(15)}/f.txt`]: 'x' });
      expect(Object.keys(unzipSync(await zipSkillDir(dir)))).toContain(`${nested(15)}/f.txt`);
      const error = await thrown(zipSkillDir(dir, { maxPathDepth: 4 }));
      expect(error.details).toEqual({ field: 'path', path: `${nested(15)}/f.txt`, reason: 'too_deep' });
      expect(error.message).toBe(
        `Unsafe file path "${nested(15)}/f.txt": nested 16 levels deep; the limit is 4`,
      );
      // A server that takes deeper paths: folders are walked as deep.
      await writeTree(dir, { [`${nested(20)}/g.txt`]: 'x' });
      expect(Object.keys(unzipSync(await zipSkillDir(dir, { maxPathDepth: 21 })))).toContain(
        `${nested(20)}/g.txt`,
      );
    } finally {
      await done();
    }
  });

  it('refuses a folder nested deeper than the walk goes as too_deep, naming the folder', async () => {
    const { dir, cleanup: done } = await tempDir('deep-folder');
    try {
      await writeTree(dir, { 'SKILL.md': skillMd('deep-folder'), [`${nested(17)}/f.txt`]: 'x' });
      const error = await thrown(zipSkillDir(dir));
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.details).toEqual({ field: 'path', path: `${nested(17)}/`, reason: 'too_deep' });
      expect(error.message).toBe(`Unsafe file path "${nested(17)}/": nested 17 levels deep; the limit is 16`);
      // A walk limit of the caller's own stays that limit.
      const own = await thrown(zipSkillDir(dir, { maxDepth: 2 }));
      expect(own.code).toBe('PAYLOAD_TOO_LARGE');
      expect(own.details).toMatchObject({ limit: 'maxDepth' });
    } finally {
      await done();
    }
  });
});

/** Each entry's Unix mode from a zip's central directory (host byte 3 = Unix, else null). */
function entryModes(zip: Uint8Array): Record<string, number | null> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let eocd = zip.length - 22;
  while (view.getUint32(eocd, true) !== 0x06054b50) eocd--;
  const out: Record<string, number | null> = {};
  let p = view.getUint32(eocd + 16, true);
  for (let i = 0; i < view.getUint16(eocd + 10, true); i++) {
    const nameLength = view.getUint16(p + 28, true);
    const name = new TextDecoder().decode(zip.subarray(p + 46, p + 46 + nameLength));
    out[name] = view.getUint8(p + 5) === 3 ? view.getUint32(p + 38, true) >>> 16 : null;
    p += 46 + nameLength + view.getUint16(p + 30, true) + view.getUint16(p + 32, true);
  }
  return out;
}

describe.skipIf(process.platform === 'win32')('executable files', () => {
  it('loadSkillDir says which files their owner may execute; zipSkillDir writes them 755, the rest 644', async () => {
    const dir = path.join(root, 'modes');
    await writeTree(dir, {
      'SKILL.md': skillMd('modes'),
      'scripts/run.sh': '#!/bin/sh\n',
      'scripts/owner.py': 'print(1)\n',
      'scripts/others.sh': '#!/bin/sh\n',
      'notes.md': '# Notes\n',
    });
    chmodSync(path.join(dir, 'scripts/run.sh'), 0o755);
    chmodSync(path.join(dir, 'scripts/owner.py'), 0o700);
    chmodSync(path.join(dir, 'scripts/others.sh'), 0o655);
    chmodSync(path.join(dir, 'notes.md'), 0o664);
    const loaded = await loadSkillDir(dir);
    expect(Object.fromEntries(loaded.files.map((f) => [f.path, f.executable]))).toEqual({
      'notes.md': false,
      'scripts/others.sh': false,
      'scripts/owner.py': true,
      'scripts/run.sh': true,
    });
    const modes = entryModes(await zipSkillDir(dir));
    expect(modes).toEqual({
      'SKILL.md': 0o100644,
      'notes.md': 0o100644,
      'scripts/others.sh': 0o100644,
      'scripts/owner.py': 0o100755,
      'scripts/run.sh': 0o100755,
    });
    // The same folder with other permissions but the same execute bits gives the same bytes.
    const first = await zipSkillDir(dir);
    chmodSync(path.join(dir, 'notes.md'), 0o600);
    chmodSync(path.join(dir, 'scripts/owner.py'), 0o755);
    expect(await zipSkillDir(dir)).toEqual(first);
  });
});
