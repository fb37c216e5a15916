/**
 * The OpenAPI document explains the API field by field: every operation has a summary and a
 * description, every parameter, component schema and property a description. A `$ref` property is
 * documented by the component it points to (zod-to-openapi cannot put a sibling description next to
 * a `$ref` without inlining the component), so that component must carry one.
 */
import {
  AddSkillRequestSchema,
  CreateApiKeyRequestSchema,
  FindSkillsRequestSchema,
  RestoreSkillRequestSchema,
  ValidateSkillRequestSchema,
  WaitRequestSchema,
} from '@skillport/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { z } from 'zod';
import { startTestServer, type TestServer } from '../helpers/server.js';

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function hasText(value: unknown): boolean {
  return typeof value === 'string' && value.trim().length > 0;
}

/** Name of the component a `$ref` points to, or null. */
function refName(schema: Json): string | null {
  const ref = schema.$ref;
  return typeof ref === 'string' && ref.startsWith('#/components/schemas/')
    ? ref.slice('#/components/schemas/'.length)
    : null;
}

/**
 * Every gap in the document's documentation, one line each (`where: what is missing`).
 *
 * @param doc - an OpenAPI 3.1 document
 * @returns the gaps; empty when the document is fully described
 */
function findUndocumented(doc: Json): string[] {
  const gaps: string[] = [];
  const components = (
    isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {}
  ) as Json;

  const describedByRef = (schema: Json): boolean => {
    const name = refName(schema);
    if (name !== null) return isObject(components[name]) && hasText(components[name].description);
    const allOf = schema.allOf;
    return (
      Array.isArray(allOf) && allOf.some((s) => isObject(s) && (hasText(s.description) || describedByRef(s)))
    );
  };

  const walk = (schema: unknown, where: string): void => {
    if (!isObject(schema)) return;
    if (isObject(schema.properties)) {
      for (const [key, prop] of Object.entries(schema.properties)) {
        const at = `${where}.${key}`;
        if (!isObject(prop)) continue;
        if (!hasText(prop.description) && !describedByRef(prop))
          gaps.push(`${at}: property has no description`);
        else if (typeof prop.description === 'string' && prop.description.trim() === key) {
          gaps.push(`${at}: description only repeats the property name`);
        }
        walk(prop, at);
      }
    }
    if (isObject(schema.items)) walk(schema.items, `${where}[]`);
    if (isObject(schema.additionalProperties)) walk(schema.additionalProperties, `${where}{}`);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      const list = schema[key];
      if (!Array.isArray(list)) continue;
      for (const [i, s] of list.entries()) walk(s, `${where}(${key}[${i}])`);
    }
  };

  for (const [name, schema] of Object.entries(components)) {
    if (!isObject(schema) || !hasText(schema.description))
      gaps.push(`#/components/schemas/${name}: no description`);
    walk(schema, name);
  }

  const paths = (isObject(doc.paths) ? doc.paths : {}) as Json;
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const where = `${method.toUpperCase()} ${path}`;
      if (!hasText(op.summary)) gaps.push(`${where}: operation has no summary`);
      if (!hasText(op.description)) gaps.push(`${where}: operation has no description`);
      for (const param of Array.isArray(op.parameters) ? op.parameters : []) {
        if (!isObject(param)) continue;
        if (!hasText(param.description)) {
          gaps.push(`${where} ${String(param.in)} parameter ${String(param.name)}: no description`);
        }
      }
      const body = isObject(op.requestBody) && isObject(op.requestBody.content) ? op.requestBody.content : {};
      for (const [type, media] of Object.entries(body)) {
        if (isObject(media)) walk(media.schema, `${where} body ${type}`);
      }
      const responses = isObject(op.responses) ? op.responses : {};
      for (const [status, response] of Object.entries(responses)) {
        if (!isObject(response)) continue;
        if (!hasText(response.description)) gaps.push(`${where} ${status}: response has no description`);
        const content = isObject(response.content) ? response.content : {};
        for (const [type, media] of Object.entries(content)) {
          if (isObject(media)) walk(media.schema, `${where} ${status} ${type}`);
        }
      }
    }
  }
  return gaps;
}

/** Follows a JSON pointer-like path of keys through the document. */
function at(doc: Json, keys: readonly string[]): unknown {
  let node: unknown = doc;
  for (const key of keys) node = isObject(node) ? node[key] : undefined;
  return node;
}

function parameter(doc: Json, path: string, method: string, name: string): Json | undefined {
  const params = at(doc, ['paths', path, method, 'parameters']);
  return Array.isArray(params) ? params.find((p): p is Json => isObject(p) && p.name === name) : undefined;
}

describe('findUndocumented', () => {
  test.each([
    {
      case: 'operation without summary or description',
      doc: { paths: { '/x': { get: { responses: { 200: { description: 'ok' } } } } } },
      gaps: ['GET /x: operation has no summary', 'GET /x: operation has no description'],
    },
    {
      case: 'parameter described only in its schema',
      doc: {
        paths: {
          '/x': {
            get: {
              summary: 's',
              description: 'd',
              parameters: [{ name: 'level', in: 'query', schema: { type: 'string', description: 'x' } }],
              responses: { 200: { description: 'ok' } },
            },
          },
        },
      },
      gaps: ['GET /x query parameter level: no description'],
    },
    {
      case: 'nested property, undescribed component, $ref to it',
      doc: {
        components: {
          schemas: {
            A: {
              description: 'a',
              type: 'object',
              properties: {
                s: { description: 'fine', type: 'object', properties: { ms: { type: 'number' } } },
                b: { $ref: '#/components/schemas/B' },
                name: { type: 'string', description: 'name' },
              },
            },
            B: { type: 'object', properties: {} },
          },
        },
      },
      gaps: [
        'A.s.ms: property has no description',
        'A.b: property has no description',
        'A.name: description only repeats the property name',
        '#/components/schemas/B: no description',
      ],
    },
    {
      case: 'inline request body schema',
      doc: {
        paths: {
          '/x': {
            post: {
              summary: 's',
              description: 'd',
              requestBody: {
                content: {
                  'application/json': { schema: { type: 'object', properties: { q: { type: 'string' } } } },
                },
              },
              responses: { 200: { description: 'ok' } },
            },
          },
        },
      },
      gaps: ['POST /x body application/json.q: property has no description'],
    },
  ])('reports $case', ({ doc, gaps }) => {
    expect(findUndocumented(doc as Json).sort()).toEqual([...gaps].sort());
  });
});

describe('GET /openapi.json documents the API field by field', () => {
  let t: TestServer;
  let doc: Json;
  beforeAll(async () => {
    t = await startTestServer();
    const res = await t.request('GET', '/openapi.json');
    expect(res.status).toBe(200);
    doc = res.json;
  });
  afterAll(async () => {
    await t.close();
  });

  test('every operation, parameter, component schema and property has a description', () => {
    expect(findUndocumented(doc)).toEqual([]);
  });

  test('the document is not trivially empty (the walk reached the routes and components)', () => {
    expect(Object.keys(at(doc, ['paths']) as Json).length).toBeGreaterThanOrEqual(12);
    expect(Object.keys(at(doc, ['components', 'schemas']) as Json).length).toBeGreaterThanOrEqual(30);
  });

  // Units, defaults and compatibility notes a client needs, where the contract states them.
  test.each([
    { field: 'ErrorEnvelope.time', says: /seconds/ },
    { field: 'AddSkillResponse.time', says: /seconds/ },
    { field: 'Telemetry.summary.duration_ms', says: /milliseconds/ },
    { field: 'AddSkillRequest.timeout', says: /[Ss]econds.*300/ },
    { field: 'AddSkillRequest.wait', says: /[Dd]efault false/ },
    { field: 'AddSkillRequest.target_uri', says: /`null`/ },
    { field: 'WaitRequest.timeout', says: /seconds/ },
    { field: 'FindSkillsRequest.limit', says: /default 10/ },
    { field: 'FindSkillsRequest.score_threshold', says: /`null`/ },
    { field: 'FindSkillsRequest.level', says: /overview/ },
    { field: 'SkillFile.size', says: /bytes/ },
    { field: 'DeleteSkillResult.privacy_deleted', says: /[Ff]alse.*`purge=true`/ },
    { field: 'SkillRevision.size', says: /Bytes/ },
    { field: 'ListSkillsResult.next_cursor', says: /`cursor`/ },
    { field: 'SkillWriteResult.root_uri', says: /`uri`/ },
    { field: 'ValidateSkillRequest.profile', says: /openviking/ },
    { field: 'TempUploadForm.upload_mode', says: /`local`/ },
  ])('$field says $says', ({ field, says }) => {
    const [component = '', ...props] = field.split('.');
    const where = ['components', 'schemas', component, ...props.flatMap((p) => ['properties', p])];
    expect(at(doc, [...where, 'description'])).toMatch(says);
  });

  test.each([
    {
      path: '/api/v1/skills/{name}',
      method: 'get',
      name: 'level',
      says: /`0`.*abstract.*`1`.*overview.*`2`/,
    },
    { path: '/api/v1/skills/{name}', method: 'get', name: 'include_files', says: /[Dd]efault true/ },
    { path: '/api/v1/skills/{name}', method: 'get', name: 'include_integrity', says: /size.*sha256/ },
    { path: '/api/v1/skills', method: 'get', name: 'node_limit', says: /default 100, at most 1000/ },
    { path: '/api/v1/skills/{name}', method: 'delete', name: 'target_uri', says: /agent root/ },
    { path: '/api/v1/skills/{name}', method: 'delete', name: 'purge', says: /history/ },
    { path: '/api/v1/skills/{name}', method: 'get', name: 'revision', says: /prefix/ },
    { path: '/api/v1/skills', method: 'get', name: 'updated_since', says: /ISO 8601/ },
    { path: '/api/v1/skills', method: 'get', name: 'cursor', says: /next_cursor/ },
    { path: '/api/v1/skills/{name}/revisions', method: 'get', name: 'limit', says: /default 100/ },
    { path: '/api/v1/skills/{name}/files/{path}', method: 'get', name: 'revision', says: /history|revision/ },
  ])('$method $path parameter $name says $says', ({ path, method, name, says }) => {
    expect(parameter(doc, path, method, name)?.description).toMatch(says);
  });

  test('the add request carries the four request forms of the contract as examples', () => {
    const examples = at(doc, ['components', 'schemas', 'AddSkillRequest', 'examples']);
    expect(Array.isArray(examples)).toBe(true);
    const forms = (examples as Json[]).map((e) =>
      'temp_file_id' in e
        ? 'upload'
        : typeof e.data === 'string'
          ? 'skill_md'
          : isObject(e.data) && 'inputSchema' in e.data
            ? 'mcp'
            : 'structured',
    );
    expect(forms.sort()).toEqual(['mcp', 'skill_md', 'structured', 'upload']);
  });

  // Request examples are real requests: each one passes the schema the route validates with.
  test.each([
    { component: 'AddSkillRequest', schema: AddSkillRequestSchema as z.ZodType },
    { component: 'FindSkillsRequest', schema: FindSkillsRequestSchema as z.ZodType },
    { component: 'ValidateSkillRequest', schema: ValidateSkillRequestSchema as z.ZodType },
    { component: 'WaitRequest', schema: WaitRequestSchema as z.ZodType },
    { component: 'CreateApiKeyRequest', schema: CreateApiKeyRequestSchema as z.ZodType },
    { component: 'RestoreSkillRequest', schema: RestoreSkillRequestSchema as z.ZodType },
  ])('the examples of $component are valid requests', ({ component, schema }) => {
    const examples = at(doc, ['components', 'schemas', component, 'examples']);
    expect(Array.isArray(examples) && examples.length > 0).toBe(true);
    for (const example of examples as unknown[]) {
      const parsed = schema.safeParse(example);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    }
  });
});
