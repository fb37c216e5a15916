/**
 * Administration routes (`/api/v1/admin/…`): accounts, users, API keys. Root keys manage every
 * account; admin keys their own; user keys get 403.
 */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import {
  AccountResultSchema,
  CreateAccountRequestSchema,
  CreateApiKeyRequestSchema,
  CreatedApiKeySchema,
  CreateUserRequestSchema,
  ListAccountsResultSchema,
  ListApiKeysResultSchema,
  ListUsersResultSchema,
  RevokeApiKeyResultSchema,
  UserResultSchema,
} from '@skillport/core';
import { z } from 'zod';
import type { AppEnv } from '../http/context.js';
import { okBody } from '../http/envelope.js';
import * as admin from '../services/admin.js';
import type { ServiceDeps } from '../services/deps.js';
import { errorResponses, jsonBody, okResponse } from './common.js';

const AccountParams = z.object({
  account_id: z.string().meta({
    param: { name: 'account_id', in: 'path' },
    description: 'Account id (1–64 characters of `[A-Za-z0-9_-]`)',
    example: 'acme',
  }),
});
const KeyParams = AccountParams.extend({
  key_id: z.string().meta({
    param: { name: 'key_id', in: 'path' },
    description: 'Id of the key, as listed (`key_id`), not the secret',
  }),
});
const base = { tags: ['admin'] };

const routes = {
  createAccount: createRoute({
    ...base,
    method: 'post',
    path: '/api/v1/admin/accounts',
    operationId: 'adminCreateAccount',
    summary: 'Create an account (root)',
    description:
      'Creates an account; idempotent (an existing id answers the same). Root keys only: admin and user ' +
      'keys get 403 `PERMISSION_DENIED`.',
    request: { body: jsonBody(CreateAccountRequestSchema) },
    responses: { ...okResponse(AccountResultSchema, 'AccountResponse', 'Created'), ...errorResponses },
  }),
  listAccounts: createRoute({
    ...base,
    method: 'get',
    path: '/api/v1/admin/accounts',
    operationId: 'adminListAccounts',
    summary: 'List accounts (root: all; admin: its own)',
    description: "Lists account ids: every account for root keys, only the caller's own for admin keys.",
    responses: {
      ...okResponse(ListAccountsResultSchema, 'ListAccountsResponse', 'Accounts'),
      ...errorResponses,
    },
  }),
  createUser: createRoute({
    ...base,
    method: 'post',
    path: '/api/v1/admin/accounts/{account_id}/users',
    operationId: 'adminCreateUser',
    summary: 'Create a user in an account',
    description:
      'Creates a user (idempotent). Root, or an admin of the account; the account must exist (404 otherwise). ' +
      "The user's skill root is `viking://user/{user_id}/skills`.",
    request: { params: AccountParams, body: jsonBody(CreateUserRequestSchema) },
    responses: { ...okResponse(UserResultSchema, 'UserResponse', 'Created'), ...errorResponses },
  }),
  listUsers: createRoute({
    ...base,
    method: 'get',
    path: '/api/v1/admin/accounts/{account_id}/users',
    operationId: 'adminListUsers',
    summary: 'List the users of an account',
    description:
      'Lists the user ids of an account (root, or an admin of the account; 404 for a missing account).',
    request: { params: AccountParams },
    responses: { ...okResponse(ListUsersResultSchema, 'ListUsersResponse', 'Users'), ...errorResponses },
  }),
  createKey: createRoute({
    ...base,
    method: 'post',
    path: '/api/v1/admin/accounts/{account_id}/keys',
    operationId: 'adminCreateKey',
    summary: 'Create an API key for a user (the key is returned once)',
    description:
      'Creates a key acting as an existing user of the account, with role `user` (default) or `admin`. The ' +
      'secret `api_key` is in this response only; it is stored as a hash. In dev mode the first key must ' +
      'be `admin`, and creating it ends dev mode.',
    request: { params: AccountParams, body: jsonBody(CreateApiKeyRequestSchema) },
    responses: { ...okResponse(CreatedApiKeySchema, 'CreatedApiKeyResponse', 'Created'), ...errorResponses },
  }),
  listKeys: createRoute({
    ...base,
    method: 'get',
    path: '/api/v1/admin/accounts/{account_id}/keys',
    operationId: 'adminListKeys',
    summary: 'List the API keys of an account (never the secrets)',
    description: 'Lists every key of the account, revoked ones included, with id, user, role and prefix.',
    request: { params: AccountParams },
    responses: { ...okResponse(ListApiKeysResultSchema, 'ListApiKeysResponse', 'Keys'), ...errorResponses },
  }),
  revokeKey: createRoute({
    ...base,
    method: 'delete',
    path: '/api/v1/admin/accounts/{account_id}/keys/{key_id}',
    operationId: 'adminRevokeKey',
    summary: 'Revoke an API key',
    description:
      'Revokes a key of the account at once (later requests with it get 401); 404 when the key is not in ' +
      'that account. Revoking a revoked key answers `revoked: false`.',
    request: { params: KeyParams },
    responses: {
      ...okResponse(RevokeApiKeyResultSchema, 'RevokeApiKeyResponse', 'Revoked'),
      ...errorResponses,
    },
  }),
};

/** Registers the admin routes. */
export function registerAdminRoutes(app: OpenAPIHono<AppEnv>, deps: ServiceDeps): void {
  app.openapi(routes.createAccount, async (c) => {
    const body = c.req.valid('json');
    return c.json(okBody(c, await admin.createAccount(deps, c.get('identity'), body.account_id)), 200);
  });
  app.openapi(routes.listAccounts, async (c) =>
    c.json(okBody(c, await admin.listAccounts(deps, c.get('identity'))), 200),
  );
  app.openapi(routes.createUser, async (c) => {
    const { account_id } = c.req.valid('param');
    const body = c.req.valid('json');
    return c.json(okBody(c, await admin.createUser(deps, c.get('identity'), account_id, body.user_id)), 200);
  });
  app.openapi(routes.listUsers, async (c) => {
    const { account_id } = c.req.valid('param');
    return c.json(okBody(c, await admin.listUsers(deps, c.get('identity'), account_id)), 200);
  });
  app.openapi(routes.createKey, async (c) => {
    const { account_id } = c.req.valid('param');
    const body = c.req.valid('json');
    const result = await admin.createKey(
      deps,
      c.get('identity'),
      account_id,
      body.user_id,
      body.role ?? 'user',
    );
    return c.json(okBody(c, result), 200);
  });
  app.openapi(routes.listKeys, async (c) => {
    const { account_id } = c.req.valid('param');
    return c.json(okBody(c, await admin.listKeys(deps, c.get('identity'), account_id)), 200);
  });
  app.openapi(routes.revokeKey, async (c) => {
    const { account_id, key_id } = c.req.valid('param');
    return c.json(okBody(c, await admin.revokeKey(deps, c.get('identity'), account_id, key_id)), 200);
  });
}
