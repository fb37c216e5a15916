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
  .strictObject({
    account_id: accountIdField.meta({
      description: 'New account id: 1–64 characters of `[A-Za-z0-9_-]`; creating an existing one is a no-op',
      example: 'acme',
    }),
  })
  .meta({ id: 'CreateAccountRequest', description: 'Body of account creation (root keys only)' });

/** Result of account creation. */
export const AccountResultSchema = z
  .object({ account_id: z.string().meta({ description: 'The account id', example: 'acme' }) })
  .meta({ id: 'AccountResult', description: 'The created (or already existing) account' });

/** Result of `GET /api/v1/admin/accounts`. */
export const ListAccountsResultSchema = z
  .object({
    accounts: z.array(z.string()).meta({
      description: "Account ids: every account for root keys, only the caller's own for admin keys",
      example: ['acme', 'default'],
    }),
  })
  .meta({ id: 'ListAccountsResult', description: 'Result of listing accounts' });

/** Body of `POST /api/v1/admin/accounts/{account_id}/users`. */
export const CreateUserRequestSchema = z
  .strictObject({
    user_id: userIdField.meta({
      description:
        'New user id: up to 128 characters of `[A-Za-z0-9_.@-]`, not `.` or `..` (it names the user root ' +
        '`viking://user/{user_id}/skills`); creating an existing one is a no-op',
      example: 'alice',
    }),
  })
  .meta({ id: 'CreateUserRequest', description: 'Body of user creation (root, or an admin of the account)' });

/** Result of user creation. */
export const UserResultSchema = z
  .object({
    account_id: z.string().meta({ description: 'The account', example: 'acme' }),
    user_id: z.string().meta({ description: 'The created (or already existing) user', example: 'alice' }),
  })
  .meta({ id: 'UserResult', description: 'The created user' });

/** Result of `GET /api/v1/admin/accounts/{account_id}/users`. */
export const ListUsersResultSchema = z
  .object({
    account_id: z.string().meta({ description: 'The account listed', example: 'acme' }),
    users: z.array(z.string()).meta({ description: 'User ids of the account', example: ['alice', 'bob'] }),
  })
  .meta({ id: 'ListUsersResult', description: 'Result of listing the users of an account' });

/** Body of `POST /api/v1/admin/accounts/{account_id}/keys`. */
export const CreateApiKeyRequestSchema = z
  .strictObject({
    user_id: userIdField.meta({
      description: 'The user the key acts as; must exist in the account',
      example: 'alice',
    }),
    role: z
      .enum(['admin', 'user'])
      .optional()
      .meta({
        description:
          "`user` (default): data routes only; `admin`: also manages the account's users and keys. The first " +
          'key, created in dev mode, must be `admin` (it ends dev mode).',
        example: 'user',
      }),
  })
  .meta({
    id: 'CreateApiKeyRequest',
    description: 'Body of API key creation (root, or an admin of the account)',
    examples: [{ user_id: 'alice', role: 'user' }],
  });

/** An API key as listed (never the key itself). */
export const ApiKeyInfoSchema = z
  .object({
    key_id: z.string().meta({ description: 'Id of the key (not the secret); use it to revoke the key' }),
    account_id: z.string().meta({ description: 'Account the key belongs to', example: 'acme' }),
    user_id: z.string().meta({ description: 'User the key acts as', example: 'alice' }),
    role: z.enum(['root', 'admin', 'user']).meta({
      description: 'Role of the key: `root` > `admin` > `user`',
      example: 'user',
    }),
    prefix: z.string().meta({
      description: 'First 10 characters of the secret, to recognise a key; the secret itself is never stored',
    }),
    created_at: z.string().meta({
      description: 'When the key was created, ISO 8601 UTC with milliseconds',
      example: '2026-01-31T09:30:00.000Z',
    }),
    revoked_at: z.string().nullable().meta({
      description: 'When the key was revoked (ISO 8601 UTC), or null while it is live',
      example: null,
    }),
  })
  .meta({ id: 'ApiKeyInfo', description: 'An API key as listed; never the secret' });

/** Result of key creation: the key is shown this once. */
export const CreatedApiKeySchema = ApiKeyInfoSchema.extend({
  api_key: z.string().meta({
    description:
      'The secret, shown this once and stored only as a hash: send it as `X-API-Key` or `Authorization: Bearer`',
  }),
}).meta({ id: 'CreatedApiKey', description: 'A new API key: its listing plus the secret `api_key`' });

/** Result of `GET /api/v1/admin/accounts/{account_id}/keys`. */
export const ListApiKeysResultSchema = z
  .object({
    keys: z.array(ApiKeyInfoSchema).meta({ description: 'Every key of the account, revoked ones included' }),
  })
  .meta({ id: 'ListApiKeysResult', description: 'Result of listing the API keys of an account' });

/** Result of key revocation. */
export const RevokeApiKeyResultSchema = z
  .object({
    key_id: z.string().meta({ description: 'The key revoked' }),
    revoked: z
      .boolean()
      .meta({ description: 'True when the key was live and is now revoked; false when it already was' }),
  })
  .meta({ id: 'RevokeApiKeyResult', description: 'Result of revoking an API key' });

export type CreateAccountRequest = z.infer<typeof CreateAccountRequestSchema>;
export type CreateUserRequest = z.infer<typeof CreateUserRequestSchema>;
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequestSchema>;
export type ApiKeyInfo = z.infer<typeof ApiKeyInfoSchema>;
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;
