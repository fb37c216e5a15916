/**
 * `/mcp` with text longer than one tool result carries (`MAX_TOOL_TEXT_CHARS`): `get_skill` level 2
 * and `read_skill_file` cut it at a surrogate-pair-safe point and say where to read on, and
 * `read_skill_file`'s `offset` reads the rest, piece by piece, back to the exact text. Both engines.
 */

import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TOOL_TEXT_CHARS } from '../../../../packages/mcp/src/internal/tools.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const enc = new TextEncoder();
const head = '---\nname: huge-guide\ndescription: A very long guide\n---\n\n# Guide\n\n';
// An emoji (two UTF-16 code units) straddles the cut: its first half is the 200,000th code unit.
const before = 'Step one. '.repeat((MAX_TOOL_TEXT_CHARS - head.length - 1) / 10);
const SKILL_MD = `${head}${before}${'x'.repeat(MAX_TOOL_TEXT_CHARS - head.length - before.length - 1)}😀${'é and more. '.repeat(25_000)}\n`;
const REFERENCE = `${'ref line ✓\n'.repeat(50_000)}`;

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

let t: TestServer;

/** Adds (or replaces) a skill from zipped files, waiting for it. */
async function addSkill(files: Record<string, Uint8Array>): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([zipSync(files, { level: 0 }) as Uint8Array<ArrayBuffer>]), 'skill.zip');
  const upload = await t.request('POST', '/api/v1/resources/temp_upload', { body: form });
  expect(upload.status, upload.text).toBe(200);
  const added = await t.request('POST', '/api/v1/skills', {
    body: { temp_file_id: upload.json.result.temp_file_id, wait: true },
  });
  expect(added.status, added.text).toBe(200);
}
let client: Client;

function texts(result: CallToolResult): string[] {
  return result.content.map((block) => (block as { text: string }).text);
}

/** Reads a text file through read_skill_file, following each note's offset, and the notes. */
async function readAll(name: string, path: string): Promise<{ text: string; notes: string[] }> {
  let text = '';
  const notes: string[] = [];
  let offset: number | undefined;
  let sha256: string | undefined;
  for (let calls = 0; calls < 20; calls++) {
    const result = (await client.callTool({
      name: 'read_skill_file',
      arguments: { name, path, ...(offset === undefined ? {} : { offset, sha256 }) },
    })) as CallToolResult;
    expect(result.isError, texts(result).join('\n')).toBeFalsy();
    const [piece, note] = texts(result);
    text += piece;
    if (note === undefined) return { text, notes };
    notes.push(note);
    // Follow the note as a model would: call read_skill_file with the arguments it gives.
    const next = /Read on with read_skill_file (\{.*\})\.\]$/.exec(note);
    if (next === null) return { text, notes };
    const args = JSON.parse(next[1] as string) as { name: string; path: string; offset: number };
    expect(args).toMatchObject({ name, path, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    ({ offset, sha256 } = args as { offset: number; sha256?: string });
  }
  throw new Error('read_skill_file never reached the end');
}

beforeAll(async () => {
  t = await startTestServer();
  await addSkill({
    'huge-guide/SKILL.md': enc.encode(SKILL_MD),
    'huge-guide/reference/api.md': enc.encode(REFERENCE),
    'huge-guide/data/blob.bin': new Uint8Array([0, 1, 2, 0xff]),
  });
  client = new Client({ name: 'skillport-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`)));
}, 60_000);

afterAll(async () => {
  await client?.close();
  await t?.close();
});

describe('/mcp: text longer than a tool result', () => {
  it('get_skill level 2 cuts SKILL.md before the emoji it would split and says where to read on', async () => {
    const result = (await client.callTool({
      name: 'get_skill',
      arguments: { name: 'huge-guide', level: 2 },
    })) as CallToolResult;
    const [piece, note, about] = texts(result);
    expect(piece).toBe(SKILL_MD.slice(0, MAX_TOOL_TEXT_CHARS - 1));
    expect(note).toBe(
      `[Cut: SKILL.md has ${SKILL_MD.length} characters; the first ${MAX_TOOL_TEXT_CHARS - 1} are shown. ` +
        `Read on with read_skill_file {"name":"huge-guide","path":"SKILL.md","offset":${MAX_TOOL_TEXT_CHARS - 1},` +
        `"sha256":"${sha256Hex(SKILL_MD)}"}.]`,
    );
    expect(about).toContain('Skill huge-guide');
    // No lone surrogate: the piece is well-formed text.
    expect(piece).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });

  it('read_skill_file reads SKILL.md and a long reference back exactly, piece by piece', async () => {
    const skill = await readAll('huge-guide', 'SKILL.md');
    expect(skill.text).toBe(SKILL_MD);
    expect(skill.notes).toHaveLength(3);
    expect(skill.notes[1]).toContain(`characters ${MAX_TOOL_TEXT_CHARS - 1} to `);
    expect(skill.notes[2]).toMatch(/are shown, to its end\.\]$/);
    const reference = await readAll('huge-guide', 'reference/api.md');
    expect(reference.text).toBe(REFERENCE);
    expect(reference.notes).toHaveLength(3);
  });

  it('an offset between the halves of a pair starts at the pair; one past the end is refused', async () => {
    const mid = (await client.callTool({
      name: 'read_skill_file',
      arguments: { name: 'huge-guide', path: 'SKILL.md', offset: MAX_TOOL_TEXT_CHARS },
    })) as CallToolResult;
    expect(texts(mid)[0]?.startsWith('😀é and more.')).toBe(true);
    const past = (await client.callTool({
      name: 'read_skill_file',
      arguments: { name: 'huge-guide', path: 'SKILL.md', offset: SKILL_MD.length },
    })) as CallToolResult;
    expect(past.isError).toBe(true);
    expect(texts(past)[0]).toContain(`past the end of the text (${SKILL_MD.length} characters)`);
    const binary = (await client.callTool({
      name: 'read_skill_file',
      arguments: { name: 'huge-guide', path: 'data/blob.bin', offset: 10 },
    })) as CallToolResult;
    expect(binary.isError).toBe(true);
    expect(texts(binary)[0]).toContain('offset applies to text files only');
    const negative = (await client.callTool({
      name: 'read_skill_file',
      arguments: { name: 'huge-guide', path: 'SKILL.md', offset: -1 },
    })) as CallToolResult;
    expect(negative.isError).toBe(true);
  });

  it('a short file comes back whole, with no note, with or without offset 0', async () => {
    const tools = await client.listTools();
    const read = tools.tools.find((tool) => tool.name === 'read_skill_file');
    expect(read?.inputSchema.required).toEqual(['name', 'path']);
    expect(Object.keys(read?.inputSchema.properties ?? {})).toEqual(['name', 'path', 'offset', 'sha256']);
    for (const args of [{}, { offset: 0 }]) {
      const whole = (await client.callTool({
        name: 'read_skill_file',
        arguments: { name: 'huge-guide', path: 'data/blob.bin', ...args },
      })) as CallToolResult;
      expect(whole.isError).toBeFalsy();
    }
  });
  it('a file replaced between two pieces: the read-on call fails, and never joins pieces of two versions', async () => {
    const head = '---\nname: moving-guide\ndescription: A guide replaced while it is read\n---\n\n';
    const before = `${head}${'old step. '.repeat(25_000)}old ending\n`;
    const after = `${head}new start\n${'new step. '.repeat(25_000)}new ending\n`;
    await addSkill({ 'moving-guide/SKILL.md': enc.encode(before) });
    const first = (await client.callTool({
      name: 'read_skill_file',
      arguments: { name: 'moving-guide', path: 'SKILL.md' },
    })) as CallToolResult;
    const readOn = /Read on with read_skill_file (\{.*\})\.\]$/.exec(texts(first)[1] ?? '');
    expect(readOn).not.toBeNull();
    const args = JSON.parse(readOn?.[1] as string) as Record<string, unknown>;
    expect(args.sha256).toBe(sha256Hex(before));
    await addSkill({ 'moving-guide/SKILL.md': enc.encode(after) });
    const second = (await client.callTool({ name: 'read_skill_file', arguments: args })) as CallToolResult;
    expect(second.isError).toBe(true);
    expect(texts(second)[0]).toMatch(
      /SKILL\.md changed since the piece you read .*read it again from offset 0/,
    );
    // Read again from the start, the new version comes back whole.
    expect((await readAll('moving-guide', 'SKILL.md')).text).toBe(after);
  });
});
