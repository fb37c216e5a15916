/**
 * Client addresses behind a reverse proxy (`SKILLPORT_TRUSTED_PROXIES`): the wrong-key throttle counts
 * per client, not per proxy, and only a trusted peer may name the client in `X-Forwarded-For`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { optionsFromEnv } from '../../src/config.js';
import { parseTrustedProxies } from '../../src/http/client-address.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const ROOT = 'client-address-test-root-key-0123456789';
const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function start(trustedProxies: string[] | undefined): Promise<TestServer> {
  const t = await startTestServer({
    rootApiKey: ROOT,
    limits: { maxAuthFailuresPerMinute: 2 },
    ...(trustedProxies ? { trustedProxies } : {}),
  });
  servers.push(t);
  return t;
}

const asClient = (client: string, apiKey: string) => ({ apiKey, headers: { 'x-forwarded-for': client } });

describe('wrong-key throttle behind a proxy', () => {
  it('counts per forwarded client when the proxy (here: loopback) is trusted', async () => {
    const t = await start(['127.0.0.1', '::1']);
    for (let i = 0; i < 2; i++) {
      expect(
        (await t.request('GET', '/api/v1/admin/accounts', asClient('203.0.113.7', 'wrong'))).status,
      ).toBe(401);
    }
    expect((await t.request('GET', '/api/v1/admin/accounts', asClient('203.0.113.7', 'wrong'))).status).toBe(
      429,
    );
    // Another client behind the same proxy is not punished for the first one's guesses.
    expect((await t.request('GET', '/api/v1/admin/accounts', asClient('198.51.100.9', ROOT))).status).toBe(
      200,
    );
    // The nearest untrusted hop counts: a client cannot escape by prepending addresses.
    expect(
      (await t.request('GET', '/api/v1/admin/accounts', asClient('192.0.2.1, 203.0.113.7', 'wrong'))).status,
    ).toBe(429);
  });

  it.each([
    { case: 'no proxy trusted', trusted: undefined },
    { case: 'another proxy trusted', trusted: ['10.0.0.0/8'] },
  ])('ignores X-Forwarded-For from an untrusted peer: $case', async ({ trusted }) => {
    const t = await start(trusted);
    await t.request('GET', '/api/v1/admin/accounts', asClient('203.0.113.1', 'wrong-a'));
    await t.request('GET', '/api/v1/admin/accounts', asClient('203.0.113.2', 'wrong-b'));
    // All three count against the one TCP peer, whatever the header says…
    expect(
      (await t.request('GET', '/api/v1/admin/accounts', asClient('203.0.113.3', 'wrong-c'))).status,
    ).toBe(429);
    // …and a valid key is accepted all the same.
    expect((await t.request('GET', '/api/v1/admin/accounts', asClient('203.0.113.3', ROOT))).status).toBe(
      200,
    );
  });
});

describe('parseTrustedProxies', () => {
  it.each([
    { address: '127.0.0.1', trusted: true },
    { address: '::ffff:127.0.0.1', trusted: true },
    { address: '10.1.2.3', trusted: true },
    { address: '11.0.0.1', trusted: false },
    { address: 'fd00::1', trusted: true },
    { address: 'unknown', trusted: false },
  ])('$address → $trusted', ({ address, trusted }) => {
    expect(parseTrustedProxies(['127.0.0.1', '10.0.0.0/8', 'fd00::/8'])?.(address)).toBe(trusted);
  });

  it.each(['localhost', '10.0.0.0/33', '1.2.3'])('refuses %j', (entry) => {
    expect(() => parseTrustedProxies([entry])).toThrow(/SKILLPORT_TRUSTED_PROXIES: .* is not an IP address/);
  });

  it('reads SKILLPORT_TRUSTED_PROXIES as a comma list', () => {
    expect(optionsFromEnv({ SKILLPORT_TRUSTED_PROXIES: ' 127.0.0.1, 10.0.0.0/8 ,' }).trustedProxies).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
    ]);
  });
});
