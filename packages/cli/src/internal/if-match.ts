/**
 * `--if-match <revision>` as the tables show revisions: their first 12 characters. `restore` and
 * `install name@rev` take such a prefix; an `If-Match` header needs the whole revision, which the
 * server compares exactly.
 */
import type { AsyncHTTPClient } from '@skillport/sdk-node';
import { isApiError } from '@skillport/sdk-node';

/** A revision prefix as `restore` takes one: 4 to 63 hexadecimal characters. */
const PREFIX = /^[0-9a-f]{4,63}$/i;

/**
 * The value to send as `If-Match` for `--if-match <revision>`: a prefix of the skill's current
 * revision is completed from the server; anything else — a whole revision, a quoted ETag, a prefix
 * of another revision, a skill that does not exist — is sent as given, so a stale one still gets
 * the server's 412 `CONFLICT` naming the current revision. Completing it is as safe as sending the
 * whole revision: if the skill changes between this read and the write, the write is refused.
 * @param client - the client of the command.
 * @param name - the skill name.
 * @param value - what `--if-match` was given.
 * @param targetUri - the skill root of the write (`--target`), if any.
 * @returns the revision or ETag to send.
 */
export async function completeIfMatch(
  client: AsyncHTTPClient,
  name: string,
  value: string,
  targetUri: string | undefined,
): Promise<string> {
  const wanted = value.trim();
  if (!PREFIX.test(wanted)) return value;
  try {
    const current = await client.getSkill(name, {
      level: 0,
      include_files: false,
      ...(targetUri ? { target_uri: targetUri } : {}),
    });
    return current.revision.toLowerCase().startsWith(wanted.toLowerCase()) ? current.revision : value;
  } catch (error) {
    // No current skill to complete it from (deleted, a restore of it): the server answers the write.
    if (isApiError(error) && error.code === 'NOT_FOUND') return value;
    throw error;
  }
}
