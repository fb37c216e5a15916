/**
 * An add or update that uploads for its caller (a local folder or file, a Blob) releases that upload
 * when the server refuses the write, so refused inputs do not count toward the account's temp-upload
 * quota until they expire; an upload the caller made (and holds the id of) is kept for a retry.
 * Against a real server (the sync client runs this same code in its worker thread).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AsyncHTTPClient, isApiError } from '@skillport/sdk-node';
import { type RunningServer, startServer } from '@skillport/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

let server: RunningServer;
let client: AsyncHTTPClient;
let dir: string;

/** Bytes of unused, unexpired temp uploads the dev-mode account holds. */
async function heldUploadBytes(): Promise<number> {
  return (await server.store.accountUsage('default', Date.now())).tempUploadBytes;
}

function folder(name: string, skillMd: string): string {
  const at = path.join(dir, name);
  mkdirSync(at, { recursive: true });
  writeFileSync(path.join(at, 'SKILL.md'), skillMd);
  writeFileSync(path.join(at, 'notes.md'), 'Notes that make this a folder upload');
  return at;
}

const noFrontmatter = '# Just a heading\n\nNo frontmatter here.\n';
const valid = (name: string) => `---\nname: ${name}\ndescription: A skill named ${name}\n---\n\n# ${name}\n`;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-refused-upload-'));
  server = await startServer({ port: 0, dataDir: path.join(dir, 'data') });
  client = new AsyncHTTPClient({ url: server.url });
});
afterAll(async () => {
  client?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  expect(await heldUploadBytes()).toBe(0);
});

describe('a refused write from an upload the client made', () => {
  it('addSkill of a folder refused as SKILL_INVALID leaves no temp upload', async () => {
    const error = await client.addSkill(folder('no-frontmatter', noFrontmatter)).catch((e: unknown) => e);
    expect(isApiError(error) && error.code).toBe('SKILL_INVALID');
    expect(await heldUploadBytes()).toBe(0);
  });

  it('updateSkill of a folder holding another name (400) leaves no temp upload', async () => {
    await client.addSkill(valid('kept-name'));
    const error = await client
      .updateSkill('kept-name', folder('other-name', valid('other-name')))
      .catch((e: unknown) => e);
    expect(isApiError(error) && error.status).toBe(400);
    expect(await heldUploadBytes()).toBe(0);
  });

  it('addSkill of a Blob refused leaves no temp upload', async () => {
    const error = await client
      .addSkill(new Blob([noFrontmatter]), { filename: 'SKILL.md' })
      .catch((e: unknown) => e);
    expect(isApiError(error) && error.code).toBe('SKILL_INVALID');
    expect(await heldUploadBytes()).toBe(0);
  });

  it('is kept after a refused add, for a retry, until the caller releases it', async () => {
    const { temp_file_id } = await client.tempUpload(new TextEncoder().encode(noFrontmatter), {
      filename: 'SKILL.md',
    });
    const error = await client.addSkill({ temp_file_id }).catch((e: unknown) => e);
    expect(isApiError(error) && error.code).toBe('SKILL_INVALID');
    expect(await heldUploadBytes()).toBeGreaterThan(0);
    expect(await client.releaseTempUpload(temp_file_id)).toEqual({ temp_file_id, released: true });
    expect(await heldUploadBytes()).toBe(0);
    const again = await client.releaseTempUpload(temp_file_id).catch((e: unknown) => e);
    expect(isApiError(again) && again.code).toBe('NOT_FOUND');
  });
});
