import { describe, expect, it } from 'vitest';
import { parseVikingUri } from '../../src/uri.js';
import { CreateApiKeyRequestSchema, CreateUserRequestSchema } from '../../src/wire/admin.js';

/** True when the user's own root, `viking://user/{user_id}/skills`, is a URI the server accepts. */
function rootIsUsable(userId: string): boolean {
  try {
    parseVikingUri(`viking://user/${userId}/skills`, { userId });
    return true;
  } catch {
    return false;
  }
}

describe('admin user ids', () => {
  // A user the admin routes create must be able to use their own skill root afterwards.
  it.each([
    ['alice', true],
    ['alice@example.com', true],
    ['a.b', true],
    ['...', true],
    ['.', false],
    ['..', false],
    ['~', false],
    ['', false],
    ['a/b', false],
    [' bob ', false],
  ])('%j accepted: %s (same verdict as the URI parser)', (userId, accepted) => {
    expect(CreateUserRequestSchema.safeParse({ user_id: userId }).success).toBe(accepted);
    expect(CreateApiKeyRequestSchema.safeParse({ user_id: userId }).success).toBe(accepted);
    expect(rootIsUsable(userId)).toBe(accepted);
  });
});
