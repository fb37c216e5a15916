/**
 * A skill as the registry holds it, fetched for installing: its revision and files (the generated
 * `.abstract.md` / `.overview.md` left out), each download checked against its sha-256.
 */
import type { AsyncHTTPClient } from '@skillport/sdk-node';
import pMap from 'p-map';
import { CliError, EXIT } from './io.js';
import { checkRelativePath, type FileDigest, sha256Hex } from './skill-folder.js';

/** Files the server generates; an agent's copy of a skill does not include them. */
const GENERATED = new Set(['.abstract.md', '.overview.md']);

/** Downloads at once per skill. */
const FILE_CONCURRENCY = 4;

/** A skill on the server at one revision. */
export interface RemoteSkill {
  name: string;
  rootUri: string;
  revision: string;
  /** The files an agent gets, sorted by path. */
  files: FileDigest[];
}

/**
 * Looks a skill up on the server: the current revision, or `revision` (full or a prefix).
 *
 * @param targetUri - the skill root to look in (default: the user root, then the agent root)
 * @throws the client's errors (`NotFoundError` for an unknown skill or revision)
 */
export async function resolveRemoteSkill(
  client: AsyncHTTPClient,
  name: string,
  options: { revision?: string | undefined; targetUri?: string | undefined },
): Promise<RemoteSkill> {
  const result = await client.getSkill(name, {
    level: 0,
    include_files: true,
    ...(options.revision ? { revision: options.revision } : {}),
    ...(options.targetUri ? { target_uri: options.targetUri } : {}),
  });
  const files = (result.files ?? [])
    .filter((f) => !f.is_dir && f.kind !== 'summary' && !GENERATED.has(f.path))
    .map((f) => ({
      path: checkRelativePath(result.name, f.path),
      sha256: f.sha256 ?? '',
      size: f.size,
      ...(f.executable === true ? { executable: true } : {}),
    }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (!files.some((f) => f.path === 'SKILL.md')) {
    throw new CliError(`the server listed no SKILL.md for ${result.name}`, EXIT.server);
  }
  return { name: result.name, rootUri: result.root_uri, revision: result.revision, files };
}

/**
 * Downloads every file of a skill at its revision and checks each one's sha-256 and size against
 * `expected` (the server's listing, or a lock file's).
 *
 * @returns path → bytes
 * @throws CliError (exit 2) when a download does not match: nothing should be written then
 */
export async function downloadSkillFiles(
  client: AsyncHTTPClient,
  skill: { name: string; rootUri: string; revision: string },
  expected: readonly FileDigest[],
): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  await pMap(
    expected,
    async (file) => {
      const got = await client.getSkillFile(skill.name, file.path, {
        revision: skill.revision,
        target_uri: skill.rootUri,
      });
      const digest = sha256Hex(got.bytes);
      if (digest !== file.sha256 || got.bytes.byteLength !== file.size) {
        throw new CliError(
          `${skill.name}/${file.path} at revision ${skill.revision.slice(0, 12)} has sha-256 ${digest.slice(0, 12)}… ` +
            `(${got.bytes.byteLength} bytes), expected ${file.sha256.slice(0, 12)}… (${file.size} bytes); nothing was written`,
          EXIT.server,
        );
      }
      out.set(file.path, got.bytes);
    },
    { concurrency: FILE_CONCURRENCY },
  );
  return out;
}
