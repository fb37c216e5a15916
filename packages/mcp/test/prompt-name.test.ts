/**
 * A prompt name is a skill name or URI: one longer than the tools' `name` argument is refused as
 * invalid params before the registry is asked.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createSkillportMcpServer } from '../src/index.js';
import type { SkillRegistry } from '../src/registry.js';

describe('prompts/get', () => {
  it('refuses a name over 300 characters with -32602 without asking the registry', async () => {
    const asked: string[] = [];
    const registry: SkillRegistry = {
      find: async () => ({ query: '', skills: [] }) as never,
      get: async (name) => {
        asked.push(name);
        throw Object.assign(new Error(`Skill ${name.length} not found`), { code: 'NOT_FOUND' });
      },
      list: async () => ({ skills: [], total: 0 }) as never,
      readFile: async () => {
        throw new Error('no files');
      },
    };
    const server = createSkillportMcpServer(registry);
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(clientSide);

    // Before: the name (here a million spaces between two letters) went to the registry as it was.
    const name = `a${' '.repeat(1_000_000)}b`;
    await expect(client.getPrompt({ name })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringContaining(`${name.length} characters long`),
    });
    expect(asked).toEqual([]);
    await expect(client.getPrompt({ name: 'x'.repeat(300) })).rejects.toThrow('not found');
    expect(asked).toEqual(['x'.repeat(300)]);
    await client.close();
    await server.close();
  });
});
