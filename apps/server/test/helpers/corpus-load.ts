/**
 * Loading the shared corpus into a running server the way users do: every skill folder zipped and
 * uploaded (auxiliary files included) and every MCP tool added as data, then a few updates (history)
 * and deletes. Used by the tests that move or share a whole database.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { zipSync } from 'fflate';

/**
 * The corpus folder (`SKILLPORT_CORPUS`, else `../shared/corpus` beside the repository), or null when
 * it is not there. Under `CI=true` a missing corpus is an error, not a skip.
 */
export function findCorpus(): string | null {
  const repoRoot = path.resolve(import.meta.dirname, '../../../..');
  const dir = process.env.SKILLPORT_CORPUS ?? path.resolve(repoRoot, '../shared/corpus');
  if (existsSync(path.join(dir, 'skills')) && existsSync(path.join(dir, 'mcp'))) return dir;
  if (process.env.CI === 'true')
    throw new Error(`corpus not found at ${dir} (CI=true): set SKILLPORT_CORPUS`);
  return null;
}

/** Every file of a folder by relative POSIX path. */
function readFolder(dir: string): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile()) files[p] = readFileSync(path.join(dir, p));
    }
  };
  walk('');
  return files;
}

async function call(
  base: string,
  apiKey: string | undefined,
  method: string,
  urlPath: string,
  body?: unknown,
): Promise<{ status: number; json: { result?: Record<string, unknown> } }> {
  const headers: Record<string, string> = apiKey ? { 'x-api-key': apiKey } : {};
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${base}${urlPath}`, { method, headers, ...(payload ? { body: payload } : {}) });
  return { status: res.status, json: (await res.json()) as { result?: Record<string, unknown> } };
}

/** What {@link loadCorpus} stored. */
export interface LoadedCorpus {
  /** Names added to `viking://agent/skills` (folders and MCP tools), each once. */
  added: string[];
  /** Acknowledged writes (adds, an add replacing a same-named skill, updates): one history entry each. */
  writes: number;
  /** Names updated once after adding (two revisions in history). */
  updated: string[];
  /** Names deleted after adding (history kept, skill gone). */
  deleted: string[];
  /**
   * Temp uploads whose add was refused: the server keeps such an upload (until it expires) so the
   * add can be retried with it.
   */
  keptUploads: number;
}

/**
 * Adds every valid corpus skill folder (zip upload) and MCP tool to the shared root, updates the first
 * `updates` of them (a changed body) and deletes the next `deletes`. Invalid corpus entries (there on
 * purpose) are refused by the server and skipped.
 *
 * @param base - server URL
 * @param corpus - the corpus folder ({@link findCorpus})
 * @param options.apiKey - key to send (none in dev mode)
 */
export async function loadCorpus(
  base: string,
  corpus: string,
  options: { apiKey?: string; updates?: number; deletes?: number } = {},
): Promise<LoadedCorpus> {
  const apiKey = options.apiKey;
  const names = new Set<string>();
  let writes = 0;
  let keptUploads = 0;
  const skillsDir = path.join(corpus, 'skills');
  for (const folder of readdirSync(skillsDir).sort()) {
    const files = readFolder(path.join(skillsDir, folder));
    if (!files['SKILL.md']) continue;
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(zipSync(files))]), `${folder}.zip`);
    const up = await call(base, apiKey, 'POST', '/api/v1/resources/temp_upload', form);
    if (up.status !== 200) throw new Error(`temp upload of ${folder} answered ${up.status}`);
    const res = await call(base, apiKey, 'POST', '/api/v1/skills', {
      temp_file_id: up.json.result?.temp_file_id,
      target_uri: 'viking://agent/skills',
    });
    if (res.status === 200) {
      names.add(String(res.json.result?.name));
      writes++;
    } else {
      keptUploads++;
    }
  }
  const mcpDir = path.join(corpus, 'mcp');
  for (const file of readdirSync(mcpDir).sort()) {
    if (!file.endsWith('.json')) continue;
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(path.join(mcpDir, file), 'utf8'));
    } catch {
      continue;
    }
    const res = await call(base, apiKey, 'POST', '/api/v1/skills', {
      data,
      target_uri: 'viking://agent/skills',
    });
    if (res.status === 200) {
      names.add(String(res.json.result?.name));
      writes++;
    }
  }
  const added = [...names];
  const updated = added.slice(0, options.updates ?? 10);
  for (const name of updated) {
    const text = `---\nname: ${name}\ndescription: Updated copy of ${name}\n---\n\n# ${name}\n\nSecond revision.\n`;
    const res = await call(base, apiKey, 'PUT', `/api/v1/skills/${name}`, {
      data: text,
      target_uri: 'viking://agent/skills',
    });
    if (res.status !== 200) throw new Error(`update of ${name} answered ${res.status}`);
    writes++;
  }
  const deleted = added.slice(updated.length, updated.length + (options.deletes ?? 3));
  for (const name of deleted) {
    const res = await call(base, apiKey, 'DELETE', `/api/v1/skills/${name}?target_uri=viking://agent/skills`);
    if (res.status !== 200) throw new Error(`delete of ${name} answered ${res.status}`);
  }
  const wait = await call(base, apiKey, 'POST', '/api/v1/system/wait', { timeout: 120 });
  if (wait.status !== 200) throw new Error(`wait answered ${wait.status}`);
  return { added, writes, updated, deleted, keptUploads };
}
