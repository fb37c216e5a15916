import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromMcpTool } from '../../src/mcp/from-mcp-tool.js';
import { toMcpTool } from '../../src/mcp/to-mcp-tool.js';
import { parseSkillMd } from '../../src/parse/parse-skill-md.js';
import type { McpTool } from '../../src/types.js';

const toolName = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_.-]{0,30}$/);
const description = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 120 })
  .filter((d) => d.trim() !== '');
const text = fc.string({ unit: 'grapheme', maxLength: 60 });
const simpleType = fc.constantFrom('string', 'number', 'integer', 'boolean', 'object', 'array', 'null');

/** Flat schemas: the shape most tools have, which must read back from the bullets alone or the block. */
const flatSchema = fc
  .dictionary(
    fc.string({ minLength: 1, maxLength: 12 }),
    fc.record({ type: simpleType, description: text }, { requiredKeys: [] }),
    { maxKeys: 6 },
  )
  .chain((properties) =>
    fc.record(
      {
        type: fc.constant('object'),
        properties: fc.constant(properties),
        required: fc.subarray(Object.keys(properties)),
      },
      { requiredKeys: ['type'] },
    ),
  );

/** Anything JSON under `properties`, `$defs` and friends: the converter must neither crash nor lose it. */
const wildSchema = fc.record(
  {
    type: fc.constantFrom('object', ['object', 'null'], undefined),
    properties: fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 5 }),
    required: fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }),
    $defs: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 3 }),
    anyOf: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
    description: text,
  },
  { requiredKeys: [] },
);

function assertRoundTrip(tool: McpTool): void {
  const result = fromMcpTool(tool);
  const parsed = parseSkillMd(result.content);
  expect(parsed.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
  expect(parsed.skill.frontmatter).toEqual(result.frontmatter);
  const back = toMcpTool(result);
  expect(back.name).toBe(tool.name);
  expect(toMcpTool(result.content).name).toBe(result.name);
  expect(back.description).toBe(tool.description);
  expect(back.inputSchema).toEqual(tool.inputSchema);
}

describe('fromMcpTool ⇄ toMcpTool round-trip (generated tools)', () => {
  it('holds for flat schemas with arbitrary names and descriptions', () => {
    fc.assert(
      fc.property(toolName, description, flatSchema, (name, desc, inputSchema) => {
        assertRoundTrip({ name, description: desc, inputSchema });
      }),
      { numRuns: 300 },
    );
  });

  it('holds for arbitrary JSON inside the schema', () => {
    fc.assert(
      fc.property(toolName, description, wildSchema, (name, desc, inputSchema) => {
        assertRoundTrip({ name, description: desc, inputSchema: JSON.parse(JSON.stringify(inputSchema)) });
      }),
      { numRuns: 300 },
    );
  });
});
