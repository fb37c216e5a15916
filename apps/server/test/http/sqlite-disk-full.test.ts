/**
 * Disk full: a SQLite data folder on a small tmpfs is filled by real uploads and adds. The write the
 * disk cannot take is answered 507 with a clear message and changes nothing; what was stored before
 * stays readable and the server keeps answering.
 *
 * Mounting needs root (CAP_SYS_ADMIN); without it the test is skipped with one line saying so.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

function tryMount(dir: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const mountPoint = mkdtempSync(path.join(tmpdir(), 'skillport-full-'));
const mounted = tryMount(mountPoint);
if (!mounted) {
  console.log('sqlite-disk-full: skipped — mounting a small tmpfs needs root (CAP_SYS_ADMIN)');
}

describe.skipIf(!mounted)('SQLite on a full disk', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ dataDir: mountPoint, limits: { maxUploadBytes: 4 * 1024 * 1024 } });
  });
  afterAll(async () => {
    await t?.close();
    execFileSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  test('the write that does not fit → 507 RESOURCE_EXHAUSTED storage_full, nothing changed; the rest keeps working', async () => {
    const md = (name: string) =>
      `---\nname: ${name}\ndescription: Fills the disk with a megabyte\n---\nbody\n`;
    const stored: string[] = [];
    let full: {
      status: number;
      json: { error: { code: string; message: string; details: unknown } };
    } | null = null;
    let refusedName = '';
    for (let i = 0; i < 12 && full === null; i++) {
      const name = `filler-${i}`;
      // Random bytes, stored uncompressed: each skill needs about a megabyte on disk (twice, WAL).
      const zip = zipSync(
        { 'SKILL.md': new TextEncoder().encode(md(name)), 'data.bin': randomBytes(1024 * 1024) },
        { level: 0 },
      );
      const form = new FormData();
      form.append('file', new Blob([zip]), `${name}.zip`);
      const up = await t.request('POST', '/api/v1/resources/temp_upload', { body: form });
      if (up.status !== 200) {
        full = up;
        refusedName = name;
        break;
      }
      const add = await t.request('POST', '/api/v1/skills', {
        body: { temp_file_id: up.json.result.temp_file_id },
      });
      if (add.status === 200) stored.push(name);
      else {
        full = add;
        refusedName = name;
      }
    }
    expect(full, 'the 6 MiB disk never filled up').not.toBeNull();
    expect(full?.status, JSON.stringify(full?.json)).toBe(507);
    expect(full?.json.error.code).toBe('RESOURCE_EXHAUSTED');
    expect(full?.json.error.details).toMatchObject({ reason: 'storage_full' });
    expect(full?.json.error.message).toMatch(/out of storage space.*nothing was changed/);
    expect(stored.length).toBeGreaterThan(0);

    // Nothing of the refused write is visible; every acknowledged one is intact.
    expect((await t.request('GET', `/api/v1/skills/${refusedName}`)).status).toBe(404);
    const list = await t.request('GET', '/api/v1/skills');
    expect(list.status, list.text).toBe(200);
    expect(list.json.result.skills.map((s: { name: string }) => s.name).sort()).toEqual([...stored].sort());
    for (const name of stored) {
      const got = await t.request('GET', `/api/v1/skills/${name}/files/data.bin`);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-length')).toBe(String(1024 * 1024));
    }
    expect((await t.request('GET', '/health')).status).toBe(200);
  });
});
