import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fromMcpTool, isValidSkillName, type McpTool, toMcpTool, validateSkill } from '@skillport/core';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { describeCorpus, findCorpus } from '../../../../scripts/test-corpus.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { buildZip } from '../helpers/zip-builder.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

async function upload(bytes: Uint8Array, filename = 'skill.zip'): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), filename);
  const res = await t.request('POST', '/api/v1/resources/temp_upload', { body: form });
  expect(res.status, res.text).toBe(200);
  expect(res.json.status).toBe('ok');
  return res.json.result.temp_file_id;
}

async function content(name: string, query = ''): Promise<string> {
  const res = await t.request('GET', `/api/v1/skills/${name}?include_content=true${query}`);
  expect(res.status, res.text).toBe(200);
  return res.json.result.content;
}

const MCP_EXPECTED = `---
name: search-web
description: Search the web
---

# search-web

Search the web

## Parameters

- **query** (string) (required): Search query
- **limit** (integer) (optional): Max results

## Usage

This tool wraps the MCP tool \`search-web\`. Call this when the user needs functionality matching the description above.
`;

describe('POST /api/v1/skills — the four request forms', () => {
  test('1. structured object with wait=true → queue_status, SKILL.md serialised', async () => {
    const res = await t.request('POST', '/api/v1/skills', {
      body: {
        data: {
          name: 'search-web',
          description: 'Search the web for current information',
          content:
            '# search-web\n\nSearch the web for current information.\n\n## Parameters\n- **query** (string, required): Search query\n- **limit** (integer, optional): Max results, default 10',
        },
        wait: true,
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result).toMatchObject({
      status: 'success',
      name: 'search-web',
      uri: 'viking://user/default/skills/search-web',
      root_uri: 'viking://user/default/skills/search-web',
      auxiliary_files: 0,
      replaced: false,
      queue_status: { pending: 0, processing: 0, completed: 1, failed: 0 },
    });
    expect(res.json.result.task_id).toBeUndefined();
    expect(typeof res.json.time).toBe('number');
    const text = await content('search-web');
    expect(text.startsWith('---\n')).toBe(true);
    expect(text).toContain('name: search-web');
    expect(text).toContain('## Parameters');
  });

  test('2. SKILL.md text → stored byte for byte, task_id when not waiting', async () => {
    const md = '---\nname: my-skill\ndescription: My custom skill\n---\n\n# My Skill\n\nSkill content here.';
    const res = await t.request('POST', '/api/v1/skills', { body: { data: md } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result.name).toBe('my-skill');
    expect(typeof res.json.result.task_id).toBe('string');
    expect(res.json.result.queue_status).toBeUndefined();
    expect(res.json.result.warnings.map((w: { rule: string }) => w.rule)).toContain('description_too_short');
    expect(await content('my-skill')).toBe(md);
  });

  test('3. MCP tool → skill `calculator`', async () => {
    const res = await t.request('POST', '/api/v1/skills', {
      body: {
        data: {
          name: 'calculator',
          description: 'Perform mathematical calculations',
          inputSchema: {
            type: 'object',
            properties: {
              expression: { type: 'string', description: 'Mathematical expression to evaluate' },
            },
            required: ['expression'],
          },
        },
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result.name).toBe('calculator');
    const text = await content('calculator');
    expect(text).toContain('- **expression** (string) (required): Mathematical expression to evaluate');
  });

  test('MCP example of the contract: SKILL.md exactly as specified', async () => {
    const res = await t.request('POST', '/api/v1/skills', {
      body: {
        data: {
          name: 'search-web',
          description: 'Search the web',
          inputSchema: {
            type: 'object',
            properties: {
              query: { type: 'string', description: 'Search query' },
              limit: { type: 'integer', description: 'Max results' },
            },
            required: ['query'],
          },
        },
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result.name).toBe('search-web');
    expect(await content('search-web')).toBe(MCP_EXPECTED);
  });

  test('3b. the tool search_web gives the contract text byte for byte; its own name is kept in source', async () => {
    const tool = {
      name: 'search_web',
      description: 'Search the web',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Search query' },
          limit: { type: 'integer', description: 'Max results' },
        },
        required: ['query'],
      },
    };
    const res = await t.request('POST', '/api/v1/skills', {
      body: { data: tool, target_uri: 'viking://agent/skills', source_metadata: { origin: 'tools/list' } },
    });
    expect(res.status, res.text).toBe(200);
    const got = await t.request(
      'GET',
      '/api/v1/skills/search-web?target_uri=viking://agent/skills&level=2&include_source=true',
    );
    expect(got.json.result.content).toBe(MCP_EXPECTED);
    expect(got.json.result.source).toEqual({ origin: 'tools/list', mcp_tool: 'search_web' });
    // What a client does to get the MCP tool back: SKILL.md and the kept name.
    expect(toMcpTool(got.json.result.content, { mcpTool: got.json.result.source.mcp_tool })).toEqual(tool);
    await t.request('DELETE', '/api/v1/skills/search-web?target_uri=viking://agent/skills');
  });

  test.each([['search_web'], ['searchWeb'], ['Search Web']])(
    'MCP name %j is stored as kebab-case search-web-like name',
    async (mcpName) => {
      const res = await t.request('POST', '/api/v1/skills', {
        body: {
          data: { name: mcpName, description: 'Search the web', inputSchema: { type: 'object' } },
          target_uri: 'viking://agent/skills',
        },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.json.result.name).toBe('search-web');
    },
  );

  test('4. temp upload of a zipped folder (two auxiliary files, single child folder, __MACOSX ignored)', async () => {
    const md = '---\nname: my-zip-skill\ndescription: A skill uploaded as a zipped folder\n---\n\n# Zip\n';
    const zip = zipSync({
      'my-zip-skill/SKILL.md': new TextEncoder().encode(md),
      'my-zip-skill/scripts/run.sh': new TextEncoder().encode('#!/bin/sh\necho hi\n'),
      'my-zip-skill/data.bin': new Uint8Array([0, 1, 2, 255, 254]),
      '__MACOSX/my-zip-skill/._SKILL.md': new Uint8Array([0, 5, 22, 7]),
    });
    const id = await upload(zip, 'anything.bin');
    const res = await t.request('POST', '/api/v1/skills', { body: { temp_file_id: id, telemetry: true } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result).toMatchObject({ name: 'my-zip-skill', auxiliary_files: 2 });
    expect(res.json.telemetry.operation_id).toMatch(/^[0-9a-f-]{36}$/);
    const get = await t.request('GET', '/api/v1/skills/my-zip-skill?include_content=true');
    expect(get.json.result.content).toBe(md);
    const files = get.json.result.files.map((f: { path: string; kind: string }) => `${f.kind}:${f.path}`);
    expect(files).toEqual(
      expect.arrayContaining([
        'definition:SKILL.md',
        'auxiliary:scripts/run.sh',
        'auxiliary:data.bin',
        'directory:scripts',
      ]),
    );
    // consumed once
    const again = await t.request('POST', '/api/v1/skills', { body: { temp_file_id: id } });
    expect(again.status).toBe(404);
    expect(again.json.error.code).toBe('NOT_FOUND');
  });

  test('a zip made on Windows (backslash entry names) stores its files under "/" paths', async () => {
    const md = '---\nname: win-zip-skill\ndescription: Zipped on Windows with backslashes\n---\n\n# Win\n';
    // As Windows tools write them: host MS-DOS, `\` between folder names (APPNOTE asks for `/`).
    const zip = buildZip([
      { name: 'win-zip-skill\\SKILL.md', data: md, host: 0 },
      { name: 'win-zip-skill\\scripts\\run.sh', data: '#!/bin/sh\necho hi\n', host: 0 },
      { name: 'win-zip-skill\\docs\\guide\\intro.md', data: '# Intro\n', host: 0 },
    ]);
    const res = await t.request('POST', '/api/v1/skills', {
      body: { temp_file_id: await upload(zip, 'win.zip'), wait: true },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result).toMatchObject({ name: 'win-zip-skill', auxiliary_files: 2 });
    const get = await t.request('GET', '/api/v1/skills/win-zip-skill?level=0');
    const paths = (get.json.result.files as Array<{ path: string }>).map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['SKILL.md', 'scripts/run.sh', 'docs/guide/intro.md']));
    expect(paths.filter((p) => p.includes('\\'))).toEqual([]);
    const file = await t.request('GET', '/api/v1/skills/win-zip-skill/files/scripts/run.sh');
    expect(file.status, file.text).toBe(200);
    expect(file.text).toBe('#!/bin/sh\necho hi\n');
  });

  test('a temp upload is used up only by the write that stores it: a refused add or update leaves it for a retry', async () => {
    const md =
      '---\nname: kept-upload\ndescription: A skill whose upload survives refused writes\n---\nbody\n';
    const id = await upload(new TextEncoder().encode(md), 'SKILL.md');
    // Refused: an update of a skill that does not exist, one under another name, an add into an unknown root.
    const update = await t.request('PUT', '/api/v1/skills/kept-upload', { body: { temp_file_id: id } });
    expect(update.status, update.text).toBe(404);
    const mismatch = await t.request('PUT', '/api/v1/skills/other-name', { body: { temp_file_id: id } });
    expect(mismatch.status, mismatch.text).toBe(400);
    expect(mismatch.json.error.details.field).toBe('name');
    const badRoot = await t.request('POST', '/api/v1/skills', {
      body: { temp_file_id: id, target_uri: 'viking://nowhere/skills' },
    });
    expect(badRoot.status, badRoot.text).toBe(400);
    // The retry succeeds; afterwards the upload is gone.
    const ok = await t.request('POST', '/api/v1/skills', { body: { temp_file_id: id } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.result.name).toBe('kept-upload');
    const again = await t.request('POST', '/api/v1/skills', { body: { temp_file_id: id } });
    expect(again.status, again.text).toBe(404);
    expect(again.json.error.details.type).toBe('temp_file');
  });

  test('an upload refused as invalid SKILL.md stays usable; of two concurrent adds from one upload exactly one stores it', async () => {
    const invalid = await upload(
      new TextEncoder().encode('---\nname: Not A Valid Name!\n---\nbody\n'),
      'SKILL.md',
    );
    for (let i = 0; i < 2; i++) {
      const res = await t.request('POST', '/api/v1/skills', { body: { temp_file_id: invalid } });
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe('SKILL_INVALID');
    }
    const md = '---\nname: raced-upload\ndescription: One upload, two concurrent adds\n---\nbody\n';
    const id = await upload(new TextEncoder().encode(md), 'SKILL.md');
    const both = await Promise.all(
      [0, 1].map(() => t.request('POST', '/api/v1/skills', { body: { temp_file_id: id } })),
    );
    expect(both.map((r) => r.status).sort()).toEqual([200, 404]);
    const history = await t.request('GET', '/api/v1/skills/raced-upload/revisions');
    expect(history.json.result.total).toBe(1);
  });

  test('a folder named differently from the skill gives a name_matches_directory warning', async () => {
    const md = '---\nname: folder-mismatch\ndescription: Skill whose folder has another name\n---\nbody\n';
    const id = await upload(zipSync({ 'other-folder/SKILL.md': new TextEncoder().encode(md) }));
    const res = await t.request('POST', '/api/v1/skills', { body: { temp_file_id: id } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result.warnings.map((w: { rule: string }) => w.rule)).toContain('name_matches_directory');
  });

  test('temp upload of a single file is read as SKILL.md, bytes kept (BOM + CRLF)', async () => {
    const md =
      '\uFEFF---\r\nname: single-file\r\ndescription: One file uploaded without a zip\r\n---\r\n\r\nBody\r\n';
    const id = await upload(new TextEncoder().encode(md), 'SKILL.md');
    const res = await t.request('POST', '/api/v1/skills', { body: { temp_file_id: id } });
    expect(res.status, res.text).toBe(200);
    expect(await content('single-file')).toBe(md);
  });
});

describe('POST /api/v1/skills — rules', () => {
  test('adding an existing name replaces it completely (no stale files)', async () => {
    const enc = new TextEncoder();
    const v1 = zipSync({
      'SKILL.md': enc.encode('---\nname: replace-me\ndescription: First version of the skill\n---\nv1\n'),
      'old.txt': enc.encode('old'),
    });
    const first = await t.request('POST', '/api/v1/skills', { body: { temp_file_id: await upload(v1) } });
    expect(first.status).toBe(200);
    const second = await t.request('POST', '/api/v1/skills', {
      body: { data: '---\nname: replace-me\ndescription: Second version of the skill\n---\nv2\n' },
    });
    expect(second.status).toBe(200);
    expect(second.json.result.revision).not.toBe(first.json.result.revision);
    const get = await t.request('GET', '/api/v1/skills/replace-me');
    expect(get.json.result.files.map((f: { path: string }) => f.path)).not.toContain('old.txt');
    expect(get.json.result.description).toBe('Second version of the skill');
  });

  test.each([
    ['/etc/passwd'],
    ['./skills/my-skill'],
    ['../x'],
    ['~/skills/a'],
    ['C:\\skills\\a'],
    ['skills\\a'],
  ])('host path %j → 403 PERMISSION_DENIED, nothing stored', async (data) => {
    const res = await t.request('POST', '/api/v1/skills', { body: { data } });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('PERMISSION_DENIED');
    expect(res.json.error.message).toContain('not host paths');
  });

  // A field of several accepted types names them and what was sent, not only "Invalid input".
  test.each([
    [{ data: [] }, 'data', 'data: Invalid input: expected string or object, received array'],
    [{ data: 42 }, 'data', 'data: Invalid input: expected string or object, received number'],
    [
      { data: 'x', wait: 'yes' },
      'wait',
      'wait: Invalid input: expected boolean, null or false, received string',
    ],
    [
      { data: 'x', target_uri: 7 },
      'target_uri',
      'target_uri: Invalid input: expected string, null or false, received number',
    ],
  ])('%j → 400 naming the accepted types of %s', async (body, field, message) => {
    const res = await t.request('POST', '/api/v1/skills', { body });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe('INVALID_ARGUMENT');
    expect(res.json.error.details.field).toBe(field);
    expect(res.json.error.message).toBe(`Invalid request body: ${message}`);
    expect(res.json.error.details.validation_errors[0]).toMatchObject({
      loc: ['body', field],
      type: 'invalid_union',
    });
  });

  test.each([
    ['broken JSON', '{"data": '],
    ['an empty body', ''],
  ])('%s → 400 INVALID_ARGUMENT saying "Malformed JSON" once', async (_label, raw) => {
    const res = await t.request('POST', '/api/v1/skills', {
      body: raw,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe('INVALID_ARGUMENT');
    expect(res.json.error.message.match(/Malformed JSON/g)).toHaveLength(1);
  });

  test.each([
    ['no frontmatter', '# Just markdown\n\nNo frontmatter here.\n', 'yaml_format'],
    ['missing description', '---\nname: no-desc\n---\nbody\n', 'description_required'],
    ['missing name', '---\ndescription: A skill without any name at all\n---\nbody\n', 'name_required'],
    ['unclosed fence', '---\nname: x\ndescription: unclosed front matter block\nbody\n', 'yaml_format'],
  ])('%s → 400 SKILL_INVALID with details.issues', async (_label, data, rule) => {
    const res = await t.request('POST', '/api/v1/skills', { body: { data } });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe('SKILL_INVALID');
    expect(res.json.error.message).toMatch(/^Skill parse error: /);
    const issues: Array<{ rule: string; line?: number; column?: number }> = res.json.error.details.issues;
    expect(issues.map((i) => i.rule)).toContain(rule);
    // Every issue is located in the SKILL.md sent (a missing key: at the opening `---`).
    for (const issue of issues)
      expect(issue, JSON.stringify(issue)).toMatchObject({
        line: expect.any(Number),
        column: expect.any(Number),
      });
  });

  test('an unclosed frontmatter gets one verdict whether it is parsed inline or in the worker pool', async () => {
    const head = '---\nname: unclosed\ndescription: A frontmatter that is never closed\n';
    const texts = [
      `${head}body\n`, // inline
      `${head}${'k: v\n'.repeat(600)}`, // short text, over 2,048 characters after the opening fence
      `${head}${'line of text\n'.repeat(2000)}`, // over 16 Ki characters
    ];
    const verdicts = [];
    for (const data of texts) {
      const res = await t.request('POST', '/api/v1/skills', { body: { data } });
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe('SKILL_INVALID');
      verdicts.push({ message: res.json.error.message, issues: res.json.error.details.issues });
    }
    expect(verdicts[0]?.issues).toEqual([
      expect.objectContaining({ rule: 'yaml_format', line: 1, column: 1 }),
    ]);
    expect(verdicts[1]).toEqual(verdicts[0]);
    expect(verdicts[2]).toEqual(verdicts[0]);
    expect((await t.request('GET', '/api/v1/skills/unclosed')).status).toBe(404);
  });

  test('a frontmatter ended by YAML\'s "..." is refused at that line with the fix, inline or in the worker pool', async () => {
    const head = '---\nname: dots-closed\ndescription: A frontmatter ended by a document end marker\n';
    const texts = [`${head}...\n\n# Body\n`, `${head}...\n\n${'line of text\n'.repeat(2000)}`];
    for (const data of texts) {
      const res = await t.request('POST', '/api/v1/skills', { body: { data } });
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe('SKILL_INVALID');
      expect(res.json.error.details.issues).toEqual([
        expect.objectContaining({ rule: 'yaml_format', line: 4, column: 1, fix: '---' }),
      ]);
      expect(res.json.error.message).toContain('close the frontmatter with "---"');
    }
    expect((await t.request('GET', '/api/v1/skills/dots-closed')).status).toBe(404);
  });

  test('a "..." followed only by comment lines, then "---", is refused at the "..." line (add and validate)', async () => {
    const head = '---\nname: dots-then-fence\ndescription: A frontmatter ended by a document end marker\n';
    const texts = [`${head}...\n# Title\n\n# Second\n---\n\nBody\n`, `${head}...\n---\n# Title\n`];
    for (const data of texts) {
      const res = await t.request('POST', '/api/v1/skills', { body: { data } });
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe('SKILL_INVALID');
      expect(res.json.error.details.issues).toEqual([
        expect.objectContaining({ rule: 'yaml_format', line: 4, column: 1, fix: '---' }),
      ]);
      const checked = await t.request('POST', '/api/v1/skills/validate', { body: { data } });
      expect(checked.json.result.valid).toBe(false);
      expect(checked.json.result.errors).toEqual([expect.objectContaining({ rule: 'yaml_format', line: 4 })]);
    }
    expect((await t.request('GET', '/api/v1/skills/dots-then-fence')).status).toBe(404);
  });

  // A no-break space, byte order mark or line separator is not a blank: trimming it would store a
  // name other than the one the stored SKILL.md gives an agent.
  test.each([
    ['a'.repeat(65)],
    ['bad name'],
    ['ümlaut'],
    ['\u00a0nb-skill\u00a0'],
    ['\ufeffbom-skill'],
    ['ls-skill\u2028'],
  ])('name %j breaks the name rule → 400 INVALID_ARGUMENT details.field=name', async (name) => {
    const res = await t.request('POST', '/api/v1/skills', {
      body: { data: `---\nname: ${name}\ndescription: A description that is long enough\n---\nbody\n` },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe('INVALID_ARGUMENT');
    expect(res.json.error.details.field).toBe('name');
    // Located where the SKILL.md writes it, as the validator's warning for the same rule is.
    expect(res.json.error.details).toMatchObject({
      line: 2,
      column: 7,
      rule: expect.stringMatching(/^name_/),
    });
    expect(res.json.error.message).toMatch(/\(SKILL\.md line 2, column 7\)$/);
  });

  test('an invisible character around a structured or path name is refused, not trimmed', async () => {
    const structured = await t.request('POST', '/api/v1/skills', {
      body: { data: { name: '\u00a0nb-skill', description: 'A structured skill with an odd name' } },
    });
    expect(structured.status, structured.text).toBe(400);
    expect(structured.json.error.details).toMatchObject({ field: 'name', fix: 'nb-skill' });
    expect(structured.json.error.message).toContain('U+00A0');
    expect((await t.request('GET', '/api/v1/skills/nb-skill')).status).toBe(404);
    const path = await t.request('GET', `/api/v1/skills/${encodeURIComponent('\ufeffnb-skill')}`);
    expect(path.status, path.text).toBe(400);
    expect(path.json.error.details.field).toBe('name');
    // ASCII blanks stay what the contract trims.
    const quoted = await t.request('POST', '/api/v1/skills', {
      body: {
        data: '---\nname: " quoted-skill\\t"\ndescription: A skill whose name has blanks around it\n---\nbody\n',
      },
    });
    expect(quoted.status, quoted.text).toBe(200);
    expect(quoted.json.result.name).toBe('quoted-skill');
    expect(quoted.json.result.warnings.map((w: { rule: string }) => w.rule)).toContain('name_whitespace');
  });

  test('both data and temp_file_id, or neither → 400', async () => {
    const both = await t.request('POST', '/api/v1/skills', { body: { data: 'x', temp_file_id: 'y' } });
    expect(both.status).toBe(400);
    const neither = await t.request('POST', '/api/v1/skills', { body: {} });
    expect(neither.status).toBe(400);
    expect(neither.json.error.details.field).toBe('data');
  });

  const md = (name: string) =>
    `---\nname: ${name}\ndescription: A skill placed in a chosen root\n---\nbody\n`;
  test.each([
    ['viking://agent/skills', 'viking://agent/skills'],
    ['viking://~/skills', 'viking://user/default/skills'],
    ['viking://user/default/skills', 'viking://user/default/skills'],
  ])('target_uri %s stores under %s', async (target, root) => {
    const name = `target-${root.includes('agent') ? 'agent' : 'user'}-${target.length}`;
    const res = await t.request('POST', '/api/v1/skills', { body: { data: md(name), target_uri: target } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result.uri).toBe(`${root}/${name}`);
    const listed = await t.request('GET', `/api/v1/skills?target_uri=${encodeURIComponent(target)}`);
    expect(listed.json.result.root_uri).toBe(root);
    expect(listed.json.result.skills.map((s: { name: string }) => s.name)).toContain(name);
  });

  test('a bare viking://user → 400 INVALID_URI with a hint naming both spellings', async () => {
    const res = await t.request('POST', '/api/v1/skills', {
      body: { data: md('nope'), target_uri: 'viking://user' },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('INVALID_URI');
    expect(res.json.error.details).toMatchObject({ uri: 'viking://user' });
    expect(res.json.error.message).toContain('viking://~/skills');
    expect(res.json.error.message).toContain('viking://user/{user_id}/skills');
  });

  test('null/false optional fields mean "not given"', async () => {
    const res = await t.request('POST', '/api/v1/skills', {
      body: {
        data: md('loose-fields'),
        timeout: null,
        telemetry: false,
        target_uri: null,
        source_metadata: false,
        wait: false,
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.telemetry).toBeUndefined();
    expect(res.json.result.uri).toBe('viking://user/default/skills/loose-fields');
  });

  test('source_metadata is returned by get with include_source', async () => {
    const res = await t.request('POST', '/api/v1/skills', {
      body: { data: md('with-source'), source_metadata: { repo: 'github.com/x/y', ref: 'main' } },
    });
    expect(res.status).toBe(200);
    const get = await t.request('GET', '/api/v1/skills/with-source?include_source=true');
    expect(get.json.result.source).toEqual({ repo: 'github.com/x/y', ref: 'main' });
    const plain = await t.request('GET', '/api/v1/skills/with-source');
    expect(plain.json.result.source).toBeUndefined();
  });
});

describeCorpus('corpus: every skill folder zipped, uploaded and added', () => {
  const corpus = findCorpus();
  const root = corpus ? path.join(corpus, 'skills') : '';
  const folders = corpus ? readdirSync(root).sort() : [];

  function zipFolder(dir: string): { zip: Uint8Array; aux: number; skillMd: Uint8Array } {
    const files: Record<string, Uint8Array> = {};
    const walk = (rel: string) => {
      for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
        const p = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) walk(p);
        else if (entry.isFile()) files[p] = readFileSync(path.join(dir, p));
      }
    };
    walk('');
    const skillMd = files['SKILL.md'];
    if (!skillMd) throw new Error(`${dir} has no SKILL.md`);
    const aux = Object.keys(files).filter(
      (p) => p !== 'SKILL.md' && p !== '.abstract.md' && p !== '.overview.md',
    );
    return { zip: zipSync(files), aux: aux.length, skillMd };
  }

  test.each(folders)('%s', async (folder) => {
    const { zip, aux, skillMd } = zipFolder(path.join(root, folder));
    const res0 = await t.request('POST', '/api/v1/skills', {
      body: { temp_file_id: await upload(zip), target_uri: 'viking://agent/skills' },
    });
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(skillMd);
    } catch {
      expect(res0.status, res0.text).toBe(400);
      expect(res0.json.error.details.reason).toBe('invalid_utf8');
      return;
    }
    const verdict = validateSkill(text, { profile: 'openviking' });
    const res = res0;
    if (verdict.errors.length > 0) {
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe('SKILL_INVALID');
      expect(res.json.error.details.issues.length).toBeGreaterThan(0);
      return;
    }
    const name = (verdict.name ?? '').trim();
    if (!isValidSkillName(name)) {
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.details.field).toBe('name');
      return;
    }
    expect(res.status, res.text).toBe(200);
    expect(res.json.result.auxiliary_files).toBe(aux);
    const back = await content(name, '&target_uri=viking://agent/skills');
    expect(Buffer.from(back, 'utf8').equals(Buffer.from(skillMd))).toBe(true);
  });
});

describeCorpus('corpus: every MCP tool added as data, SKILL.md read back byte for byte', () => {
  const corpus = findCorpus();
  const dir = corpus ? path.join(corpus, 'mcp') : '';
  const files = corpus
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort()
    : [];

  test.each(files)('%s', async (file) => {
    const tool = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as McpTool;
    const expected = fromMcpTool(tool);
    const verdict = validateSkill(expected.content, { profile: 'openviking' });
    const res = await t.request('POST', '/api/v1/skills', {
      body: { data: tool, target_uri: 'viking://agent/skills' },
    });
    if (verdict.errors.length > 0 || !isValidSkillName(expected.name)) {
      expect(res.status, res.text).toBe(400);
      return;
    }
    expect(res.status, res.text).toBe(200);
    expect(res.json.result.name).toBe(expected.name);
    expect(await content(expected.name, '&target_uri=viking://agent/skills')).toBe(expected.content);
  });
});
