/**
 * Accounts, users and API keys (`/api/v1/admin/…`). Root manages every account; an admin manages
 * only its own account and cannot mint root keys.
 */
import { type ApiKeyInfo, type CreatedApiKey, SkillportError } from '@skillport/core';
import { generateApiKey } from '../auth/api-keys.js';
import type { ApiKeyRecord, Identity, Role } from '../store/types.js';
import type { ServiceDeps } from './deps.js';

/**
 * Refuses a caller that may not manage `accountId`.
 *
 * @throws SkillportError `PERMISSION_DENIED`
 */
export function assertManages(identity: Identity, accountId: string): void {
  if (identity.role === 'root') return;
  if (identity.role === 'admin' && identity.accountId === accountId) return;
  throw new SkillportError('PERMISSION_DENIED', `You may not manage account ${JSON.stringify(accountId)}`, {
    details: { account_id: accountId, role: identity.role },
  });
}

async function assertAccountExists(deps: ServiceDeps, accountId: string): Promise<void> {
  const accounts = await deps.store.listAccounts();
  if (!accounts.includes(accountId)) {
    throw new SkillportError('NOT_FOUND', `Account ${JSON.stringify(accountId)} not found`, {
      details: { type: 'account', resource: accountId },
    });
  }
}

/** A stored key as listed. */
export function toKeyInfo(record: ApiKeyRecord): ApiKeyInfo {
  return {
    key_id: record.id,
    account_id: record.accountId,
    user_id: record.userId,
    role: record.role,
    prefix: record.prefix,
    created_at: new Date(record.createdAt).toISOString(),
    revoked_at: record.revokedAt === null ? null : new Date(record.revokedAt).toISOString(),
  };
}

/** Creates an account (root only); idempotent. */
export async function createAccount(deps: ServiceDeps, identity: Identity, accountId: string) {
  if (identity.role !== 'root') {
    throw new SkillportError('PERMISSION_DENIED', 'Only root keys create accounts', {
      details: { role: identity.role },
    });
  }
  await deps.store.ensureAccount(accountId);
  return { account_id: accountId };
}

/** Lists accounts: all for root, the own one for admins. */
export async function listAccounts(deps: ServiceDeps, identity: Identity) {
  const accounts = await deps.store.listAccounts();
  return { accounts: identity.role === 'root' ? accounts : accounts.filter((a) => a === identity.accountId) };
}

/** Creates a user in an account (idempotent). @throws `NOT_FOUND` for a missing account */
export async function createUser(deps: ServiceDeps, identity: Identity, accountId: string, userId: string) {
  assertManages(identity, accountId);
  await assertAccountExists(deps, accountId);
  await deps.store.ensureUser(accountId, userId);
  return { account_id: accountId, user_id: userId };
}

/** Lists the users of an account. */
export async function listUsers(deps: ServiceDeps, identity: Identity, accountId: string) {
  assertManages(identity, accountId);
  await assertAccountExists(deps, accountId);
  return { account_id: accountId, users: await deps.store.listUsers(accountId) };
}

/**
 * Creates an API key for a user of an account; the user must exist.
 *
 * @returns the key info plus `api_key`, the secret, shown this once
 */
export async function createKey(
  deps: ServiceDeps,
  identity: Identity,
  accountId: string,
  userId: string,
  role: Role,
): Promise<CreatedApiKey> {
  assertManages(identity, accountId);
  if (identity.keyId === null && role !== 'admin') {
    // Dev mode (no key yet): the first key ends dev mode for good, and only admin or root keys can
    // manage keys afterwards — a first key with a weaker role would lock everyone out.
    throw new SkillportError(
      'INVALID_ARGUMENT',
      `The first API key must have role "admin": creating it ends dev mode, and only an admin (or root) key can manage keys afterwards. Create it with role "admin" (skillport keys create --user ${userId} --role admin), then create ${JSON.stringify(role)} keys with it.`,
      { details: { field: 'role', expected: 'admin', actual: role } },
    );
  }
  await assertAccountExists(deps, accountId);
  const users = await deps.store.listUsers(accountId);
  if (!users.includes(userId)) {
    throw new SkillportError(
      'NOT_FOUND',
      `User ${JSON.stringify(userId)} not found in account ${JSON.stringify(accountId)}`,
      {
        details: { type: 'user', resource: `${accountId}/${userId}` },
      },
    );
  }
  const { key, hash, prefix } = generateApiKey();
  const record = await deps.store.createApiKey({ accountId, userId, role, prefix, hash });
  deps.onApiKeyCreated();
  return { ...toKeyInfo(record), api_key: key };
}

/** Lists the keys of an account (never the secrets). */
export async function listKeys(deps: ServiceDeps, identity: Identity, accountId: string) {
  assertManages(identity, accountId);
  return { keys: (await deps.store.listApiKeys(accountId)).map(toKeyInfo) };
}

/** Revokes a key of an account. @throws `NOT_FOUND` when the key is not in that account */
export async function revokeKey(deps: ServiceDeps, identity: Identity, accountId: string, keyId: string) {
  assertManages(identity, accountId);
  const keys = await deps.store.listApiKeys(accountId);
  if (!keys.some((k) => k.id === keyId)) {
    throw new SkillportError(
      'NOT_FOUND',
      `API key ${JSON.stringify(keyId)} not found in account ${JSON.stringify(accountId)}`,
      {
        details: { type: 'api_key', resource: keyId },
      },
    );
  }
  return { key_id: keyId, revoked: await deps.store.revokeApiKey(keyId) };
}
