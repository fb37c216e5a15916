/**
 * The server's limits (`GET /api/v1/system/limits`) through both clients, and the CLI refusing a skill
 * folder or file too large for them before uploading it — against a real server with small limits, and
 * against an older server without the route (the upload then goes ahead as before).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { AsyncHTTPClient } from '@skillport/sdk-node';
import { SyncHTTPClient } from '@skillport/sdk-node/sync';
import { type RunningServer, startServer } from '@skillport/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAgainst } from './support/memory-io.js';
import { startCliServer } from './support/processes.js';

const KiB = 1024;
let server: RunningServer;
let dir: string;
let client: AsyncHTTPClient;
const paths: string[] = [];

const cli = (argv: string[], url = server.url) =>
  runCliAgainst(argv, { url, configHome: path.join(dir, 'cfg') });

/** A skill folder `name` with `files` auxiliary files of `bytes` random (incompressible) bytes each. */
function skillFolder(name: string, files: number, bytes: number): string {
  const folder = path.join(dir, name);
  mkdirSync(path.join(folder, 'assets'), { recursive: true });
  writeFileSync(
    path.join(folder, 'SKILL.md'),
    `---\nname: ${name}\ndescription: Limits test skill\n---\n\nBody.\n`,
  );
  for (let i = 0; i < files; i++)
    writeFileSync(path.join(folder, 'assets', `blob-${i}.bin`), randomBytes(bytes));
  return folder;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-limits-'));
  server = await startServer({
    port: 0,
    dataDir: path.join(dir, 'data'),
    runJobs: false,
    limits: { maxUploadBytes: 64 * KiB, maxFilesPerSkill: 10 },
    logger: {
      info: (record) => {
        if (record.msg === 'request') paths.push(String(record.path));
      },
      error: () => {},
    },
  });
  client = new AsyncHTTPClient({ url: server.url });
});
afterAll(async () => {
  client?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('GET /api/v1/system/limits', () => {
  it('both clients read the limits and the setting behind each', async () => {
    const limits = await client.getLimits();
    expect(limits).toMatchObject({
      max_upload_bytes: 64 * KiB,
      max_files_per_skill: 10,
      max_zip_entries: 1000,
    });
    expect(limits.settings.max_upload_bytes).toBe('SKILLPORT_MAX_UPLOAD_BYTES');
    expect(limits.settings.max_files_per_skill).toBe('SKILLPORT_MAX_FILES_PER_SKILL');
    // The synchronous client blocks this thread: its server runs in another process.
    const other = await startCliServer({ SKILLPORT_MAX_UPLOAD_BYTES: String(64 * KiB) });
    const sync = new SyncHTTPClient({ url: other.url });
    try {
      expect(sync.getLimits()).toMatchObject({
        max_upload_bytes: 64 * KiB,
        settings: { max_upload_bytes: 'SKILLPORT_MAX_UPLOAD_BYTES' },
      });
    } finally {
      sync.close();
      await other.stop();
    }
  });
});

describe('the CLI checks sizes before uploading', () => {
  it('a folder larger zipped than the upload limit is refused locally, naming the setting', async () => {
    const folder = skillFolder('too-big', 2, 48 * KiB);
    const before = paths.length;
    const { code, err } = await cli(['add-skill', folder]);
    expect(code).toBe(1);
    expect(err).toMatch(
      /too-big: \d+(\.\d)? KiB zipped, more than the server takes in one upload \(64 KiB\)/,
    );
    expect(err).toContain('nothing was uploaded');
    expect(err).toContain('SKILLPORT_MAX_UPLOAD_BYTES');
    // Only the limits were asked for: nothing was uploaded or added.
    expect(paths.slice(before)).toEqual(['/api/v1/system/limits']);
  });

  it('a folder with more files than a skill may hold is refused locally', async () => {
    const folder = skillFolder('many-files', 12, 10);
    const { code, err } = await cli(['add-skill', folder]);
    expect(code).toBe(1);
    expect(err).toContain('at most 8 besides SKILL.md');
    expect(err).toContain('SKILLPORT_MAX_FILES_PER_SKILL');
  });

  it('a file larger than the upload limit is refused before it is read; update checks too', async () => {
    const file = path.join(dir, 'big.zip');
    writeFileSync(file, randomBytes(80 * KiB));
    const added = await cli(['add-skill', file]);
    expect(added.code).toBe(1);
    expect(added.err).toContain('big.zip: 80 KiB, more than the server takes in one upload (64 KiB)');
    const updated = await cli(['skills', 'update', 'too-big', path.join(dir, 'too-big')]);
    expect(updated.code).toBe(1);
    expect(updated.err).toContain('SKILLPORT_MAX_UPLOAD_BYTES');
  });

  // On Linux a folder can hold `Ref.md` and `ref.md`; on macOS and Windows they are one file, so the
  // server refuses the upload (400 path_conflict): the CLI says so before uploading, and validate agrees.
  it('a folder with two files differing only in letter case is refused locally; validate agrees', async () => {
    const folder = skillFolder('case-clash', 0, 0);
    writeFileSync(path.join(folder, 'Ref.md'), 'one\n');
    writeFileSync(path.join(folder, 'ref.md'), 'two\n');
    const before = paths.length;
    const added = await cli(['add-skill', folder]);
    expect(added.code).toBe(1);
    expect(added.err).toContain('case-clash: "Ref.md" and "ref.md" differ only in letter case');
    expect(added.err).toContain('nothing was uploaded');
    expect(paths.slice(before)).toEqual(['/api/v1/system/limits']);
    const validated = await cli(['-o', 'json', 'skills', 'validate', folder]);
    expect(validated.code).toBe(1);
    const issues = (JSON.parse(validated.out) as { results: Array<{ errors: unknown[] }> }).results.flatMap(
      (r) => r.errors,
    );
    expect(issues).toContainEqual(
      expect.objectContaining({
        rule: 'path_conflict',
        severity: 'error',
        message: expect.stringContaining('"Ref.md" and "ref.md" differ only in letter case'),
      }),
    );
  });

  it('a folder within the limits is zipped here and added with its files', async () => {
    const folder = skillFolder('fits', 3, 4 * KiB);
    const { code, out, err } = await cli(['-o', 'json', 'add-skill', folder]);
    expect(code, err).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ name: 'fits', auxiliary_files: 3 });
  });

  it('a bulk add refuses the too-large folder in its row and adds the others', async () => {
    const parent = path.join(dir, 'bulk');
    mkdirSync(parent);
    const small = skillFolder('bulk-small', 1, 1 * KiB);
    const huge = skillFolder('bulk-huge', 2, 48 * KiB);
    for (const folder of [small, huge]) {
      const moved = path.join(parent, path.basename(folder));
      mkdirSync(moved);
      for (const entry of ['SKILL.md', 'assets'])
        renameSync(path.join(folder, entry), path.join(moved, entry));
    }
    const before = paths.length;
    const { code, out } = await cli(['-o', 'json', 'add-skill', parent]);
    expect(code).toBe(1);
    const rows = JSON.parse(out) as Array<{
      name: string;
      result: string;
      error?: { code: string; message: string };
    }>;
    const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect(byName['bulk-small']?.result).toBe('added');
    expect(byName['bulk-huge']).toMatchObject({ result: 'refused', error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(byName['bulk-huge']?.error?.message).toContain('SKILLPORT_MAX_UPLOAD_BYTES');
    // The limits were read once and only the small skill was uploaded.
    const asked = paths.slice(before);
    expect(asked.filter((p) => p === '/api/v1/system/limits')).toHaveLength(1);
    expect(asked.filter((p) => p === '/api/v1/resources/temp_upload')).toHaveLength(1);
  });

  it('against a server without the limits route, the upload goes ahead and the server decides', async () => {
    // An older server: 404 for the limits route, everything else passed to the real server.
    const older: Server = createServer(async (req, res) => {
      if (req.url?.startsWith('/api/v1/system/limits')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'error', error: { code: 'NOT_FOUND', message: 'Not found' } }));
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [key, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && key !== 'host' && key !== 'connection') headers.set(key, value);
      }
      const answer = await fetch(`${server.url}${req.url}`, {
        method: req.method ?? 'GET',
        headers,
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      res.writeHead(answer.status, {
        'content-type': answer.headers.get('content-type') ?? 'application/json',
      });
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((resolve) => older.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(older.address() as AddressInfo).port}`;
      const fits = await cli(['add-skill', skillFolder('fits-older', 1, 10)], url);
      expect(fits.code, fits.err).toBe(0);
      const before = paths.length;
      const big = await cli(['add-skill', path.join(dir, 'too-big')], url);
      expect(big.code).toBe(1);
      expect(big.err).not.toContain('nothing was uploaded');
      expect(big.err).toMatch(/413|too large|PAYLOAD_TOO_LARGE/i);
      expect(paths.slice(before)).toContain('/api/v1/resources/temp_upload');
    } finally {
      older.closeAllConnections();
      await new Promise((resolve) => older.close(resolve));
    }
  });
});

describe('a highly compressible 30 MB text file: validate, add and the server give one verdict', () => {
  let defaults: RunningServer;
  let raised: RunningServer;
  let folder: string;
  beforeAll(async () => {
    folder = path.join(dir, 'big-text');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      path.join(folder, 'SKILL.md'),
      '---\nname: big-text\ndescription: A skill with one very repetitive text file\n---\n\nBody.\n',
    );
    writeFileSync(path.join(folder, 'log.txt'), 'the same line of text, again and again\n'.repeat(800_000));
    defaults = await startServer({
      port: 0,
      dataDir: path.join(dir, 'data-defaults'),
      runJobs: false,
      logger: false,
    });
    raised = await startServer({
      port: 0,
      dataDir: path.join(dir, 'data-raised'),
      runJobs: false,
      logger: false,
      limits: { maxCompressionRatio: 100_000 },
    });
  });
  afterAll(async () => {
    await defaults?.close();
    await raised?.close();
  });

  it('the server refuses the upload as a zip bomb (the SDK sends it without a local check)', async () => {
    const sdk = new AsyncHTTPClient({ url: defaults.url });
    const error = await sdk.addSkill(folder).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect((error as Error).message).toMatch(/compression ratio above 200:1/);
    sdk.close();
  });

  it('skills validate (offline, default limits) refuses it, naming the limit and the setting', async () => {
    const res = await cli(['skills', 'validate', folder]);
    expect(res.code).toBe(1);
    expect(res.out).toMatch(
      /SKILL\.md(:\d+:\d+)? error upload_limit add would be refused by a server with default limits: log\.txt \(.*\) compresses \d+:1, more than 200:1.*max_compression_ratio 200, setting SKILLPORT_MAX_COMPRESSION_RATIO/,
    );
    // A folder within the limits still validates.
    expect((await cli(['skills', 'validate', skillFolder('small-enough', 2, KiB)])).code).toBe(0);
  });

  it('add-skill refuses it before uploading with the server limits, and adds it where they are raised', async () => {
    const refused = await cli(['add-skill', folder], defaults.url);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/compresses \d+:1, more than 200:1/);
    expect(refused.err).toMatch(/nothing was uploaded.*raise SKILLPORT_MAX_COMPRESSION_RATIO/);
    const sdk = new AsyncHTTPClient({ url: defaults.url });
    expect((await sdk.listSkills()).skills.map((s) => s.name)).not.toContain('big-text');
    sdk.close();
    const added = await cli(['add-skill', folder, '-o', 'json'], raised.url);
    expect(added.code, added.err).toBe(0);
    expect(JSON.parse(added.out)).toMatchObject({ name: 'big-text', auxiliary_files: 1 });
  });
});
