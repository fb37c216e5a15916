/**
 * Three server processes (`node dist/main.js`) on one database, as replicas behind a load balancer:
 * four clients add (some through a temp upload made on another replica), update with `If-Match` and
 * delete across them round-robin, and contend on shared skills with read-modify-write updates; one
 * replica is SIGKILLed while it runs a job, and later another one is stopped (SIGSTOP) past its job
 * lease and resumed. Then: every acknowledged write is there byte for byte, no update was lost, every
 * job completed and its effect happened once (the overview comes from the replica that held the
 * lease), and no file content is orphaned.
 *
 * Jobs write their overview through an OpenAI-compatible chat server run by the test, which holds the
 * calls for `victim-*` skills: that is how a replica is caught in the middle of a job.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../src/store/types.js';
import { dropEngineData, engineEnv, openEngineStore, TEST_ENGINE } from './helpers/engine.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mainJs = path.join(serverDir, 'dist/main.js');

const REPLICAS = 3;
const CLIENTS = 4;
/** Skills each client owns: added, updated `UPDATES` times, the last `DELETES` deleted. */
const OWN = 8;
const UPDATES = 3;
const DELETES = 2;
/** Skills all clients append lines to (read, modify, `If-Match` write; retry on 412). */
const SHARED = 3;
const APPENDS = 4;
/** The first replica is killed once this share of the client operations is acknowledged. */
const KILL_AT = 1 / 3;
const LEASE_SECONDS = 2;
const USER_ROOT = 'viking://user/default/skills';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// The chat model: answers each call with an overview naming the call; holds the first call of each
// `victim-*` skill until the test lets it go.

interface HeldCall {
  skill: string;
  id: number;
  res: ServerResponse;
}

let chat: Server;
let chatUrl = '';
let nextCall = 1;
/** Call id → skill name, for every call answered. */
const answered = new Map<number, string>();
const held = new Map<string, HeldCall>();
const heldWaiters = new Map<string, () => void>();

function overviewText(skill: string, id: number, tag = ''): string {
  return `# ${skill} — overview\n\n${tag}LLM call ${id} for ${skill}.`;
}

function answer(res: ServerResponse, content: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content } }] }));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function startChat(): Promise<void> {
  chat = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as { messages: Array<{ content: string }> };
    const skill = /^Skill name: (.+)$/m.exec(body.messages.at(-1)?.content ?? '')?.[1] ?? '?';
    const id = nextCall++;
    if (skill.startsWith('victim-') && !held.has(skill)) {
      held.set(skill, { skill, id, res });
      heldWaiters.get(skill)?.();
      return;
    }
    answered.set(id, skill);
    answer(res, overviewText(skill, id));
  });
  return new Promise((resolve) => {
    chat.listen(0, '127.0.0.1', () => {
      chatUrl = `http://127.0.0.1:${(chat.address() as AddressInfo).port}/v1`;
      resolve();
    });
  });
}

function heldCall(skill: string): Promise<HeldCall> {
  const found = held.get(skill);
  if (found) return Promise.resolve(found);
  return new Promise((resolve) => {
    heldWaiters.set(skill, () => resolve(held.get(skill) as HeldCall));
  });
}

// ---------------------------------------------------------------------------------------------
// The replicas.

interface Replica {
  index: number;
  id: string;
  url: string;
  child: ChildProcess;
  exited: Promise<unknown>;
  /** Everything it printed (JSON log lines). */
  output: () => string;
  /** Killed or stopped: clients skip it. */
  down: boolean;
}

let dataDir: string;
const replicas: Replica[] = [];
let store: Store;

async function startReplica(index: number): Promise<Replica> {
  const id = `replica-${index}`;
  const child = spawn(process.execPath, [mainJs], {
    env: {
      ...process.env,
      SKILLPORT_DATA_DIR: dataDir,
      SKILLPORT_HOST: '127.0.0.1',
      SKILLPORT_PORT: '0',
      SKILLPORT_REPLICA_ID: id,
      SKILLPORT_JOB_LEASE_SECONDS: String(LEASE_SECONDS),
      SKILLPORT_SUMMARY_BASE_URL: chatUrl,
      SKILLPORT_SUMMARY_MODEL: 'replica-test-model',
      ...engineEnv(dataDir),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${id} did not start in 30 s: ${output}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.includes('"listening"'));
      if (line) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { url: string }).url);
      }
    });
    child.once('exit', (code) => reject(new Error(`${id} exited with ${code}: ${output}`)));
  });
  return { index, id, url, child, exited, output: () => output, down: false };
}

// ---------------------------------------------------------------------------------------------
// Clients.

interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field
  json: any;
}

let turn = 0;
/** The next live replica, round-robin. */
function nextReplica(): Replica {
  for (let k = 0; k < REPLICAS * 2; k++) {
    const replica = replicas[turn++ % REPLICAS];
    if (replica && !replica.down) return replica;
  }
  throw new Error('no live replica');
}

/** One request; null when the outcome is unknown (the replica died or hung mid-request). */
async function send(
  replica: Replica,
  method: string,
  urlPath: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply | null> {
  const init: RequestInit = { method, headers: { ...headers }, signal: AbortSignal.timeout(20_000) };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  try {
    const res = await fetch(`${replica.url}${urlPath}`, init);
    return { status: res.status, json: await res.json() };
  } catch {
    return null;
  }
}

/** A request that must be answered (through any live replica, retried while replicas go down). */
async function must(method: string, urlPath: string, body?: unknown): Promise<Reply> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const reply = await send(nextReplica(), method, urlPath, body);
    if (reply) return reply;
  }
  throw new Error(`${method} ${urlPath}: no replica answered`);
}

const md = (name: string, body: string) =>
  `---\nname: ${name}\ndescription: Written through several replicas at once\n---\n\n# ${name}\n\n${body}`;

/** What a client knows of a skill it owns: the last acknowledged state. */
interface Known {
  text: string | null;
  revision: string | null;
}

interface Ledger {
  /** Final expected state of every owned skill. */
  owned: Map<string, Known>;
  /** Task ids of acknowledged writes. */
  tasks: string[];
  /** Lines acknowledged as appended to shared skills (each must be there exactly once). */
  appended: Map<string, string[]>;
  /** Writes whose outcome is unknown (their replica went down mid-request). */
  unknown: number;
  acked: number;
}

const ledger: Ledger = { owned: new Map(), tasks: [], appended: new Map(), unknown: 0, acked: 0 };

/** After an unknown outcome: the stored state must be the old one or the attempted one; adopt it. */
async function resync(name: string, before: Known, attempted: string | null): Promise<Known> {
  ledger.unknown += 1;
  const res = await must('GET', `/api/v1/skills/${name}?include_content=true`);
  if (res.status === 404) {
    expect([before.text, attempted], `${name} vanished`).toContain(null);
    return { text: null, revision: null };
  }
  expect(res.status).toBe(200);
  const text = res.json.result.content as string;
  expect([before.text, attempted], `${name} holds a text nobody wrote`).toContain(text);
  return { text, revision: res.json.result.revision as string };
}

/** Adds a skill: as JSON, or (every other one) as a zip uploaded through one replica, added through the next. */
async function add(name: string, text: string, viaUpload: boolean): Promise<Known> {
  const before: Known = { text: null, revision: null };
  let body: unknown = { data: text };
  if (viaUpload) {
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(zipSync({ 'SKILL.md': new TextEncoder().encode(text) }))]),
      's.zip',
    );
    const up = await send(nextReplica(), 'POST', '/api/v1/resources/temp_upload', form);
    if (up === null) return resync(name, before, null);
    expect(up.status).toBe(200);
    body = { temp_file_id: up.json.result.temp_file_id };
  }
  const res = await send(nextReplica(), 'POST', '/api/v1/skills', body);
  if (res === null) return resync(name, before, text);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  ledger.tasks.push(res.json.result.task_id);
  ledger.acked += 1;
  return { text, revision: res.json.result.revision };
}

async function update(name: string, known: Known, text: string): Promise<Known> {
  const res = await send(
    nextReplica(),
    'PUT',
    `/api/v1/skills/${name}`,
    { data: text },
    {
      'if-match': `"${known.revision}"`,
    },
  );
  if (res === null) return resync(name, known, text);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  ledger.tasks.push(res.json.result.task_id);
  ledger.acked += 1;
  return { text, revision: res.json.result.revision };
}

async function remove(name: string, known: Known): Promise<Known> {
  const res = await send(nextReplica(), 'DELETE', `/api/v1/skills/${name}`, undefined, {
    'if-match': `"${known.revision}"`,
  });
  if (res === null) return resync(name, known, null);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  ledger.acked += 1;
  return { text: null, revision: null };
}

/** Appends `line` to a shared skill: read, modify, write with If-Match; on 412 read again. */
async function append(name: string, line: string): Promise<void> {
  for (;;) {
    const got = await must('GET', `/api/v1/skills/${name}?include_content=true`);
    expect(got.status).toBe(200);
    const text = got.json.result.content as string;
    if (text.includes(`\n${line}\n`)) {
      ledger.unknown += 1; // an earlier attempt with unknown outcome did land
      return;
    }
    const res = await send(
      nextReplica(),
      'PUT',
      `/api/v1/skills/${name}`,
      { data: `${text}${line}\n` },
      {
        'if-match': `"${got.json.result.revision}"`,
      },
    );
    if (res === null) continue; // unknown: the read above tells on the next round
    if (res.status === 412) continue; // another client won the race: read again
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    ledger.tasks.push(res.json.result.task_id);
    ledger.acked += 1;
    ledger.appended.get(name)?.push(line);
    return;
  }
}

async function client(c: number): Promise<void> {
  const names = Array.from({ length: OWN }, (_, i) => `c${c}-skill-${i}`);
  for (const [i, name] of names.entries()) {
    ledger.owned.set(name, await add(name, md(name, 'Version 0.\n'), i % 2 === 0));
  }
  for (let round = 1; round <= UPDATES; round++) {
    for (const name of names) {
      const known = ledger.owned.get(name) as Known;
      if (known.text === null) continue;
      ledger.owned.set(name, await update(name, known, md(name, `Version ${round}.\n`)));
    }
    for (let s = 0; s < SHARED; s++) await append(`shared-${s}`, `- c${c} line ${round}`);
  }
  for (let s = 0; s < SHARED; s++) {
    for (let k = UPDATES + 1; k <= APPENDS; k++) await append(`shared-${s}`, `- c${c} line ${k}`);
  }
  for (const name of names.slice(OWN - DELETES)) {
    const known = ledger.owned.get(name) as Known;
    if (known.text !== null) ledger.owned.set(name, await remove(name, known));
  }
}

// ---------------------------------------------------------------------------------------------

/** The replica holding a task's lease (by its SKILLPORT_REPLICA_ID). */
async function holderOf(taskId: string): Promise<Replica> {
  for (;;) {
    const task = await store.getTask('default', 'default', taskId);
    const replica = replicas.find((r) => r.id === task?.leaseOwner);
    if (task?.status === 'running' && replica) return replica;
    await sleep(20);
  }
}

beforeAll(async () => {
  if (!existsSync(mainJs)) throw new Error(`${mainJs} is missing: run \`pnpm build\` first`);
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'skillport-replicas-'));
  await startChat();
  for (let i = 0; i < REPLICAS; i++) replicas.push(await startReplica(i));
  store = openEngineStore(dataDir);
}, 120_000);

afterAll(async () => {
  for (const replica of replicas) {
    if (replica.child.exitCode === null && replica.child.signalCode === null) {
      replica.child.kill('SIGCONT');
      replica.child.kill('SIGKILL');
    }
    await replica.exited;
  }
  for (const call of held.values()) call.res.destroy();
  await store?.close();
  await new Promise((resolve) => chat?.close(resolve));
  if (dataDir) {
    await dropEngineData(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

describe(`${REPLICAS} replicas on one ${TEST_ENGINE} database`, () => {
  it('keep every acknowledged write, lose no update, run every job once, orphan no file', async () => {
    // Shared skills, and the first victim: its job is caught mid-way in the chat model.
    for (let s = 0; s < SHARED; s++) {
      const res = await must('POST', '/api/v1/skills', { data: md(`shared-${s}`, 'Lines:\n') });
      expect(res.status).toBe(200);
      ledger.tasks.push(res.json.result.task_id);
      ledger.appended.set(`shared-${s}`, []);
    }
    const victim = await must('POST', '/api/v1/skills', {
      data: md('victim-kill', 'Its job dies with its replica.\n'),
    });
    expect(victim.status).toBe(200);
    ledger.tasks.push(victim.json.result.task_id);
    const firstCall = await heldCall('victim-kill');
    const doomed = await holderOf(victim.json.result.task_id);

    // Four clients round-robin; the replica holding the victim's job is SIGKILLed part-way.
    const total = CLIENTS * (OWN + OWN * UPDATES + DELETES + SHARED * APPENDS);
    let killed = false;
    const watcher = (async () => {
      while (ledger.acked < total * KILL_AT) await sleep(5);
      doomed.down = true;
      doomed.child.kill('SIGKILL');
      killed = true;
    })();
    await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
    await watcher;
    expect(killed).toBe(true);
    await doomed.exited;
    expect(doomed.child.signalCode).toBe('SIGKILL');

    // Every job finishes (the victim's is taken over once its lease runs out), seen from any replica.
    const waited = await must('POST', '/api/v1/system/wait', { timeout: 60 });
    expect(waited.status, JSON.stringify(waited.json)).toBe(200);
    expect(waited.json.result).toMatchObject({ pending: 0, processing: 0, failed: 0 });

    // A replica stalled past its lease (SIGSTOP) loses the job to another; resumed, it writes nothing.
    const stallAdd = await must('POST', '/api/v1/skills', {
      data: md('victim-stall', 'Its first runner stalls.\n'),
    });
    expect(stallAdd.status).toBe(200);
    const stallTask = stallAdd.json.result.task_id as string;
    ledger.tasks.push(stallTask);
    const staleCall = await heldCall('victim-stall');
    const stalled = await holderOf(stallTask);
    stalled.down = true;
    stalled.child.kill('SIGSTOP');
    for (;;) {
      const task = await store.getTask('default', 'default', stallTask);
      if (task?.status === 'completed') break;
      await sleep(50);
    }
    stalled.child.kill('SIGCONT');
    answer(staleCall.res, overviewText('victim-stall', staleCall.id, 'STALE '));
    while (!stalled.output().includes('lease lost to another replica')) await sleep(20);
    stalled.down = false;

    // ---- checks ----
    const live = (await store.getSkill('default', USER_ROOT, 'victim-stall'))?.overview ?? '';
    expect(live).not.toContain('STALE');
    const stallCallId = Number(/LLM call (\d+)/.exec(live)?.[1]);
    expect(answered.get(stallCallId)).toBe('victim-stall');
    const killOverview = (await store.getSkill('default', USER_ROOT, 'victim-kill'))?.overview ?? '';
    expect(killOverview).toMatch(/LLM call \d+ for victim-kill/);
    expect(killOverview).not.toContain(`LLM call ${firstCall.id} `);

    // Every acknowledged write is there, byte for byte, at its revision.
    for (const [name, known] of ledger.owned) {
      const res = await must('GET', `/api/v1/skills/${name}?include_content=true`);
      if (known.text === null) {
        expect(res.status, name).toBe(404);
        continue;
      }
      expect(res.status, name).toBe(200);
      expect(res.json.result.content_sha256, name).toBe(sha256(known.text));
      expect(res.json.result.revision, name).toBe(known.revision);
    }
    // No lost update: every acknowledged line of every shared skill, each exactly once.
    for (const [name, lines] of ledger.appended) {
      const res = await must('GET', `/api/v1/skills/${name}?include_content=true`);
      const text = res.json.result.content as string;
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(text.split(`\n${line}\n`).length - 1, `${name}: ${line}`).toBe(1);
      const present = text.split('\n').filter((l) => l.startsWith('- c'));
      expect(new Set(present).size, name).toBe(present.length);
    }
    // Every job completed (none failed, none left), each skill's overview written by a lease holder's call.
    for (const taskId of ledger.tasks) {
      const res = await must('GET', `/api/v1/tasks/${taskId}`);
      expect(res.json.result.status, taskId).toBe('completed');
    }
    const { skills } = await store.listSkills('default', USER_ROOT, { limit: 1000 });
    expect(skills.length).toBe([...ledger.owned.values()].filter((k) => k.text !== null).length + SHARED + 2);
    for (const skill of skills) {
      const callId = Number(/LLM call (\d+) for /.exec(skill.overview ?? '')?.[1]);
      expect(answered.get(callId), skill.name).toBe(skill.name);
      const files = await store.listFiles(skill.id, { withContent: true });
      expect(files.map((f) => f.path).sort()).toEqual(['.abstract.md', '.overview.md', 'SKILL.md']);
      for (const file of files) {
        expect(
          createHash('sha256')
            .update(file.content ?? new Uint8Array())
            .digest('hex'),
        ).toBe(file.sha256);
      }
    }
    // No orphaned file contents: every stored blob is named by a live file or a revision, and back.
    const blobs = new Map<string, string>();
    const named = new Set<string>();
    let uploadsLeft = 0;
    for await (const record of store.exportRecords()) {
      if (record.type === 'blob')
        blobs.set(record.sha256, Buffer.from(record.content, 'base64').toString('utf8'));
      else if (record.type === 'skill') for (const f of record.files) named.add(f.sha256);
      else if (record.type === 'revision') for (const f of record.manifest) named.add(f.sha256);
      else if (record.type === 'temp_upload') uploadsLeft += 1;
    }
    expect([...named].filter((sha) => !blobs.has(sha))).toEqual([]);
    // Unnamed contents can only be L1 overviews of replaced versions (derived text, not history).
    const unnamed = [...blobs].filter(([sha]) => !named.has(sha)).map(([, text]) => text);
    expect(unnamed.filter((text) => !/^# \S+ — overview\n\nLLM call \d+ for /.test(text))).toEqual([]);
    expect(uploadsLeft).toBeLessThanOrEqual(ledger.unknown);
  }, 300_000);
});
