/**
 * The Node flavour of `AsyncHTTPClient`: the runtime-neutral client of `@skillport/sdk-browser`,
 * plus local paths — a string naming an existing file is uploaded as is, a folder is zipped
 * (SKILL.md at the archive root; symlinks and entries escaping the folder left out) and uploaded.
 */
import {
  type AddSkillOptions,
  AsyncHTTPClient as BaseClient,
  type SkillSource,
  type UpdateSkillOptions,
} from '@skillport/sdk-browser';
import type { SkillAddResult, SkillUpdateResult, TempUploadResult } from '@skillport/spec';
import { readLocalSource } from '#local-source';

/**
 * Typed asynchronous Skillport client for Node, accepting local files and folders.
 *
 * Everything of the browser client, and: `addSkill('./skills/my-skill')` zips the folder and uploads
 * it through `temp_upload`; `addSkill('./my-skill/SKILL.md')` uploads the file. A one-line string that
 * looks like a path (`./x`, `a/b`, `*.md`, `*.zip`) but names nothing is refused locally with an
 * `Error`, instead of being sent as content.
 *
 * @example
 * ```ts
 * import { AsyncHTTPClient } from '@skillport/sdk-node';
 * const client = new AsyncHTTPClient({ url: process.env.SKILLPORT_URL });
 * const added = await client.addSkill('./skills/pdf-tools', { wait: true });
 * console.log(added.uri, added.auxiliary_files);
 * ```
 * @see the @skillport/sdk-node README, the OpenAPI document: `POST /api/v1/skills`, `POST /api/v1/resources/temp_upload`
 */
export class AsyncHTTPClient extends BaseClient {
  /**
   * Adds a skill; see the browser client's `addSkill`. A string naming an existing local file or
   * folder is uploaded (folders zipped first).
   * @throws LocalError (nothing sent) when a path-like string names nothing (`NOT_FOUND`), a folder
   *   cannot be zipped as a skill (the code of `zipSkillDir`) or a file cannot be read; the browser
   *   client's errors otherwise.
   */
  override async addSkill(source: SkillSource, options: AddSkillOptions = {}): Promise<SkillAddResult> {
    const [resolved, resolvedOptions] = await resolveLocal(source, options);
    return super.addSkill(resolved, resolvedOptions);
  }

  /**
   * Uploads a file for a later add or update; see the browser client's `tempUpload`. A string names a
   * local file (uploaded as it is, under its own name) or folder (zipped as {@link addSkill} zips it,
   * named `<folder>.zip`).
   * @throws LocalError (nothing sent) when a string names nothing (`NOT_FOUND` for a path-like one,
   *   `INVALID_ARGUMENT` for other text, which is not uploaded as bytes), a folder cannot be zipped as
   *   a skill or a file cannot be read; the browser client's errors otherwise.
   */
  override async tempUpload(
    file: Blob | Uint8Array | string,
    options: Parameters<BaseClient['tempUpload']>[1] = {},
  ): Promise<TempUploadResult> {
    if (typeof file !== 'string') return super.tempUpload(file, options);
    const local = await readLocalSource(file);
    if (!local) return super.tempUpload(file as unknown as Uint8Array, options);
    return super.tempUpload(local.bytes, { ...options, filename: options.filename ?? local.filename });
  }

  /**
   * Replaces a skill; see the browser client's `updateSkill`. Local files and folders as in {@link addSkill}.
   */
  override async updateSkill(
    name: string,
    source: SkillSource,
    options: UpdateSkillOptions = {},
  ): Promise<SkillUpdateResult> {
    const [resolved, resolvedOptions] = await resolveLocal(source, options);
    return super.updateSkill(name, resolved, resolvedOptions);
  }
}

/** Turns a string naming a local file or folder into an upload `Blob` with its file name. */
async function resolveLocal<T extends AddSkillOptions>(
  source: SkillSource,
  options: T,
): Promise<[SkillSource, T]> {
  if (typeof source !== 'string') return [source, options];
  const local = await readLocalSource(source);
  if (!local) return [source, options];
  const blob = new Blob([local.bytes as Uint8Array<ArrayBuffer>]);
  return [blob, { ...options, filename: options.filename ?? local.filename }];
}
