// Deeply nested or huge JSON is refused up front with 400 naming the field and the limit; it used to
// overflow the stack while being serialized (500) on add, update and even validate.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { checkJsonBounds, scanJsonText } from '../../src/http/json-bounds.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  // Nothing of any refused request was stored.
  const list = await t.request('GET', '/api/v1/skills');
  expect(list.json.result.skills.map((s: { name: string }) => s.name).sort()).toEqual(['at-the-limit']);
  await t.close();
});

/**
 * The JSON text of `body` with its `"DEEP"` placeholder replaced by `deepText`; built as text, since
 * `JSON.stringify` itself overflows the stack on a value 5,000 levels deep.
 */
function bodyWithDeep(body: unknown, deepText: string): string {
  return JSON.stringify(body).replace('"DEEP"', deepText);
}
const DEEP_OBJECTS = `${'{"a":'.repeat(5000)}"x"${'}'.repeat(5000)}`;
const DEEP_ARRAYS = `${'['.repeat(5000)}"x"${']'.repeat(5000)}`;
const json = { 'content-type': 'application/json' };

/** `{"a": {"a": … "x"}}` with `levels` objects. */
function nested(levels: number): unknown {
  let value: unknown = 'x';
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

const structured = (extra: Record<string, unknown>) => ({
  name: 'deep',
  description: 'A skill with deeply nested data',
  ...extra,
});

interface DeepCase {
  label: string;
  method: string;
  path: string;
  body: unknown;
  deep: string;
  field: string;
}

const cases: DeepCase[] = [
  {
    label: 'add: source_metadata',
    method: 'POST',
    path: '/api/v1/skills',
    body: { data: structured({}), source_metadata: 'DEEP' },
    deep: DEEP_OBJECTS,
    field: 'source_metadata.a.a',
  },
  {
    label: 'add: structured metadata',
    method: 'POST',
    path: '/api/v1/skills',
    body: { data: structured({ metadata: 'DEEP' }) },
    deep: DEEP_OBJECTS,
    field: 'data.metadata.a',
  },
  {
    label: 'add: structured tags',
    method: 'POST',
    path: '/api/v1/skills',
    body: { data: structured({ tags: 'DEEP' }) },
    deep: DEEP_ARRAYS,
    field: 'data.tags[0][0]',
  },
  {
    label: 'add: MCP inputSchema',
    method: 'POST',
    path: '/api/v1/skills',
    body: { data: { name: 'deep', description: 'd', inputSchema: { type: 'object', properties: 'DEEP' } } },
    deep: DEEP_OBJECTS,
    field: 'data.inputSchema.properties.a',
  },
  {
    label: 'update: structured metadata',
    method: 'PUT',
    path: '/api/v1/skills/deep',
    body: { data: structured({ metadata: 'DEEP' }) },
    deep: DEEP_OBJECTS,
    field: 'data.metadata.a',
  },
  {
    label: 'validate: structured metadata',
    method: 'POST',
    path: '/api/v1/skills/validate',
    body: { data: structured({ metadata: 'DEEP' }) },
    deep: DEEP_OBJECTS,
    field: 'data.metadata.a',
  },
  {
    label: 'find: query as an object',
    method: 'POST',
    path: '/api/v1/skills/find',
    body: { query: 'DEEP' },
    deep: DEEP_OBJECTS,
    field: 'query.a',
  },
];

describe('5,000 levels of nesting → 400 INVALID_ARGUMENT naming the field and the limit', () => {
  test.each(cases)('$label', async ({ method, path, body, deep, field }) => {
    const res = await t.request(method, path, { body: bodyWithDeep(body, deep), headers: json });
    expect(res.status, res.text.slice(0, 300)).toBe(400);
    expect(res.json.error.code).toBe('INVALID_ARGUMENT');
    expect(res.json.error.details.reason).toBe('json_too_deep');
    expect(res.json.error.details.limit).toBe(64);
    expect(res.json.error.details.field.startsWith(field)).toBe(true);
    expect(res.json.error.message).toContain('64 levels');
  });

  test('/mcp (JSON-RPC) too', async () => {
    const res = await t.request('POST', '/mcp', {
      body: bodyWithDeep({ jsonrpc: '2.0', id: 1, method: 'initialize', params: 'DEEP' }, DEEP_OBJECTS),
      headers: { ...json, accept: 'application/json, text/event-stream' },
    });
    expect(res.status, res.text.slice(0, 300)).toBe(400);
    expect(res.text).toContain('64 levels');
  });
});

test('nesting at the limit is accepted and stored as data', async () => {
  // Body (1) → source_metadata (2) → 62 more levels = 64.
  const res = await t.request('POST', '/api/v1/skills', {
    body: { data: structured({ name: 'at-the-limit' }), source_metadata: nested(62) },
  });
  expect(res.status, res.text.slice(0, 300)).toBe(200);
});

test('more values than allowed in one body → 400 json_too_many_values', async () => {
  const res = await t.request('POST', '/api/v1/skills/validate', {
    body: { data: structured({ metadata: { list: Array.from({ length: 250_000 }, () => 0) } }) },
  });
  expect(res.status).toBe(400);
  expect(res.json.error.details).toMatchObject({
    reason: 'json_too_many_values',
    limit: 200_000,
    field: 'data.metadata.list',
  });
});

describe('checkJsonBounds', () => {
  test.each([
    [{ a: { b: 1 } }, 2, null],
    [{ a: { b: 1 } }, 1, 'a'],
    [[[1]], 2, null],
    [[[1]], 1, '[0]'],
    ['scalar', 0, null],
    [{ 'odd key': { x: {} } }, 2, '["odd key"].x'],
  ])('%j at max depth %i → %j', (value, maxDepth, field) => {
    const violation = checkJsonBounds(value, maxDepth, 1000);
    expect(violation?.field ?? null).toBe(field);
  });

  test('a million levels are checked without recursion', () => {
    expect(checkJsonBounds(nested(1_000_000), 64, 10_000_000)?.reason).toBe('json_too_deep');
  });
});

describe('text and keys that cannot be kept as sent → 400 naming the field', () => {
  test.each([
    [
      'a lone surrogate in SKILL.md text',
      '{"data":"---\\nname: lone\\ndescription: Broken \\ud800 text\\n---\\nbody\\n"}',
      'data',
      'invalid_unicode',
    ],
    [
      'a lone surrogate in a structured description',
      '{"data":{"name":"lone","description":"Broken \\udc00 text"}}',
      'data.description',
      'invalid_unicode',
    ],
    [
      'a lone surrogate in a key',
      '{"data":{"name":"lone","description":"d","metadata":{"\\ud800":1}}}',
      'data.metadata',
      'invalid_unicode',
    ],
    [
      '__proto__ in source_metadata',
      '{"data":{"name":"p","description":"d"},"source_metadata":{"__proto__":{"x":1}}}',
      'source_metadata',
      'reserved_key',
    ],
    [
      '__proto__ in structured data',
      '{"data":{"name":"p","description":"d","__proto__":{"x":1}}}',
      'data',
      'reserved_key',
    ],
  ])('%s', async (_label, body, fieldStart, reason) => {
    for (const path of ['/api/v1/skills', '/api/v1/skills/validate']) {
      const res = await t.request('POST', path, { body, headers: json });
      expect(res.status, res.text.slice(0, 300)).toBe(400);
      expect(res.json.error.details.reason).toBe(reason);
      expect(res.json.error.details.field.startsWith(fieldStart)).toBe(true);
    }
  });

  test('a well-formed pair (emoji) is accepted, and SKILL.md and frontmatter agree', async () => {
    const res = await t.request('POST', '/api/v1/skills/validate', {
      body: '{"data":"---\\nname: ok\\ndescription: Fine \\ud83d\\ude00 text\\n---\\nbody\\n"}',
      headers: json,
    });
    expect(res.status).toBe(200);
    expect(res.json.result.description).toBe('Fine 😀 text');
  });
});

test('a JSON body is parsed once: the route is given the value the bounds check parsed', async () => {
  const text = JSON.stringify({
    data: '---\nname: parsed-once\ndescription: A body parsed a single time\n---\n\nThe body.\n',
    profile: 'openviking',
  });
  const parse = vi.spyOn(JSON, 'parse');
  let res: Awaited<ReturnType<TestServer['request']>>;
  let parses: number;
  try {
    res = await t.request('POST', '/api/v1/skills/validate', { body: text, headers: json });
    parses = parse.mock.calls.filter(([arg]) => arg === text).length;
  } finally {
    parse.mockRestore();
  }
  expect(res.status).toBe(200);
  expect(res.json.result.valid).toBe(true);
  expect(parses).toBe(1);
});

describe('objects of very many keys → 400 json_too_many_keys', () => {
  /** `{"data": {…, "metadata": {"k0": 0, …}}}` with `keys` keys in metadata, as text. */
  const manyKeys = (keys: number) =>
    JSON.stringify({
      data: structured({
        metadata: Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, i])),
      }),
    });

  test('a 3 MB body holding one object of 190,000 keys is refused from its text, never parsed', async () => {
    const text = manyKeys(190_000);
    expect(text.length).toBeGreaterThan(2_000_000);
    const parse = vi.spyOn(JSON, 'parse');
    let res: Awaited<ReturnType<TestServer['request']>>;
    let parses: number;
    try {
      res = await t.request('POST', '/api/v1/skills/validate', { body: text, headers: json });
      parses = parse.mock.calls.filter(([arg]) => arg === text).length;
    } finally {
      parse.mockRestore();
    }
    expect(res.status, res.text.slice(0, 300)).toBe(400);
    expect(res.json.error.details).toEqual({
      field: 'data.metadata',
      reason: 'json_too_many_keys',
      limit: 20_000,
    });
    expect(parses).toBe(0);
  });

  test('a small body is checked after parsing with the same verdict; the limit itself passes', async () => {
    const small = await startTestServer({ limits: { maxJsonObjectKeys: 1000 } });
    try {
      const over = await small.request('POST', '/api/v1/skills/validate', {
        body: manyKeys(1001),
        headers: json,
      });
      expect(over.status).toBe(400);
      expect(over.json.error.details).toEqual({
        field: 'data.metadata',
        reason: 'json_too_many_keys',
        limit: 1000,
      });
      const at = await small.request('POST', '/api/v1/skills/validate', {
        body: manyKeys(1000),
        headers: json,
      });
      expect(at.status, at.text.slice(0, 300)).toBe(200);
    } finally {
      await small.close();
    }
  });

  test('/mcp: a batch body of very many keys is refused before the MCP layer sees it', async () => {
    const res = await t.request('POST', '/mcp', {
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: Object.fromEntries(Array.from({ length: 30_000 }, (_, i) => [`p${i}`, 0])),
      }),
      headers: { ...json, accept: 'application/json, text/event-stream' },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.details).toMatchObject({ field: 'params', reason: 'json_too_many_keys' });
  });
});

describe('scanJsonText agrees with the walk of the parsed value', () => {
  const texts = [
    '{"a":{"b":[1,2,{"c":"x"}]}}',
    '{"q\\"uo\\\\":"v\\\\","k":[true,false,null,-1.5e3]}',
    '[[],{},"",[{"a":{"b":{"c":1}}}]]',
    ' { "x" : [ 1 , 2 , 3 ] , "y" : { "z" : "}" } } ',
    JSON.stringify({ list: Array.from({ length: 50 }, (_, i) => ({ [`k${i}`]: i })) }),
  ];
  test.each(texts)('%s', (text) => {
    const value = JSON.parse(text);
    for (const [maxValues, maxKeys] of [
      [1000, 1000],
      [5, 1000],
      [1000, 1],
      [12, 2],
    ] as const) {
      const scanned = scanJsonText(text, 64, maxValues, maxKeys);
      const walked = checkJsonBounds(value, 64, maxValues, maxKeys);
      expect(scanned?.reason ?? null, `${maxValues}/${maxKeys}`).toBe(walked?.reason ?? null);
      if (scanned?.reason === 'json_too_many_keys') expect(scanned.field).toBe(walked?.field);
    }
  });

  test('malformed text is left to the parser', () => {
    expect(scanJsonText('{"a": "unterminated', 64, 10, 10)).toBeNull();
  });
});
