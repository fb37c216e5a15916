/**
 * Resolving the caller of a request (the Auth section of the @skillport/server README): dev mode, the configured root key, or a stored
 * API key sent as `X-API-Key` or `Authorization: Bearer`.
 */
import { SkillportError } from '@skillport/core';
import { sharedChangeToken } from '../services/shared-change-token.js';
import type { Identity, Store } from '../store/types.js';
import { hashApiKey, hashesEqual } from './api-keys.js';

/** `dev`: no keys, loopback only, everyone is `default`/`default`; `api_key`: keys required. */
export type AuthMode = 'dev' | 'api_key';

/** The identity of every request in dev mode. */
export const DEV_IDENTITY: Readonly<Identity> = Object.freeze({
  accountId: 'default',
  userId: 'default',
  role: 'admin',
  keyId: null,
});

/** The identity of the configured root key (no account: root holds no data). */
export const ROOT_IDENTITY: Readonly<Identity> = Object.freeze({
  accountId: '*',
  userId: 'root',
  role: 'root',
  keyId: 'root-env',
});

/** Resolved keys kept at most (a burst of many different keys starts the set afresh). */
const MAX_KNOWN_KEYS = 10_000;

/** Reads the key of a request from `X-API-Key` or `Authorization: Bearer <key>`. */
export function extractApiKey(headers: { get(name: string): string | null | undefined }): string | null {
  const direct = headers.get('x-api-key');
  if (direct) return direct.trim();
  const auth = headers.get('authorization');
  if (auth) {
    const match = /^Bearer\s+(.+)$/i.exec(auth.trim());
    if (match?.[1]) return match[1].trim();
  }
  return null;
}

/** Resolves identities for one server. */
export interface Authenticator {
  /** Current mode; leaves `dev` for good once an API key is created. */
  readonly mode: AuthMode;
  /** Called after an API key is stored: dev mode ends at once (keys now guard every route). */
  keyCreated(): void;
  /**
   * Re-reads whether keys exist (in dev mode only; a key may have been created through another
   * replica). `token`: the store's change token read for this request (else read here).
   */
  refreshMode(token?: string): Promise<AuthMode>;
  /**
   * The store's change token (`Store.changeToken`), for a request to read once and pass on; the
   * requests of one event-loop turn share one read, made after each of them asked.
   */
  changeToken(): Promise<string>;
  /**
   * The caller of a request.
   *
   * @param key - the key sent, or null
   * @param token - the store's change token read for this request (else read here)
   * @returns the identity
   * @throws SkillportError `UNAUTHENTICATED` (401) when a key is required and missing, unknown or revoked
   */
  authenticate(key: string | null, token?: string): Promise<Identity>;
  /** Like `authenticate`, but null instead of throwing (used by `/health`). */
  tryAuthenticate(key: string | null, token?: string): Promise<Identity | null>;
  /**
   * The caller `authenticate(key, token)` would resolve, when it is known from memory without asking
   * the store: dev mode checked under `token`, or a stored key resolved under `token` (so a key revoked
   * or rotated anywhere — any commit changes the token — is never known here). Null when not certain
   * (an unknown, missing, revoked or root key, or a token the key was not resolved under): the caller
   * then authenticates as usual. Never throws, never reads the store.
   */
  knownIdentity(key: string | null, token: string): Identity | null;
}

/**
 * Creates the authenticator. Mode is `dev` when no root key is configured and the store holds no
 * API keys; it ends for good once a key exists in the store (checked on each request while in dev
 * mode, so a key created through another replica ends it here too). What the store answered — the
 * key count in dev mode, the caller of each key — is reused while the store's change token
 * (`Store.changeToken`) is unchanged, so a request costs no store call until something is written.
 *
 * @param store - where keys are looked up (by hash)
 * @param options.rootApiKey - the configured root key, if any
 */
export async function createAuthenticator(
  store: Store,
  options: { rootApiKey?: string | undefined },
): Promise<Authenticator> {
  const rootHash = options.rootApiKey ? hashApiKey(options.rootApiKey) : null;
  let mode: AuthMode = rootHash === null && (await store.countApiKeys()) === 0 ? 'dev' : 'api_key';
  // What the store said, kept while its change token stays the same (any commit anywhere — a key
  // created or revoked through another replica included — makes the next request ask again).
  let devCheckedAt: string | null = null;
  const known = new Map<string, { token: string; identity: Identity }>();
  // Requests of the same event-loop turn share one read of the token (see `sharedChangeToken`).
  const changeToken = sharedChangeToken(() => store.changeToken());

  async function refreshMode(given?: string): Promise<AuthMode> {
    if (mode !== 'dev') return mode;
    const token = given ?? (await changeToken());
    if (token === devCheckedAt) return mode;
    if ((await store.countApiKeys()) > 0) mode = 'api_key';
    else devCheckedAt = token;
    return mode;
  }

  async function tryAuthenticate(key: string | null, given?: string): Promise<Identity | null> {
    const token = given ?? (await changeToken());
    // Another replica (or process) on the same database may have created the first key: dev mode
    // ends for every replica as soon as a key exists, not only for the one that created it.
    if ((await refreshMode(token)) === 'dev') return { ...DEV_IDENTITY };
    if (!key) return null;
    const hash = hashApiKey(key);
    if (rootHash !== null && hashesEqual(hash, rootHash)) return { ...ROOT_IDENTITY };
    const kept = known.get(hash);
    if (kept !== undefined && kept.token === token) return { ...kept.identity };
    const record = await store.findApiKeyByHash(hash);
    if (!record || record.revokedAt !== null) {
      known.delete(hash);
      return null;
    }
    const identity: Identity = {
      accountId: record.accountId,
      userId: record.userId,
      role: record.role,
      keyId: record.id,
    };
    if (known.size >= MAX_KNOWN_KEYS) known.clear();
    known.set(hash, { token, identity });
    return { ...identity };
  }

  return {
    get mode() {
      return mode;
    },
    keyCreated() {
      mode = 'api_key';
    },
    tryAuthenticate,
    refreshMode,
    knownIdentity(key, token) {
      if (mode === 'dev') return devCheckedAt === token ? { ...DEV_IDENTITY } : null;
      if (!key) return null;
      const kept = known.get(hashApiKey(key));
      return kept !== undefined && kept.token === token ? { ...kept.identity } : null;
    },
    changeToken,
    async authenticate(key, token) {
      const identity = await tryAuthenticate(key, token);
      if (identity) return identity;
      if (!key) {
        throw new SkillportError(
          'UNAUTHENTICATED',
          'Missing API key: send it as `X-API-Key: <key>` or `Authorization: Bearer <key>`',
        );
      }
      throw new SkillportError('UNAUTHENTICATED', `Invalid or revoked API key (${key.slice(0, 6)}…)`);
    },
  };
}
