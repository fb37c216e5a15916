/**
 * Requests of one connection are answered one at a time with a turn of the event loop between two:
 * a JSON-RPC batch (or many concurrent requests) cannot build all its answers in one go on the thread
 * that serves every other caller.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { GetSkillResult } from '@skillport/core';
import { describe, expect, it } from 'vitest';
import { createSkillportMcpServer } from '../src/index.js';
import type { SkillRegistry } from '../src/registry.js';

/** A registry whose reads count how many run at once and how many event-loop turns passed between them. */
function countingRegistry() {
  const stats = { running: 0, most: 0, calls: 0, turnsBetween: [] as number[] };
  let turns = 0;
  let lastEnd = -1;
  const tick = () => {
    turns++;
  };
  const get = async (name: string): Promise<GetSkillResult> => {
    stats.calls++;
    if (lastEnd >= 0) stats.turnsBetween.push(turns - lastEnd);
    stats.running++;
    stats.most = Math.max(stats.most, stats.running);
    await Promise.resolve();
    stats.running--;
    // A macrotask queued now runs only if the event loop gets a turn before the next read starts.
    lastEnd = turns;
    setImmediate(tick);
    return {
      name,
      uri: `viking://agent/skills/${name}`,
      root_uri: 'viking://agent/skills',
      description: 'd',
      revision: '0'.repeat(64),
      content: 'x',
      files: [],
    } as unknown as GetSkillResult;
  };
  const registry: SkillRegistry = {
    find: async () => ({ query: '', skills: [] }) as never,
    get,
    list: async () => ({ skills: [], total: 0 }) as never,
    readFile: async () => {
      throw new Error('no files');
    },
  };
  return { registry, stats };
}

async function connect(registry: SkillRegistry, options: { oneRequestAtATime?: boolean } = {}) {
  const server = createSkillportMcpServer(registry, options);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(clientSide);
  return { client, server };
}

describe('requests of one connection', () => {
  it('run one at a time, each after a turn of the event loop, and all are answered', async () => {
    const { registry, stats } = countingRegistry();
    const { client, server } = await connect(registry);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        client.callTool({ name: 'get_skill', arguments: { name: `skill-${i}`, level: 2 } }),
      ),
    );
    expect(results.map((r) => (r as CallToolResult).isError ?? false)).toEqual(Array(20).fill(false));
    expect(stats.calls).toBe(20);
    // Before: all 20 reads started together (most 20) with no turn of the loop between them.
    expect(stats.most).toBe(1);
    expect(stats.turnsBetween).toHaveLength(19);
    expect(stats.turnsBetween.every((n) => n >= 1)).toBe(true);
    await client.close();
    await server.close();
  });

  it('a request cancelled while it waits is not run; the others still are', async () => {
    const { registry, stats } = countingRegistry();
    const { client, server } = await connect(registry);
    const abort = new AbortController();
    const first = client.callTool({ name: 'get_skill', arguments: { name: 'a' } });
    const cancelled = client.callTool({ name: 'get_skill', arguments: { name: 'b' } }, undefined, {
      signal: abort.signal,
    });
    abort.abort('not needed');
    const third = client.callTool({ name: 'get_skill', arguments: { name: 'c' } });
    await expect(cancelled).rejects.toThrow();
    await first;
    await third;
    expect(stats.calls).toBe(2);
    await client.close();
    await server.close();
  });

  it('run side by side with oneRequestAtATime: false (one agent per process, as `skillport mcp`)', async () => {
    const { registry, stats } = countingRegistry();
    const { client, server } = await connect(registry, { oneRequestAtATime: false });
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        client.callTool({ name: 'get_skill', arguments: { name: `skill-${i}`, level: 2 } }),
      ),
    );
    expect(results.map((r) => (r as CallToolResult).isError ?? false)).toEqual(Array(5).fill(false));
    expect(stats.most).toBeGreaterThan(1);
    await client.close();
    await server.close();
  });
});
