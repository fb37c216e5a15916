/**
 * Turning registry errors into what an MCP client shows: tool results with `isError` (the model reads
 * the message and can correct itself) and JSON-RPC errors for resources and prompts.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';

/** JSON-RPC error code of an unknown resource (MCP specification, resources). */
export const RESOURCE_NOT_FOUND = -32002;
/** JSON-RPC code of invalid parameters. */
export const INVALID_PARAMS = -32602;
/** JSON-RPC code of an internal error. */
export const INTERNAL_ERROR = -32603;

/** Codes of registry errors that describe the request rather than a failure of the registry. */
const CLIENT_CODES = new Set([
  'NOT_FOUND',
  'INVALID_ARGUMENT',
  'INVALID_URI',
  'PERMISSION_DENIED',
  'UNAUTHENTICATED',
  'SKILL_INVALID',
  'RESOURCE_EXHAUSTED',
]);

/** The string `code` of a registry error (`SkillportError`, `ApiError`), if any. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The message of any thrown value. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * An error of the MCP layer itself (bad tool argument, unknown URI), reported like a registry
 * `INVALID_ARGUMENT`.
 */
export class McpInputError extends Error {
  readonly code: string;
  constructor(message: string, code = 'INVALID_ARGUMENT') {
    super(message);
    this.name = 'McpInputError';
    this.code = code;
  }
}

/**
 * A tool result reporting `error` to the model (`isError: true`): the registry's message for request
 * errors (not found, bad name, no permission), a short "registry unavailable" note for the rest.
 *
 * @param error - what the registry or the tool threw
 * @param hint - a next step for the model, added after the message (e.g. "Use find_skills …")
 */
export function toolError(error: unknown, hint?: string) {
  const code = errorCode(error);
  const message = errorMessage(error);
  const text =
    code !== undefined && CLIENT_CODES.has(code)
      ? `${code}: ${message}${hint && code === 'NOT_FOUND' ? `${/[.!?]$/.test(message) ? '' : '.'} ${hint}` : ''}`
      : `The Skillport registry could not answer: ${message}`;
  return { isError: true, content: [{ type: 'text' as const, text }] };
}

/**
 * An `McpError` whose message is `message` alone. The SDK's constructor prepends
 * `MCP error <code>: `, the server sends that message as it is, and the client's `McpError` prepends
 * it again: clients showed "MCP error -32002: MCP error -32002: …".
 */
export function mcpError(code: number, message: string): McpError {
  const error = new McpError(code, message);
  error.message = message;
  return error;
}

/**
 * A JSON-RPC error for resources and prompts: `NOT_FOUND` → -32002 (resource not found) or -32602
 * (prompt), other request errors → -32602, anything else → -32603.
 *
 * @param notFoundCode - the JSON-RPC code for `NOT_FOUND`
 */
export function protocolError(error: unknown, notFoundCode: number): McpError {
  if (error instanceof McpError) return error;
  const code = errorCode(error);
  const message = errorMessage(error);
  if (code === 'NOT_FOUND') return mcpError(notFoundCode, message);
  if (code !== undefined && CLIENT_CODES.has(code)) return mcpError(INVALID_PARAMS, message);
  return mcpError(INTERNAL_ERROR, `The Skillport registry could not answer: ${message}`);
}
