/**
 * The registry an MCP server fronts: the few reads the tools, resources and prompts need, and an
 * optional change signal. `skillport mcp` implements it over the HTTP client; the server's `/mcp`
 * route implements it over its own services with the caller's identity.
 */
import type { FindSkillsResult, GetSkillResult, ListSkillsResult } from '@skillport/core';

/** Options of {@link SkillRegistry.find}. */
export interface RegistryFindOptions {
  /** Most hits, 1–50. */
  limit: number;
  /** One skill root to search (`viking://user/{id}/skills`, `viking://~/skills`, `viking://agent/skills`); default both. */
  targetUri?: string;
}

/** Options of {@link SkillRegistry.get}. */
export interface RegistryGetOptions {
  /** One level only: 0 = L0 abstract, 1 = L1 overview, 2 = L2 SKILL.md; absent = all three. */
  level?: 0 | 1 | 2;
  /** The root to look in; default the user root, then the agent root. */
  targetUri?: string;
}

/** Options of {@link SkillRegistry.list}. */
export interface RegistryListOptions {
  /** Most skills (the first ones by root then name: user root before agent root). */
  limit: number;
  /**
   * Continue after a previous page: its `next_cursor` (opaque; `GET /api/v1/skills?cursor=`). A
   * registry that pages by cursor answers with `has_more` and, when more follow, `next_cursor`.
   */
  cursor?: string;
  /** One root; default both. */
  targetUri?: string;
}

/** One file's bytes, as {@link SkillRegistry.readFile} returns them. */
export interface RegistryFile {
  /** URI of the file (`<skill uri>/<path>` in the root that holds the skill), when known. */
  uri?: string;
  /** The bytes exactly as stored. */
  content: Uint8Array;
  /** sha-256 of the content (64 lowercase hex), when known. */
  sha256?: string;
}

/**
 * What an MCP server needs from a Skillport registry. Results use the wire types of the HTTP API
 * (`@skillport/core`), so an implementation over the HTTP client passes them through.
 *
 * Errors: throw the registry's own error with a string `code` — `NOT_FOUND` (unknown skill or file),
 * `INVALID_ARGUMENT`, `INVALID_URI`, `PERMISSION_DENIED`, … (`SkillportError` on the server,
 * `ApiError` in the clients). Their messages reach the model as tool errors, so they should say what
 * was wrong; any other error is reported as the registry being unavailable.
 */
export interface SkillRegistry {
  /** Ranked search (`POST /api/v1/skills/find`). */
  find(query: string, options: RegistryFindOptions): Promise<FindSkillsResult>;
  /** One skill at one level or all, with its file list (`GET /api/v1/skills/{name}`). */
  get(name: string, options: RegistryGetOptions): Promise<GetSkillResult>;
  /**
   * The first `limit` skills of both roots or one, or the `limit` after `cursor` (`GET /api/v1/skills`),
   * with the total.
   */
  list(options: RegistryListOptions): Promise<ListSkillsResult>;
  /** One file of a skill, byte for byte (`GET /api/v1/skills/{name}/files/{path}`). */
  readFile(name: string, path: string, options: { targetUri?: string }): Promise<RegistryFile>;
  /**
   * Calls `onChange` after skills were added, replaced or deleted (coalescing is the caller's job);
   * returns the function that stops watching. Without it the server announces no list changes.
   */
  watch?(onChange: () => void): () => void;
}
