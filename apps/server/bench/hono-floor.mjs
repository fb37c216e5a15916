// The framework floor of the server benchmark: a bare Hono app on @hono/node-server (the stack the
// server is built on, without its middleware, validation, store or logging) answering the same fixed
// JSON body as the bare node:http ceiling. Started by server.bench.mjs in its own process; prints
// `{"url": ...}` once listening.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const body = { status: 'ok', result: { name: 'skill-00001', description: 'fixed body' }, time: 0 };
const app = new Hono();
app.get('*', (c) => c.json(body));
const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
  console.log(JSON.stringify({ url: `http://127.0.0.1:${info.port}` }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
