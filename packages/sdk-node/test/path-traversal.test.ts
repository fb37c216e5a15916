/**
 * Caller text in a URL path can never reach another endpoint: both clients refuse `.`/`..` segments,
 * empty segments, backslashes and control characters before sending, against a real server process
 * whose observer routes would otherwise answer.
 */
import { AsyncHTTPClient, InvalidArgumentError } from '@skillport/sdk-node';
import { SyncHTTPClient } from '@skillport/sdk-node/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../../cli/test/support/processes.js';
import { type ServerProcess, startServerProcess } from './support/server-process.js';

let server: ServerProcess;
const md = (name: string) => `---\nname: ${name}\ndescription: A skill named ${name}\n---\n\n# ${name}\n`;
const PATHS = [
  '../../../observer/queue',
  '../../../observer/system',
  '../../deep-research',
  '..',
  './SKILL.md',
  'docs//x.md',
  'docs\\..\\..\\observer',
  'SKILL.md\u0000',
];

beforeAll(async () => {
  requireBuild();
  server = await startServerProcess();
  const client = new AsyncHTTPClient({ url: server.url });
  await client.addSkill(md('geomaster'), { wait: true });
  await client.addSkill(md('deep-research'), { wait: true });
  client.close();
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe('AsyncHTTPClient', () => {
  it('still reads a real file, and the observer route it must not reach does answer', async () => {
    const client = new AsyncHTTPClient({ url: server.url });
    const file = await client.getSkillFile('geomaster', 'SKILL.md');
    expect(new TextDecoder().decode(file.bytes)).toBe(md('geomaster'));
    expect(await client.request('GET', 'api/v1/observer/queue')).toHaveProperty('pending');
    client.close();
  });

  it.each(PATHS)('getSkillFile refuses %j with InvalidArgumentError', async (path) => {
    const client = new AsyncHTTPClient({ url: server.url });
    const error = await client.getSkillFile('geomaster', path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).requestId).toBeUndefined(); // refused locally, never sent
    client.close();
  });

  it('a name of ".." is refused on every skill route', async () => {
    const client = new AsyncHTTPClient({ url: server.url });
    for (const call of [
      () => client.getSkill('..'),
      () => client.getSkillFile('..', 'observer/queue'),
      () => client.deleteSkill('..'),
      () => client.listRevisions('..'),
    ]) {
      await expect(call()).rejects.toBeInstanceOf(InvalidArgumentError);
    }
    // The skill named in the traversal is untouched.
    expect((await client.getSkill('deep-research')).name).toBe('deep-research');
    client.close();
  });
});

describe('SyncHTTPClient', () => {
  it.each(PATHS)('getSkillFile refuses %j with InvalidArgumentError', (path) => {
    const client = new SyncHTTPClient({ url: server.url });
    try {
      let error: unknown;
      try {
        client.getSkillFile('geomaster', path);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect((error as InvalidArgumentError).requestId).toBeUndefined();
      expect(new TextDecoder().decode(client.getSkillFile('geomaster', 'SKILL.md').bytes)).toBe(
        md('geomaster'),
      );
    } finally {
      client.close();
    }
  });
});
