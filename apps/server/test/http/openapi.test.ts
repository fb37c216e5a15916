import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { renderOpenApiJson } from '../../src/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const committed = path.resolve(import.meta.dirname, '../../../../spec/openapi.json');

describe('GET /openapi.json', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });

  test('serves an OpenAPI 3.1 document naming every route of the contract', async () => {
    const res = await t.request('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.json.openapi).toBe('3.1.0');
    const routes = Object.entries(res.json.paths as Record<string, object>).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
    );
    for (const route of [
      'POST /api/v1/resources/temp_upload',
      'POST /api/v1/skills',
      'GET /api/v1/skills',
      'POST /api/v1/skills/find',
      'POST /api/v1/skills/validate',
      'GET /api/v1/skills/{name}',
      'PUT /api/v1/skills/{name}',
      'DELETE /api/v1/skills/{name}',
      'GET /api/v1/tasks/{task_id}',
      'POST /api/v1/system/wait',
      'GET /api/v1/observer/queue',
      'GET /health',
    ]) {
      expect(routes).toContain(route);
    }
  });

  test('spec/openapi.json is what the app generates (run `pnpm --filter @skillport/server generate`)', async () => {
    const res = await t.request('GET', '/openapi.json');
    expect(readFileSync(committed, 'utf8')).toBe(renderOpenApiJson(res.json));
  });
});
