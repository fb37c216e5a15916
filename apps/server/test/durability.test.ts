/**
 * Crash durability of the real server process: acknowledged adds and folder uploads survive a SIGKILL
 * (uploads and adds posted together share the database's group commit), no skill is ever
 * half-written, and processing jobs left behind complete after a restart.
 *
 * Runs the built server (`node apps/server/dist/main.js`; `pnpm test` builds dist before vitest) on a
 * temp data folder with `SKILLPORT_DATA_DIR` and `SKILLPORT_PORT=0` (on PostgreSQL runs: a schema of
 * the throwaway cluster, through `SKILLPORT_DATABASE_URL`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeCorpus } from '../../../scripts/test-corpus.js';
import { dropEngineData, engineEnv, openEngineStore } from './helpers/engine.js';
import { corpusSkillTexts } from './store/corpus.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mainJs = path.join(serverDir, 'dist/main.js');

/** Acknowledged adds before the crash batch starts. */
const FIRST_BATCH = 200;
/** Names tried for the first batch (some corpus files are invalid on purpose and are refused). */
const FIRST_RANGE = 300;
const SECOND_BATCH = 300;
/** SIGKILL once this many adds of the second batch have been acknowledged. */
const KILL_AFTER_ACKS = 40;
const CONCURRENCY = 12;

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** Revision as the contract defines it: sha-256 of sorted `path\0sha256\n` lines (derived `.overview.md` excluded). */
function revisionOf(files: Array<{ path: string; sha256: string | null; is_dir: boolean }>): string {
  const lines = files
    .filter((f) => !f.is_dir && f.path !== '.overview.md')
    .map((f) => `${f.path}\0${f.sha256}\n`)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256').update(lines.join('')).digest('hex');
}

/** Rewrites the frontmatter `name:` line of a corpus SKILL.md to `dur-<i>`; null when the text has none. */
function renamed(text: string, name: string): string | null {
  const match = /^(\uFEFF?---[ \t]*\r?\n(?:(?!---)[^\r\n]*\r?\n)*?)name:[^\r\n]*/.exec(text);
  if (match === null) return null;
  return `${match[1]}name: ${name}${text.slice(match[0].length)}`;
}

interface Server {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

async function startServer(dataDir: string): Promise<Server> {
  const child = spawn(process.execPath, [mainJs], {
    env: {
      ...process.env,
      SKILLPORT_DATA_DIR: dataDir,
      SKILLPORT_PORT: '0',
      SKILLPORT_HOST: '127.0.0.1',
      ...engineEnv(dataDir),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(
      () => reject(new Error(`server did not start in 30 s; stderr: ${stderr}`)),
      30_000,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      for (const line of buffer.split('\n')) {
        if (!line.includes('"listening"')) continue;
        clearTimeout(timer);
        resolve((JSON.parse(line) as { url: string }).url);
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`server exited with ${code} before listening; stderr: ${stderr}`)),
    );
  });
  return { child, url, exited };
}

/** The parts of response results this test reads. */
interface ResultJson {
  name?: string;
  status?: string;
  revision?: string;
  content_sha256?: string;
  overview?: string;
  files?: Array<{ path: string; sha256: string | null; is_dir: boolean }>;
  skills?: Array<{ name: string }>;
  pending?: number;
  processing?: number;
  completed?: number;
  failed?: number;
}

async function call(
  url: string,
  method: string,
  urlPath: string,
  body?: unknown,
): Promise<{ status: number; json: { result: ResultJson } }> {
  const res = await fetch(`${url}${urlPath}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as { result: ResultJson } };
}

/** Runs `task(i)` for every i in [from, to) with bounded concurrency; stops starting new ones when `stop()`. */
async function pool(
  from: number,
  to: number,
  task: (i: number) => Promise<void>,
  stop: () => boolean,
): Promise<void> {
  let next = from;
  const worker = async () => {
    while (next < to && !stop()) await task(next++);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/**
 * Jobs are quick, so the kill rarely catches one. To make sure restart recovers them, commit a few
 * skills straight into the killed server's store (as a write that committed just before the crash)
 * and leave one job claimed (`running`, as if the process died while running it).
 *
 * @returns pending + running tasks of the dev user, and the texts written
 */
async function leaveUnfinishedJobs(dir: string): Promise<{ unfinished: number; texts: Map<string, string> }> {
  const store = openEngineStore(dir);
  const texts = new Map<string, string>();
  try {
    for (let k = 0; k < 3; k++) {
      const name = `dur-crash-${k}`;
      const description = `Written just before the crash (${k})`;
      const body = `# ${name}\n\n## Parameters\n\n- **k** (integer): ${k}\n`;
      const text = `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}`;
      texts.set(name, text);
      await store.putSkill({
        accountId: 'default',
        rootUri: 'viking://user/default/skills',
        name,
        description,
        tags: [],
        allowedTools: [],
        frontmatter: { name, description },
        body,
        sourceMetadata: null,
        files: [{ path: 'SKILL.md', kind: 'definition', content: new TextEncoder().encode(text) }],
        task: { type: 'add_skill', userId: 'default' },
      });
    }
    expect(await store.claimTask(Date.now(), { owner: 'crashed-process', leaseMs: 500 })).not.toBeNull();
    const counts = await store.queueCounts('default', 'default');
    return { unfinished: counts.pending + counts.processing, texts };
  } finally {
    await store.close();
  }
}

let dataDir: string;
const servers: Server[] = [];

beforeAll(() => {
  if (!existsSync(mainJs)) {
    throw new Error(`${mainJs} is missing: run \`pnpm --filter @skillport/server... build\` first`);
  }
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'skillport-durability-'));
});

afterAll(async () => {
  for (const server of servers) {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await server.exited;
  }
  if (dataDir) {
    await dropEngineData(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

describeCorpus('durability across SIGKILL', () => {
  it('keeps every acknowledged add, never a partial skill, and finishes jobs after restart', async () => {
    const corpus = corpusSkillTexts();
    const texts = new Map<string, string>();
    for (let i = 0; i < FIRST_RANGE + SECOND_BATCH; i++) {
      const source = corpus[i % corpus.length]!;
      const text = renamed(source.text, `dur-${i}`);
      if (text !== null) texts.set(`dur-${i}`, text);
    }
    expect(texts.size).toBeGreaterThan((FIRST_RANGE + SECOND_BATCH) / 2);

    const acked = new Map<string, { revision: string; sha: string }>();
    const refused: string[] = [];
    // Folder uploads acknowledged before the kill (temp_file_id → skill name): each must be usable after it.
    const uploads = new Map<string, string>();
    const upload = async (url: string, i: number): Promise<void> => {
      const name = `upl-${i}`;
      const text = renamed(corpus[i % corpus.length]!.text, name);
      if (text === null) return;
      const form = new FormData();
      const zip = zipSync({ [`${name}/SKILL.md`]: new TextEncoder().encode(text) });
      form.append('file', new Blob([zip], { type: 'application/zip' }), `${name}.zip`);
      const res = await fetch(`${url}/api/v1/resources/temp_upload`, { method: 'POST', body: form });
      const json = (await res.json()) as { result?: { temp_file_id?: string } };
      if (res.status === 200 && json.result?.temp_file_id) uploads.set(json.result.temp_file_id, name);
    };
    const add = async (url: string, i: number): Promise<void> => {
      const name = `dur-${i}`;
      const text = texts.get(name);
      if (text === undefined) return;
      const res = await call(url, 'POST', '/api/v1/skills', { data: text });
      if (res.status === 200) {
        expect(res.json.result).toMatchObject({ name, status: 'success' });
        acked.set(name, { revision: res.json.result.revision ?? '', sha: sha256(text) });
      } else {
        expect(res.status).toBe(400); // corpus files that are invalid on purpose
        refused.push(name);
      }
    };

    // First batch, acknowledged one by one (bounded concurrency).
    const first = await startServer(dataDir);
    servers.push(first);
    await pool(
      0,
      FIRST_RANGE,
      (i) => add(first.url, i),
      () => acked.size >= FIRST_BATCH,
    );
    const firstAcks = acked.size;
    expect(firstAcks).toBeGreaterThanOrEqual(FIRST_BATCH);

    // Second batch, killed in the middle.
    let killed = false;
    const secondStart = acked.size;
    const inFlightErrors: unknown[] = [];
    await pool(
      FIRST_RANGE,
      FIRST_RANGE + SECOND_BATCH,
      async (i) => {
        try {
          // Every third: a folder upload, so uploads and adds reach the database together.
          await (i % 3 === 0 ? upload(first.url, i) : add(first.url, i));
        } catch (error) {
          inFlightErrors.push(error); // the connection died with the process: outcome unknown
        }
        if (!killed && acked.size - secondStart >= KILL_AFTER_ACKS) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      },
      () => killed,
    );
    expect(killed).toBe(true);
    await first.exited;
    expect(first.child.signalCode).toBe('SIGKILL');
    const crash = await leaveUnfinishedJobs(dataDir);
    for (const [name, text] of crash.texts) texts.set(name, text);
    expect(crash.unfinished).toBeGreaterThanOrEqual(3);

    // Restart on the same data folder.
    const second = await startServer(dataDir);
    servers.push(second);

    // Every acknowledged add is there, byte for byte, at the acknowledged revision.
    for (const [name, expected] of acked) {
      const res = await call(second.url, 'GET', `/api/v1/skills/${name}?include_content=true`);
      expect(res.status, name).toBe(200);
      expect(res.json.result.content_sha256, name).toBe(expected.sha);
      expect(res.json.result.revision, name).toBe(expected.revision);
    }

    // No partial skill: every stored skill's files are exactly its revision's manifest, and its content
    // is the text that was sent for that name (acknowledged or not).
    const list = await call(second.url, 'GET', '/api/v1/skills?node_limit=10000');
    expect(list.status).toBe(200);
    const names = (list.json.result.skills ?? []).map((s) => s.name);
    expect(names.length).toBeGreaterThanOrEqual(acked.size);
    for (const name of names) {
      const res = await call(second.url, 'GET', `/api/v1/skills/${name}?include_content=true`);
      expect(res.status, name).toBe(200);
      expect(revisionOf(res.json.result.files ?? []), name).toBe(res.json.result.revision);
      expect(res.json.result.content_sha256, name).toBe(sha256(texts.get(name) ?? ''));
      expect((res.json.result.files ?? []).map((f) => f.path)).toContain('SKILL.md');
    }

    // Jobs left pending or running by the crash complete after restart.
    const waited = await call(second.url, 'POST', '/api/v1/system/wait', { timeout: 120 });
    expect(waited.status).toBe(200);
    expect(waited.json.result).toMatchObject({ pending: 0, processing: 0, failed: 0 });
    expect(waited.json.result.completed ?? -1).toBeGreaterThanOrEqual(names.length);
    for (const name of names) {
      const res = await call(second.url, 'GET', `/api/v1/skills/${name}?level=1`);
      expect(res.json.result.overview, name).toContain(`# ${name} — overview`);
    }

    // Every acknowledged upload is there (a lost one answers 404): a folder add from it succeeds, or is
    // refused 400 for a corpus file that is invalid on purpose.
    expect(uploads.size).toBeGreaterThan(0);
    let fromUploads = 0;
    for (const [id, name] of uploads) {
      const res = await call(second.url, 'POST', '/api/v1/skills', { temp_file_id: id });
      expect([200, 400], name).toContain(res.status);
      if (res.status === 200) {
        expect(res.json.result.name, name).toBe(name);
        fromUploads++;
      }
    }
    expect(fromUploads).toBeGreaterThan(0);

    console.info(
      `durability: ${uploads.size} acknowledged uploads, ${firstAcks} + ${acked.size - firstAcks} acknowledged adds, ${refused.length} refused (invalid corpus ` +
        `files), ${inFlightErrors.length} lost in flight, ${crash.unfinished} jobs unfinished at the kill, ` +
        `${names.length} skills after restart`,
    );
  }, 120_000);
});
