/**
 * Wire schemas of the administration routes (`/api/v1/admin/…`): accounts, users and API keys.
 * Root keys manage every account; admin keys manage their own account.
 */
import { z } from 'zod';
import { USER_ID_PATTERN } from '../uri.js';

const ACCOUNT_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const accountIdField = z
  .string()
  .regex(ACCOUNT_ID_PATTERN, 'account_id must be 1–64 characters of [A-Za-z0-9_-], e.g. "acme"');
const userIdField = z
  .string()
  .max(128, 'user_id must be at most 128 characters')
  .regex(USER_ID_PATTERN, 'user_id must use only [A-Za-z0-9_.@-], e.g. "alice" or "alice@example.com"')
  // `viking://user/./skills` and `viking://user/../skills` are refused as URIs, so such a user could
  // never reach their own skill root.
  .refine((id) => id !== '.' && id !== '..', 'user_id must not be "." or ".."');

/** Body of `POST /api/v1/admin/accounts`. */
export const CreateAccountRequestSchema = z
  .strictObject({ account_id: accountIdField })
  .meta({ id: 'CreateAccountRequest' });

/** Result of account creation. */
export const AccountResultSchema = z.object({ account_id: z.string() }).meta({ id: 'AccountResult' });

/** Result of `GET /api/v1/admin/accounts`. */
export const ListAccountsResultSchema = z
  .object({ accounts: z.array(z.string()) })
  .meta({ id: 'ListAccountsResult' });

/** Body of `POST /api/v1/admin/accounts/{account_id}/users`. */
export const CreateUserRequestSchema = z
  .strictObject({ user_id: userIdField })
  .meta({ id: 'CreateUserRequest' });

/** Result of user creation. */
export const UserResultSchema = z
  .object({ account_id: z.string(), user_id: z.string() })
  .meta({ id: 'UserResult' });

/** Result of `GET /api/v1/admin/accounts/{account_id}/users`. */
export const ListUsersResultSchema = z
  .object({ account_id: z.string(), users: z.array(z.string()) })
  .meta({ id: 'ListUsersResult' });

/** Body of `POST /api/v1/admin/accounts/{account_id}/keys`. */
export const CreateApiKeyRequestSchema = z
  .strictObject({
    user_id: userIdField,
    role: z.enum(['admin', 'user']).optional().meta({ description: 'Default `user`' }),
  })
  .meta({ id: 'CreateApiKeyRequest' });

/** An API key as listed (never the key itself). */
export const ApiKeyInfoSchema = z
  .object({
    key_id: z.string(),
    account_id: z.string(),
    user_id: z.string(),
    role: z.enum(['root', 'admin', 'user']),
    prefix: z.string(),
    created_at: z.string(),
    revoked_at: z.string().nullable(),
  })
  .meta({ id: 'ApiKeyInfo' });

/** Result of key creation: the key is shown this once. */
export const CreatedApiKeySchema = ApiKeyInfoSchema.extend({
  api_key: z.string().meta({ description: 'The secret; shown once, stored only as a hash' }),
}).meta({ id: 'CreatedApiKey' });

/** Result of `GET /api/v1/admin/accounts/{account_id}/keys`. */
export const ListApiKeysResultSchema = z
  .object({ keys: z.array(ApiKeyInfoSchema) })
  .meta({ id: 'ListApiKeysResult' });

/** Result of key revocation. */
export const RevokeApiKeyResultSchema = z
  .object({ key_id: z.string(), revoked: z.boolean() })
  .meta({ id: 'RevokeApiKeyResult' });

export type CreateAccountRequest = z.infer<typeof CreateAccountRequestSchema>;
export type CreateUserRequest = z.infer<typeof CreateUserRequestSchema>;
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequestSchema>;
export type ApiKeyInfo = z.infer<typeof ApiKeyInfoSchema>;
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;
