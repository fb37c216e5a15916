/**
 * The facts of one schema shown after its description: enum values, constant, default, format,
 * constraints, examples, deprecation — as short sentences with values in inline code.
 */
import { inlineCode } from './markdown-code.js';

const CONSTRAINTS: Array<[string, string]> = [
  ['minimum', 'minimum'],
  ['exclusiveMinimum', 'exclusive minimum'],
  ['maximum', 'maximum'],
  ['exclusiveMaximum', 'exclusive maximum'],
  ['multipleOf', 'multiple of'],
  ['minLength', 'min length'],
  ['maxLength', 'max length'],
  ['pattern', 'pattern'],
  ['minItems', 'min items'],
  ['maxItems', 'max items'],
  ['minProperties', 'min properties'],
  ['maxProperties', 'max properties'],
];

/**
 * Lists the displayable facts of a schema.
 *
 * @param schema - one (resolved) schema object
 * @returns sentences such as ``One of: `"a"`, `"b"`.`` and ``Default: `10`.``, in a fixed order
 */
export function schemaFacts(schema: Record<string, unknown>): string[] {
  const extras: string[] = [];
  if (Array.isArray(schema.enum)) extras.push(`One of: ${schema.enum.map(inlineCode).join(', ')}.`);
  if ('const' in schema) extras.push(`Constant: ${inlineCode(schema.const)}.`);
  if ('default' in schema) extras.push(`Default: ${inlineCode(schema.default)}.`);
  if (typeof schema.format === 'string') extras.push(`Format: ${schema.format}.`);
  const constraints = CONSTRAINTS.filter(([key]) => key in schema).map(
    ([key, words]) => `${words} ${inlineCode(schema[key])}`,
  );
  if (schema.uniqueItems === true) constraints.push('unique items');
  if (constraints.length > 0) extras.push(`Constraints: ${constraints.join(', ')}.`);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) {
    extras.push(`Examples: ${schema.examples.slice(0, 3).map(inlineCode).join(', ')}.`);
  }
  if (schema.deprecated === true) extras.push('Deprecated.');
  return extras;
}
