/**
 * `/mcp` with text longer than one tool result carries (`MAX_TOOL_TEXT_CHARS`): `get_skill` level 2
 * and `read_skill_file` cut it at a surrogate-pair-safe point and say where to read on, and
 * `read_skill_file`'s `offset` reads the rest, piece by piece, back to the exact text. Both engines.
 */
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

let t: TestServer;
let client: Client;

function texts(result: CallToolResult): string[] {
  return result.content.map((block) => (block as { text: string }).text);
}

/** Reads a text file through read_skill_file, following each note's offset, and the notes. */
async function readAll(name: string, path: string): Promise<{ text: string; notes: string[] }> {
  let text = '';
  const notes: string[] = [];
  let offset: number | undefined;
  for (let calls = 0; calls < 20; calls++) {
    const result = (await client.callTool({
      name: 'read_skill_file',
      arguments: { name, path, ...(offset === undefined ? {} : { offset }) },
    })) as CallToolResult;
    expect(result.isError, texts(result).join('\n')).toBeFalsy();
    const [piece, note] = texts(result);
    text += piece;
    if (note === undefined) return { text, notes };
    notes.push(note);
    const next = /"offset":(\d+)/.exec(note);
    if (next === null) return { text, notes };
    offset = Number(next[1]);
  }
  throw new Error('read_skill_file never reached the end');
}

beforeAll(async () => {
  t = await startTestServer();
  const zip = zipSync(
    {
      'huge-guide/SKILL.md': enc.encode(SKILL_MD),
      'huge-guide/reference/api.md': enc.encode(REFERENCE),
      'huge-guide/data/blob.bin': new Uint8Array([0, 1, 2, 0xff]),
    },
    { level: 0 },
  );
  const form = new FormData();
  form.append('file', new Blob([zip as Uint8Array<ArrayBuffer>]), 'huge-guide.zip');
  const upload = await t.request('POST', '/api/v1/resources/temp_upload', { body: form });
  expect(upload.status, upload.text).toBe(200);
  const added = await t.request('POST', '/api/v1/skills', {
    body: { temp_file_id: upload.json.result.temp_file_id, wait: true },
  });
  expect(added.status, added.text).toBe(200);
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
        `Read on with read_skill_file {"name":"huge-guide","path":"SKILL.md","offset":${MAX_TOOL_TEXT_CHARS - 1}}.]`,
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
    expect(Object.keys(read?.inputSchema.properties ?? {})).toEqual(['name', 'path', 'offset']);
    for (const args of [{}, { offset: 0 }]) {
      const whole = (await client.callTool({
        name: 'read_skill_file',
        arguments: { name: 'huge-guide', path: 'data/blob.bin', ...args },
      })) as CallToolResult;
      expect(whole.isError).toBeFalsy();
    }
  });
});
