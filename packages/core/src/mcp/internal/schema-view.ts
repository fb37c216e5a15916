/**
 * Reads a JSON Schema (an MCP tool's `inputSchema`) into a display tree: one node per property or
 * union variant, with a type label (`string`, `array of object`, `string | number`,
 * `recursive: Node`), nullability, description and extra facts (enum, default, format, constraints).
 *
 * Local `$ref`s are resolved as JSON Pointers against the root (also inside `anyOf`/`oneOf`/`allOf`
 * and `items`), cycles are cut, depth and size are bounded. Problems become warnings, never throws.
 */
import type { SkillIssue } from '../../types.js';
import { parseLocalRef, resolveLocalRef } from './json-pointer.js';
import { codeSpan } from './markdown-code.js';
import { schemaFacts } from './schema-facts.js';

/** One displayed schema. */
export interface SchemaView {
  label: string;
  nullable: boolean;
  description: string | null;
  /** Sentences shown after the description, e.g. ``One of: `"a"`, `"b"`.``. */
  extras: string[];
  children: ViewChild[];
}

/** A nested entry: an object property or one variant of a union. */
export type ViewChild =
  | { kind: 'property'; name: string; required: boolean; view: SchemaView }
  | { kind: 'variant'; index: number; view: SchemaView };

/** Nesting below which children are summarised instead of expanded. */
const MAX_DEPTH = 8;
/** Upper bound of nodes described for one tool (protects against exponential `$ref` fan-out). */
const MAX_NODES = 2000;
/**
 * Most characters of descriptions, facts (enum values, defaults, …), property names and type labels
 * described for one tool, the server's default SKILL.md limit (1 MiB). Past it the remaining schemas are summarised: a 15 KB tool
 * whose 12 properties each referenced 12 of a schema with a 14 KB description, three deep, rendered
 * a 13 MB SKILL.md (~130 ms of the caller, then refused as too large).
 */
const MAX_TEXT = 1024 * 1024;
/**
 * Most `$ref`s followed one inside another. A chain that resolves reference after reference without
 * nesting (`A` = `anyOf [$ref B, null]`, `B` = `anyOf [$ref C, null]`, …) adds no depth, so without
 * this a chain of thousands of `$defs` recursed until the stack overflowed.
 */
const MAX_REF_CHAIN = 64;

type JsonObject = Record<string, unknown>;

interface Context {
  root: unknown;
  refStack: string[];
  nodes: number;
  /** Characters of descriptions, facts, property names and labels described so far. */
  text: number;
  issues: Map<string, SkillIssue>;
}

/**
 * Describes the root `inputSchema` of a tool.
 *
 * @param root - the `inputSchema`
 * @returns the root view (its `children` are the tool's parameters) and the warnings found
 */
export function describeInputSchema(root: JsonObject): { view: SchemaView; issues: SkillIssue[] } {
  const ctx: Context = { root, refStack: ['#'], nodes: 0, text: 0, issues: new Map() };
  const view = describe(root, 'inputSchema', ctx, 0);
  return { view, issues: [...ctx.issues.values()] };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function warn(ctx: Context, rule: string, field: string, message: string): void {
  const key = `${rule}\u0000${field}\u0000${message}`;
  if (!ctx.issues.has(key)) ctx.issues.set(key, { rule, severity: 'warning', message, field });
}

function leaf(label: string, description: string | null = null): SchemaView {
  return { label, nullable: false, description, extras: [], children: [] };
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function refName(ref: string): string {
  const segments = parseLocalRef(ref);
  if (segments === null) return ref;
  return segments.length === 0 ? 'root' : (segments[segments.length - 1] ?? ref);
}

function pointerField(ref: string): string {
  const segments = parseLocalRef(ref) ?? [];
  return ['inputSchema', ...segments].join('.');
}

function describe(schema: unknown, at: string, ctx: Context, depth: number): SchemaView {
  const view = describeSchema(schema, at, ctx, depth);
  // Labels carry text of the input too (type names, `$ref`s), rendered at each use of a schema.
  ctx.text += view.label.length;
  return view;
}

function describeSchema(schema: unknown, at: string, ctx: Context, depth: number): SchemaView {
  ctx.nodes += 1;
  if (ctx.text > MAX_TEXT) return leaf('schema');
  if (schema === true) return leaf('any');
  if (schema === false) return leaf('never');
  if (!isObject(schema)) {
    warn(ctx, 'mcp_schema_invalid', at, `${at} is not a JSON Schema object (got ${JSON.stringify(schema)})`);
    return leaf('any');
  }
  if (typeof schema.$ref === 'string') return describeRef(schema, at, ctx, depth);
  if (Array.isArray(schema.allOf)) return describeAllOf(schema, schema.allOf, at, ctx, depth);
  if (Array.isArray(schema.anyOf)) return describeUnion(schema, 'anyOf', at, ctx, depth);
  if (Array.isArray(schema.oneOf)) return describeUnion(schema, 'oneOf', at, ctx, depth);
  return describePlain(schema, at, ctx, depth);
}

function describeRef(schema: JsonObject, at: string, ctx: Context, depth: number): SchemaView {
  const ref = schema.$ref as string;
  const { $ref: _ref, ...siblings } = schema;
  const description = stringOrNull(siblings.description);
  if (ctx.refStack.includes(ref)) return leaf(`recursive: ${refName(ref)}`, description);
  if (ctx.refStack.length > MAX_REF_CHAIN) {
    return { ...leaf(refName(ref), description), extras: ['Nested schema not shown.'] };
  }
  const target = resolveLocalRef(ctx.root, ref);
  if (target === null || !(isObject(target.value) || typeof target.value === 'boolean')) {
    warn(
      ctx,
      'mcp_ref_unresolved',
      `${at}.$ref`,
      `$ref ${JSON.stringify(ref)} at ${at} does not designate a schema in this inputSchema ` +
        "(only local references such as '#/$defs/Name' are resolved)",
    );
    return leaf(`unresolved: ${ref}`, description);
  }
  const merged = isObject(target.value) ? { ...target.value, ...siblings } : siblings;
  ctx.refStack.push(ref);
  try {
    return describe(merged, pointerField(ref), ctx, depth);
  } finally {
    ctx.refStack.pop();
  }
}

/** Stands in `merged` for the properties or required names of allOf members until they are written. */
const GATHERED: unique symbol = Symbol('gathered');

function describeAllOf(schema: JsonObject, members: unknown[], at: string, ctx: Context, depth: number) {
  const { allOf: _allOf, ...rest } = schema;
  const pushed: string[] = [];
  const merged: JsonObject = { ...rest };
  // The members' properties and required names are gathered here and written into `merged` once at
  // the end: spreading the growing object (or array) again for each member was quadratic, and an
  // allOf of 17,000 one-property members (600 KB of JSON) took ~2 minutes.
  let properties: Map<string, unknown> | null = null;
  let required: Set<unknown> | null = null;
  let mergeable = true;
  for (const member of members) {
    let value: unknown = member;
    if (isObject(member) && typeof member.$ref === 'string') {
      const ref = member.$ref;
      const target = ctx.refStack.includes(ref) ? null : resolveLocalRef(ctx.root, ref);
      if (target === null || !isObject(target.value)) {
        mergeable = false;
        break;
      }
      const { $ref: _ref, ...siblings } = member;
      value = { ...target.value, ...siblings };
      pushed.push(ref);
    }
    if (!isObject(value) || Array.isArray(value.allOf)) {
      mergeable = false;
      break;
    }
    for (const [key, item] of Object.entries(value)) {
      if (key === 'properties' && isObject(item)) {
        properties ??= new Map(Object.entries(isObject(merged.properties) ? merged.properties : {}));
        for (const [name, property] of Object.entries(item)) properties.set(name, property);
        merged.properties = GATHERED;
      } else if (key === 'required' && Array.isArray(item)) {
        required ??= new Set(Array.isArray(merged.required) ? merged.required : []);
        for (const name of item) required.add(name);
        merged.required = GATHERED;
      } else if (!(key in merged)) {
        merged[key] = item;
      }
    }
  }
  // `Object.fromEntries` defines each key, as the spread did (a `__proto__` property stays a property).
  if (properties !== null) merged.properties = Object.fromEntries(properties);
  if (required !== null) merged.required = [...required];
  if (mergeable) {
    for (const ref of pushed) ctx.refStack.push(ref);
    try {
      return describe(merged, at, ctx, depth);
    } finally {
      ctx.refStack.length -= pushed.length;
    }
  }
  const base = describePlain(rest, at, ctx, depth);
  // Bounded as union variants are: members that are `$ref`s to allOfs of `$ref`s fan out exponentially.
  const views = members.map((member, i) =>
    ctx.nodes > MAX_NODES ? leaf('schema') : describe(member, `${at}.allOf[${i}]`, ctx, depth + 1),
  );
  return {
    ...base,
    label: unique(views.map((v) => v.label)).join(' & '),
    children: [...base.children, ...views.map((view, index) => ({ kind: 'variant' as const, index, view }))],
  };
}

function isNullSchema(value: unknown): boolean {
  return (
    isObject(value) && value.type === 'null' && Object.keys(value).every((k) => k === 'type' || k === 'title')
  );
}

function describeUnion(
  schema: JsonObject,
  key: 'anyOf' | 'oneOf',
  at: string,
  ctx: Context,
  depth: number,
): SchemaView {
  const { [key]: rawVariants, ...rest } = schema;
  const variants = rawVariants as unknown[];
  const others = variants.filter((v) => !isNullSchema(v));
  const nullable = others.length < variants.length;
  if (others.length === 0) {
    const view = describe(rest, at, ctx, depth);
    return { ...view, label: view.label === 'any' ? 'null' : view.label, nullable };
  }
  if (others.length === 1) {
    const only = others[0];
    const merged = isObject(only)
      ? {
          ...rest,
          ...only,
          ...(typeof rest.description === 'string' ? { description: rest.description } : {}),
        }
      : rest;
    const view = describe(merged, `${at}.${key}[${variants.indexOf(only)}]`, ctx, depth);
    return { ...view, nullable: view.nullable || nullable };
  }
  const base = describe(rest, at, ctx, depth);
  const variantChildren: ViewChild[] = [];
  const labels: string[] = [];
  const requiredSets: string[][] = [];
  // By index, not `variants.indexOf(variant)` for each: a union of 20,000 variants was quadratic.
  for (let index = 0; index < variants.length; index++) {
    const variant = variants[index];
    if (isNullSchema(variant)) continue;
    if (isRequiredOnly(variant)) {
      requiredSets.push(variant.required);
      continue;
    }
    const view =
      depth >= MAX_DEPTH || ctx.nodes > MAX_NODES
        ? leaf('schema')
        : describe(variant, `${at}.${key}[${index}]`, ctx, depth + 1);
    if (view.label !== 'any' || base.label === 'any')
      labels.push(view.nullable ? `${view.label} | null` : view.label);
    if (view.children.length > 0 || view.description !== null || view.extras.length > 0) {
      variantChildren.push({ kind: 'variant', index: variantChildren.length, view });
    }
  }
  const extras = [...base.extras];
  if (requiredSets.length > 0) {
    const sets = requiredSets.map((set) => set.map((name) => codeSpan(name)).join(' + ')).join('; ');
    extras.push(`Needs ${key === 'oneOf' ? 'exactly' : 'at least'} one of: ${sets}.`);
    ctx.text += sets.length;
  }
  return {
    ...base,
    label: labels.length > 0 ? unique(labels).join(' | ') : base.label,
    nullable: nullable || base.nullable,
    extras,
    children: [...base.children, ...variantChildren],
  };
}

/** A union member that only says which properties must be present (`{required: ["a"]}`). */
function isRequiredOnly(value: unknown): value is { required: string[] } {
  return (
    isObject(value) &&
    Array.isArray(value.required) &&
    value.required.every((name) => typeof name === 'string') &&
    Object.keys(value).every((k) => k === 'required')
  );
}

function describePlain(schema: JsonObject, at: string, ctx: Context, depth: number): SchemaView {
  const declared =
    typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
  const types = declared.filter((t): t is string => typeof t === 'string');
  // `nullable: true` is the OpenAPI 3.0 spelling some servers emit.
  const nullable = (types.includes('null') && types.length > 1) || schema.nullable === true;
  // Each type once: `type: ["object", "object", …]` described the properties again for each entry
  // (1,000 entries × 1,000 properties, a 34 KB tool: a 33 MB SKILL.md); the label listed each once.
  let nonNull = unique(types.filter((t) => t !== 'null' || types.length === 1));
  if (nonNull.length === 0) nonNull = inferTypes(schema);
  const view: SchemaView = {
    label: '',
    nullable,
    description: stringOrNull(schema.description),
    extras: describeExtras(schema, at, ctx, depth),
    children: [],
  };
  ctx.text += view.description?.length ?? 0;
  for (const extra of view.extras) ctx.text += extra.length;
  const labels: string[] = [];
  const expand = depth < MAX_DEPTH && ctx.nodes <= MAX_NODES;
  for (const type of nonNull) {
    if (type === 'array') {
      labels.push(describeArray(schema, view, at, ctx, depth, expand));
    } else {
      labels.push(type);
      if (type === 'object') describeObject(schema, view, at, ctx, depth, expand);
    }
  }
  view.label = labels.length > 0 ? unique(labels).join(' | ') : 'any';
  if (!expand && (isObject(schema.properties) || isObject(schema.items)))
    view.extras.push('Nested schema not shown.');
  return view;
}

function inferTypes(schema: JsonObject): string[] {
  if (isObject(schema.properties) || isObject(schema.additionalProperties)) return ['object'];
  if (schema.items !== undefined || Array.isArray(schema.prefixItems)) return ['array'];
  const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : [];
  return unique(values.map((v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)));
}

function describeObject(
  schema: JsonObject,
  view: SchemaView,
  at: string,
  ctx: Context,
  depth: number,
  expand: boolean,
) {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const name of required) {
    if (typeof name !== 'string' || !Object.hasOwn(properties, name)) {
      warn(
        ctx,
        'mcp_required_unknown',
        `${at}.required`,
        `${at}.required names ${JSON.stringify(name)}, which is not defined in ${at}.properties`,
      );
    }
  }
  if (!expand) return;
  // A set, not `required.includes`: 20,000 properties all required were 400 million comparisons.
  const requiredNames = new Set(required);
  for (const [name, property] of Object.entries(properties)) {
    // Names count towards the text bound: one schema referenced from 2,000 places rendered its
    // 600 KB property name each time (a 660 KB tool: a 400 MB SKILL.md, 4 s).
    ctx.text += name.length;
    view.children.push({
      kind: 'property',
      name,
      required: requiredNames.has(name),
      view: describe(property, `${at}.properties.${name}`, ctx, depth + 1),
    });
  }
}

function describeArray(
  schema: JsonObject,
  view: SchemaView,
  at: string,
  ctx: Context,
  depth: number,
  expand: boolean,
): string {
  const tuple = Array.isArray(schema.prefixItems)
    ? schema.prefixItems
    : Array.isArray(schema.items)
      ? schema.items
      : null;
  if (tuple !== null) {
    const labels = tuple.map((item, i) =>
      expand ? describe(item, `${at}.items[${i}]`, ctx, depth + 1).label : 'schema',
    );
    return `array of [${labels.join(', ')}]`;
  }
  if (schema.items === undefined) return 'array';
  if (!expand) return 'array';
  const item = describe(schema.items, `${at}.items`, ctx, depth + 1);
  for (const child of item.children) view.children.push(child);
  // Item descriptions are shown when short; multi-line ones are usually a model's docstring.
  if (
    item.description !== null &&
    !/[\r\n]/.test(item.description.trim()) &&
    item.description.trim() !== ''
  ) {
    view.extras.push(
      `Items: ${item.description.trim()}${/[.!?。！？]$/.test(item.description.trim()) ? '' : '.'}`,
    );
  }
  for (const extra of item.extras) view.extras.push(`Items: ${extra}`);
  return `array of ${item.nullable ? `${item.label} | null` : item.label}`;
}

function describeExtras(schema: JsonObject, at: string, ctx: Context, depth: number): string[] {
  const extras = schemaFacts(schema);
  if (isObject(schema.additionalProperties) && depth < MAX_DEPTH) {
    const values = describe(schema.additionalProperties, `${at}.additionalProperties`, ctx, depth + 1);
    extras.push(`Other keys allowed, with values of type ${values.label}.`);
  }
  return extras;
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
