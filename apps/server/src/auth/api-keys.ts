/**
 * API key material: generation (`sk_` + 32 random bytes, base64url) and the sha-256 hash stored in
 * place of the key.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Characters of a key kept (in clear) for display, e.g. `sk_AbCdEfG`. */
export const API_KEY_PREFIX_LENGTH = 10;

/**
 * Generates a new API key.
 *
 * @returns `{key, hash, prefix}`: the secret (shown once), its sha-256 hex, and a display prefix
 * @example const { key, hash } = generateApiKey(); // key = 'sk_…' (46 chars)
 */
export function generateApiKey(): { key: string; hash: string; prefix: string } {
  const key = `sk_${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, API_KEY_PREFIX_LENGTH) };
}

/** sha-256 hex of a key, as stored. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex hashes. */
export function hashesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
