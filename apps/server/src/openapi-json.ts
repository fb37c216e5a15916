/**
 * Deterministic serialisation of the OpenAPI document for `spec/openapi.json`.
 */

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

/**
 * Serialises an OpenAPI document with object keys sorted at every depth, two-space indentation and
 * a trailing newline, so regenerating it gives identical bytes.
 *
 * @param document - the document from `openApiDocument(app)`
 * @returns the file text of `spec/openapi.json`
 * @example writeFileSync('spec/openapi.json', renderOpenApiJson(openApiDocument(app)));
 */
export function renderOpenApiJson(document: Record<string, unknown>): string {
  return `${JSON.stringify(sortKeys(document), null, 2)}\n`;
}
