import type { McpTool } from '../types.js';

/**
 * Tells an MCP tool definition apart from other skill input: an object whose `inputSchema` is an
 * object (not an array, not `null`). This is the detection rule of the add route (`data` form 2).
 *
 * The `name` is not checked here, so that a tool with a bad name is reported as such by
 * {@link fromMcpTool} rather than silently taken for a structured skill.
 *
 * @param value - any value, e.g. the `data` field of an add request
 * @returns true when `value` is shaped like an MCP tool
 * @example
 * ```ts
 * isMcpTool({ name: 'calculator', inputSchema: { type: 'object' } }); // true
 * isMcpTool({ name: 'my-skill', content: '# …' });                     // false
 * ```
 * @see the OpenAPI document: `POST /api/v1/skills` (data forms), the MCP ⇄ skill section of the @skillport/core README
 */
export function isMcpTool(value: unknown): value is McpTool {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const schema = (value as Record<string, unknown>).inputSchema;
  return typeof schema === 'object' && schema !== null && !Array.isArray(schema);
}
