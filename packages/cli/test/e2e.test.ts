/**
 * End to end through the BUILT `skillport` binary against a real server (`skillport serve`, SQLite in
 * a temp folder, port 0): every corpus skill folder and MCP tool is added, then list, find, show,
 * update, remove and validate are checked against what core says about the corpus files.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AsyncHTTPClient } from '@skillport/sdk-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeCorpus } from '../../../scripts/test-corpus.js';
import {
  corpusDir,
  expectedFinalState,
  type McpCase,
  mcpCases,
  PARAPHRASES,
  type SkillCase,
  sha256,
  skillCases,
} from './support/corpus.js';
import { type CliRun, mapLimit, type RunningCliServer, runBin, startCliServer } from './support/processes.js';

interface WriteResult {
  name: string;
  uri: string;
  revision: string;
  auxiliary_files: number;
}
interface ErrorOut {
  status: 'error';
  error: { code: string; message: string; details?: Record<string, unknown> };
  exit_code: number;
}
interface GetResult {
  name: string;
  content: string;
  revision: string;
  files: Array<{ path: string; kind: string; sha256: string | null; is_dir: boolean }>;
}

let server: RunningCliServer;
let skills: SkillCase[];
let tools: McpCase[];
const addRuns = new Map<string, CliRun>();
const cli = (args: string[], input?: string) => runBin(server, args, input === undefined ? {} : { input });

/** Batches so that adds of one name run in corpus order (later ones replace earlier ones). */
function batchesByName<T extends { name: string | null }>(items: T[]): T[][] {
  const seen = new Map<string, number>();
  const batches: T[][] = [];
  for (const item of items) {
    const round = item.name === null ? 0 : (seen.get(item.name) ?? 0);
    if (item.name !== null) seen.set(item.name, round + 1);
    const batch = batches[round] ?? [];
    batch.push(item);
    batches[round] = batch;
  }
  return batches;
}

beforeAll(async () => {
  [skills, tools] = [await skillCases(), mcpCases()];
  server = await startCliServer();
  for (const batch of batchesByName(skills)) {
    await mapLimit(batch, 4, async (skill) => {
      addRuns.set(skill.id, await cli(['add-skill', skill.dir, '-o', 'json']));
    });
  }
  for (const batch of batchesByName(tools)) {
    await mapLimit(batch, 4, async (tool) => {
      addRuns.set(tool.id, await cli(['skills', 'add', tool.file, '-o', 'json']));
    });
  }
  const waited = await cli(['wait', '--timeout', '60', '-o', 'json']);
  expect(waited.code, waited.stderr).toBe(0);
}, 240_000);

afterAll(async () => {
  await server?.stop();
});

describeCorpus('skillport add-skill (every corpus folder, as folders)', () => {
  it('accepts exactly the folders core calls valid, with their auxiliary files', () => {
    for (const skill of skills.filter((s) => s.refusal === null)) {
      const run = addRuns.get(skill.id)!;
      expect(run.code, `${skill.id}: ${run.stderr}`).toBe(0);
      const result = run.json<WriteResult>();
      expect(result.name, skill.id).toBe(skill.name);
      expect(result.auxiliary_files, skill.id).toBe(skill.auxiliary.size);
    }
  });

  it('refuses the others with the expected code, exit status 1 and the server message', () => {
    const refused = skills.filter((s) => s.refusal !== null);
    expect(refused.length).toBeGreaterThan(5);
    for (const skill of refused) {
      const run = addRuns.get(skill.id)!;
      expect(run.code, skill.id).toBe(1);
      expect(run.stdout.length, `${skill.id} printed on stdout`).toBe(0);
      const error = JSON.parse(run.stderr) as ErrorOut;
      expect(error.error.code, `${skill.id}: ${error.error.message}`).toBe(skill.refusal);
      expect(error.error.message.length).toBeGreaterThan(10);
      if (skill.refusal === 'SKILL_INVALID') expect(Array.isArray(error.error.details?.issues)).toBe(true);
      if (skill.refusal === 'INVALID_ARGUMENT')
        expect(error.error.details?.field, skill.id).toBe(skill.refusalField);
    }
  });

  it('adds every MCP tool as a skill named after the tool', () => {
    for (const tool of tools) {
      const run = addRuns.get(tool.id)!;
      expect(run.code, `${tool.id}: ${run.stderr}`).toBe(0);
      expect(run.json<WriteResult>().name).toBe(tool.name);
    }
  });
});

describeCorpus('skillport skills list', () => {
  it('lists one skill per distinct accepted name', async () => {
    const expected = expectedFinalState(skills, tools);
    const run = await cli(['skills', 'list', '-o', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const listed = run.json<{ skills: Array<{ name: string }>; total: number; root_uris: string[] }>();
    expect(listed.total).toBe(expected.size);
    expect(listed.skills.map((s) => s.name).sort()).toEqual([...expected.keys()].sort());
    expect(listed.root_uris).toContain('viking://agent/skills');
  });

  it('prints a table with a header and a count', async () => {
    const run = await cli(['skills', 'list']);
    expect(run.code).toBe(0);
    const lines = run.stdout.toString('utf8').trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+SCOPE\s+UPDATED\s+TAGS\s+DESCRIPTION$/);
    expect(lines.at(-1)).toBe(`${expectedFinalState(skills, tools).size} skills`);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(160 * 2);
  });

  it('says how many of how many when --limit cuts the list', async () => {
    const run = await cli(['skills', 'list', '--limit', '3']);
    expect(run.code).toBe(0);
    const lines = run.stdout.toString('utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(1 + 3 + 1);
    expect(lines.at(-1)).toBe(`3 of ${expectedFinalState(skills, tools).size} skills (--limit to see more)`);
  });
});

describeCorpus('skillport skills find', () => {
  it.each(PARAPHRASES)('finds %s in the top 3 for a paraphrase of its description', async (name, query) => {
    const run = await cli(['skills', 'find', query, '--limit', '3', '-o', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const found = run.json<{ skills: Array<{ name: string; score: number }> }>().skills;
    expect(
      found.map((s) => s.name),
      query,
    ).toContain(name);
    const scores = found.map((s) => s.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });
});

describeCorpus('skillport skills show', () => {
  it('returns byte-identical SKILL.md and the same auxiliary files (sha-256) for every stored folder', async () => {
    const finals = [...expectedFinalState(skills, tools).values()].filter((c): c is SkillCase => 'dir' in c);
    expect(finals.length).toBeGreaterThan(40);
    await mapLimit(finals, 4, async (skill) => {
      // `--` because some names start with a hyphen (`-21risk-automation`).
      const run = await cli(['skills', 'show', '-o', 'json', '--', skill.name!]);
      expect(run.code, run.stderr).toBe(0);
      const got = run.json<GetResult>();
      if (skill.utf8)
        expect(Buffer.from(got.content, 'utf8').equals(Buffer.from(skill.skillMd)), skill.id).toBe(true);
      else expect(got.content, skill.id).toBe(skill.text);
      const definition = got.files.find((f) => f.kind === 'definition');
      expect(definition?.sha256, skill.id).toBe(sha256(skill.skillMd));
      const auxiliary = new Map(
        got.files.filter((f) => f.kind === 'auxiliary').map((f) => [f.path, f.sha256]),
      );
      expect(auxiliary, skill.id).toEqual(skill.auxiliary);
    });
  }, 180_000); // one CLI process per stored skill: a busy 2-core machine needs more than the default

  it('prints the raw SKILL.md in table mode (CRLF and BOM kept)', async () => {
    const crlf = skills.find((s) => s.id.startsWith('022-'))!;
    const run = await cli(['skills', 'show', crlf.name!]);
    expect(run.code).toBe(0);
    expect(run.stdout.equals(Buffer.from(crlf.skillMd))).toBe(true);
  });

  it('exits 1 with NOT_FOUND for an unknown skill', async () => {
    const run = await cli(['skills', 'show', 'no-such-skill']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/NOT_FOUND, HTTP 404/);
  });
});

describeCorpus('skillport skills update and remove', () => {
  it('replaces a skill from stdin, then removes it', async () => {
    const before = (await cli(['skills', 'show', 'linear', '-o', 'json'])).json<GetResult>();
    const content =
      '---\nname: linear\ndescription: Track work in Linear, updated\n---\n\n# Linear\n\nUpdated body.\n';
    const updated = await cli(['skills', 'update', 'linear', '-', '--wait', '-o', 'json'], content);
    expect(updated.code, updated.stderr).toBe(0);
    const result = updated.json<WriteResult & { action: string }>();
    expect(result.action).toBe('update');
    expect(result.revision).not.toBe(before.revision);
    const after = await cli(['skills', 'show', 'linear']);
    expect(after.stdout.toString('utf8')).toBe(content);
    const mismatch = await cli(['skills', 'update', 'linear', '---\nname: other\ndescription: x y z\n---\n']);
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toMatch(/INVALID_ARGUMENT/);

    const removed = await cli(['skills', 'remove', 'linear', '-o', 'json']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.json<{ name: string }>().name).toBe('linear');
    expect((await cli(['skills', 'show', 'linear'])).code).toBe(1);
    const listed = (await cli(['skills', 'list', '-o', 'json'])).json<{ total: number }>();
    expect(listed.total).toBe(expectedFinalState(skills, tools).size - 1);
  });
});

describeCorpus('skillport skills validate (local) agrees with POST /skills/validate', () => {
  it('gives the same verdict, errors and warnings for every corpus file', async () => {
    const run = await cli(['skills', 'validate', path.join(corpusDir(), 'skills'), '-o', 'json']);
    expect(run.code).toBe(1);
    const local = run.json<{
      results: Array<{
        file: string;
        dir_name: string;
        valid: boolean;
        errors: Array<{ rule: string; line?: number }>;
        warnings: Array<{ rule: string; line?: number }>;
      }>;
      summary: { files: number; invalid: number };
    }>();
    expect(local.summary.files).toBe(skills.length);
    // Bytes that are not UTF-8 are refused by add before parsing, so local validate calls them invalid;
    // so is a second skill of one name (add-skill of the folder refuses it: it would replace the first).
    const duplicates = local.results.filter((r) => r.errors.some((i) => i.rule === 'name_duplicate'));
    expect(duplicates.map((r) => path.basename(path.dirname(r.file)))).toEqual([
      '002-anthropics-claude-api-historic-yaml-error',
    ]);
    expect(local.summary.invalid).toBe(
      skills.filter((s) => s.refusal === 'SKILL_INVALID' || !s.utf8).length + duplicates.length,
    );
    const client = new AsyncHTTPClient({ url: server.url });
    // The only server-side rule: one-line text that looks like a host path gets a `host_path` error
    // (the server takes content or uploads, not paths). Core cannot know that a file was meant as
    // text, so that issue is set aside — and such a file must be invalid locally as well.
    // Locally, the byte checks add makes first (`invalid_utf8`, `nul_byte`) are set aside the same way:
    // the server's validate only ever sees decoded text.
    let hostPathFiles = 0;
    const setAside = new Set(['host_path', 'invalid_utf8', 'nul_byte', 'name_duplicate']);
    const shape = (issues: Array<{ rule: string; line?: number }>) =>
      issues.filter((i) => !setAside.has(i.rule)).map((i) => `${i.rule}@${i.line ?? '-'}`);
    await mapLimit(local.results, 4, async (result) => {
      const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(
        readFileSync(path.resolve(result.file)),
      );
      const remote = await client.validateSkill(text, { skill_dir_name: result.dir_name });
      if (remote.errors.some((i) => i.rule === 'host_path')) {
        hostPathFiles += 1;
        expect(result.valid, result.file).toBe(false);
      }
      const byteRefused = result.errors.some((i) => setAside.has(i.rule) && i.rule !== 'host_path');
      expect(remote.valid && !byteRefused, result.file).toBe(result.valid);
      expect(shape(remote.errors), result.file).toEqual(shape(result.errors));
      expect(shape(remote.warnings), result.file).toEqual(shape(result.warnings));
    });
    expect(hostPathFiles).toBeLessThanOrEqual(1);
  });

  it('prints file:line:col severity rule message lines and exits 0 on a valid skill', async () => {
    const bad = await cli([
      'skills',
      'validate',
      path.join(corpusDir(), 'skills', '046-pi-fixture-invalid-yaml'),
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stdout.toString('utf8')).toMatch(/SKILL\.md:\d+:\d+ error yaml_format /);
    const good = await cli([
      'skills',
      'validate',
      path.join(corpusDir(), 'skills', '007-openai-linear'),
      '--no-dir-name',
    ]);
    expect(good.code, good.stdout.toString('utf8')).toBe(0);
    expect(good.stderr).toMatch(/1 file checked: 1 valid/);
  });
});

describeCorpus('skillport queue, tasks and errors', () => {
  it('reports queue counts and a task', async () => {
    const queue = (await cli(['observer', 'queue', '-o', 'json'])).json<{
      pending: number;
      completed: number;
    }>();
    expect(queue.pending).toBe(0);
    expect(queue.completed).toBeGreaterThan(0);
    const added = await cli([
      'add-skill',
      '---\nname: task-probe\ndescription: A probe for tasks\n---\n\nBody\n',
      '-o',
      'json',
    ]);
    const taskId = added.json<{ task_id: string }>().task_id;
    const task = await cli(['task', taskId, '-o', 'json']);
    expect(task.code, task.stderr).toBe(0);
    expect(task.json<{ task_id: string; task_type: string }>()).toMatchObject({
      task_id: taskId,
      task_type: 'add_skill',
    });
  });

  it('exits 2 with a network error when no server answers', async () => {
    const run = await runBin({ url: 'http://127.0.0.1:9', configHome: server.configHome }, [
      'skills',
      'list',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/cannot reach the Skillport server at http:\/\/127\.0\.0\.1:9/);
  });

  it('exits 1 on a usage error', async () => {
    const run = await cli(['skills', 'find']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/missing required argument/);
  });
});

describeCorpus('skillport add-skill with a tools/list document', () => {
  it('adds each tool and reports the refused ones, exiting 1', async () => {
    const file = path.join(server.configHome, 'tools.json');
    const picked = tools.slice(0, 3).map((t) => t.tool);
    const broken = {
      name: '???',
      description: 'A tool whose name has no usable character',
      inputSchema: { type: 'object' },
    };
    writeFileSync(file, JSON.stringify({ tools: [...picked, broken] }));
    const run = await cli(['add-skill', file, '--target', 'viking://agent/skills', '-o', 'json']);
    expect(run.code, run.stderr).toBe(1);
    const outcomes =
      run.json<Array<{ tool: string; name?: string; error?: { code: string; message: string } }>>();
    expect(outcomes.slice(0, 3).map((o) => o.name)).toEqual(tools.slice(0, 3).map((t) => t.name));
    expect(outcomes[3]).toMatchObject({
      tool: '???',
      error: { code: expect.stringMatching(/^(INVALID_ARGUMENT|SKILL_INVALID)$/) },
    });
    const agent = (await cli(['skills', 'list', '--target', 'viking://agent/skills', '-o', 'json'])).json<{
      total: number;
    }>();
    expect(agent.total).toBe(3);
  });
});

describeCorpus('skillport keys (last: the first key ends dev mode)', () => {
  it('creates an admin key (shown once), then with it creates, lists and revokes another', async () => {
    const created = await cli(['keys', 'create', '--user', 'e2e-alice', '--role', 'admin', '-o', 'json']);
    expect(created.code, created.stderr).toBe(0);
    const admin = created.json<{ key_id: string; api_key: string; user_id: string; role: string }>();
    expect(admin).toMatchObject({ user_id: 'e2e-alice', role: 'admin' });
    expect(admin.api_key.length).toBeGreaterThan(20);

    const anonymous = await cli(['skills', 'list']);
    expect(anonymous.code).toBe(1);
    expect(anonymous.stderr).toMatch(/UNAUTHENTICATED, HTTP 401/);

    const withKey = (args: string[]) => cli([...args, '--api-key', admin.api_key]);
    const second = (await withKey(['keys', 'create', '--user', 'e2e-bob', '-o', 'json'])).json<{
      key_id: string;
      api_key: string;
    }>();
    const listed = (await withKey(['keys', 'list', '-o', 'json'])).json<{
      keys: Array<{ key_id: string }>;
    }>();
    expect(listed.keys.map((k) => k.key_id)).toEqual(expect.arrayContaining([admin.key_id, second.key_id]));
    expect(JSON.stringify(listed)).not.toContain(admin.api_key);
    const revoked = await withKey(['keys', 'revoke', second.key_id]);
    expect(revoked.stdout.toString('utf8')).toBe(`revoked ${second.key_id}\n`);
    const after = (await withKey(['keys', 'list', '-o', 'json'])).json<{
      keys: Array<{ key_id: string; revoked_at: string | null }>;
    }>();
    expect(after.keys.find((k) => k.key_id === second.key_id)?.revoked_at).not.toBeNull();
    const refused = await cli(['skills', 'list', '--api-key', second.api_key]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/UNAUTHENTICATED/);
  });
});
