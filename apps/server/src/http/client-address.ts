/**
 * The address of the client of a request, seen through trusted reverse proxies (a load balancer in
 * front of several replicas): without this every request behind a proxy comes from the proxy's
 * address, and per-address limits (the wrong-key throttle) would lump all clients together.
 */
import { BlockList, isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { AppEnv } from './context.js';

/** `::ffff:127.0.0.1` → `127.0.0.1`; other addresses unchanged. */
function plain(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/**
 * Parses trusted proxy addresses: IPv4/IPv6 addresses or CIDR ranges (`10.0.0.0/8`, `fd00::/8`).
 *
 * @param entries - e.g. `['127.0.0.1', '::1', '10.0.0.0/8']`
 * @returns a matcher, or null when the list is empty (no proxy trusted)
 * @throws Error naming an entry that is neither an address nor a CIDR range
 */
export function parseTrustedProxies(entries: readonly string[]): ((address: string) => boolean) | null {
  if (entries.length === 0) return null;
  const list = new BlockList();
  for (const raw of entries) {
    const entry = raw.trim();
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address);
    const bits = prefix === undefined ? (family === 6 ? 128 : 32) : Number(prefix);
    if (family === 0 || !Number.isInteger(bits) || bits < 0 || bits > (family === 6 ? 128 : 32)) {
      throw new Error(
        `SKILLPORT_TRUSTED_PROXIES: ${JSON.stringify(entry)} is not an IP address or CIDR range (e.g. 127.0.0.1, 10.0.0.0/8, ::1)`,
      );
    }
    list.addSubnet(address, bits, family === 6 ? 'ipv6' : 'ipv4');
  }
  return (address) => {
    const ip = plain(address);
    const family = isIP(ip);
    return family !== 0 && list.check(ip, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/** The TCP peer of the request, or `unknown` when not served by the Node adapter (in-process fetch). */
export function peerAddress(c: Context<AppEnv>): string {
  // In-process fetch has no Node request: answered without the throw of `getConnInfo`.
  if ((c.env as { incoming?: unknown } | undefined)?.incoming === undefined) return 'unknown';
  try {
    const address = getConnInfo(c).remote.address;
    return address === undefined ? 'unknown' : plain(address);
  } catch {
    return 'unknown';
  }
}

/**
 * The client's address: the TCP peer, or — when the peer is a trusted proxy — the nearest address in
 * `X-Forwarded-For` (read right to left) that is not itself a trusted proxy. Untrusted peers cannot
 * choose their address by sending the header. The request entry (`request-entry.ts`) sets it as
 * `clientAddress` on every request.
 *
 * @param c - request context
 * @param trusted - from {@link parseTrustedProxies}; null trusts no proxy
 */
export function clientAddressOf(c: Context<AppEnv>, trusted: ((address: string) => boolean) | null): string {
  const peer = peerAddress(c);
  return trusted?.(peer) ? addressThroughProxies(peer, c.req.header('x-forwarded-for'), trusted) : peer;
}

/**
 * {@link clientAddressOf} from the TCP peer's address as Node gives it (`socket.remoteAddress`) and
 * the request's `X-Forwarded-For`.
 *
 * @param remoteAddress - the peer's address, or undefined when unknown (`unknown` then)
 * @param forwardedFor - the `X-Forwarded-For` header, if any
 * @param trusted - from {@link parseTrustedProxies}; null trusts no proxy
 */
export function clientAddressFrom(
  remoteAddress: string | undefined,
  forwardedFor: string | undefined,
  trusted: ((address: string) => boolean) | null,
): string {
  const peer = remoteAddress === undefined ? 'unknown' : plain(remoteAddress);
  return trusted?.(peer) ? addressThroughProxies(peer, forwardedFor, trusted) : peer;
}

/** The nearest address of `X-Forwarded-For` (right to left) not itself trusted, else `peer`. */
function addressThroughProxies(
  peer: string,
  forwardedFor: string | undefined,
  trusted: (address: string) => boolean,
): string {
  let address = peer;
  const hops = (forwardedFor ?? '')
    .split(',')
    .map((hop) => plain(hop.trim()))
    .filter((hop) => isIP(hop) !== 0);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string;
    address = hop;
    if (!trusted(hop)) break;
  }
  return address;
}
