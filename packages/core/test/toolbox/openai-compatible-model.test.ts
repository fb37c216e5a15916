import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatModelError, createOpenAICompatibleModel, isSkillportError } from '../../src/index.js';
import { type ChatServer, completion, startChatServer } from './chat-server.js';

let server: ChatServer;
beforeAll(async () => {
  server = await startChatServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

const messages = [
  { role: 'system' as const, content: 'You are a skill.' },
  { role: 'user' as const, content: 'Do it' },
];

async function failure(promise: Promise<unknown>): Promise<ChatModelError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ChatModelError);
  return error as ChatModelError;
}

describe('createOpenAICompatibleModel', () => {
  it('POSTs {model, messages} to {baseURL}/chat/completions with a bearer key and returns the content', async () => {
    server.reply({ body: completion('Done.') });
    const model = createOpenAICompatibleModel({
      baseURL: `${server.baseURL}/`,
      apiKey: 'sk-test',
      model: 'gpt-test',
    });
    await expect(model.complete(messages)).resolves.toEqual({ content: 'Done.' });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer sk-test');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toEqual({ model: 'gpt-test', messages });
  });

  it('keeps the query of an Azure-style baseURL after the /chat/completions path', async () => {
    server.reply({ body: completion('ok') }, { body: completion('ok') });
    const origin = server.baseURL.replace(/\/v1$/, '');
    await createOpenAICompatibleModel({
      baseURL: `${origin}/openai/deployments/gpt-4o?api-version=2024-10-21`,
      model: 'gpt-4o',
    }).complete(messages);
    await createOpenAICompatibleModel({ baseURL: `${server.baseURL}/#section`, model: 'm' }).complete(
      messages,
    );
    expect(server.requests.map((request) => request.url)).toEqual([
      '/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21',
      '/v1/chat/completions',
    ]);
  });

  it('sends no Authorization header without a key, and temperature / max_tokens / extra headers when set', async () => {
    server.reply({ body: completion('ok') });
    const model = createOpenAICompatibleModel({
      baseURL: server.baseURL,
      model: 'llama3.2',
      temperature: 0,
      maxTokens: 256,
      headers: { 'x-trace': 'abc' },
    });
    await model.complete(messages);
    const [request] = server.requests;
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.headers['x-trace']).toBe('abc');
    expect(request?.body).toEqual({ model: 'llama3.2', messages, temperature: 0, max_tokens: 256 });
  });

  it('joins an array of text parts', async () => {
    server.reply({
      body: completion([
        { type: 'text', text: 'Hello, ' },
        { type: 'text', text: 'world' },
      ]),
    });
    const model = createOpenAICompatibleModel({ baseURL: server.baseURL, model: 'm' });
    await expect(model.complete(messages)).resolves.toEqual({ content: 'Hello, world' });
  });

  it('retries a 429 after Retry-After and returns the later 200', async () => {
    server.reply(
      { status: 429, headers: { 'retry-after': '0' }, body: { error: { message: 'Rate limit reached' } } },
      { body: completion('after retry') },
    );
    const model = createOpenAICompatibleModel({
      baseURL: server.baseURL,
      model: 'm',
      retryBaseDelayMs: 5_000,
    });
    const started = Date.now();
    await expect(model.complete(messages)).resolves.toEqual({ content: 'after retry' });
    expect(Date.now() - started).toBeLessThan(2_000); // Retry-After: 0 beat the 5 s backoff
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.rawBody).toBe(server.requests[0]?.rawBody);
  });

  it('gives up on 500 after maxRetries with the status and the server message', async () => {
    const boom = { status: 500, body: { error: { message: 'upstream exploded', type: 'server_error' } } };
    server.reply(boom, boom, boom);
    const model = createOpenAICompatibleModel({
      baseURL: server.baseURL,
      model: 'm',
      maxRetries: 2,
      retryBaseDelayMs: 1,
    });
    const error = await failure(model.complete(messages));
    expect(server.requests).toHaveLength(3);
    expect(error.code).toBe('UNAVAILABLE');
    expect(error.upstreamStatus).toBe(500);
    expect(error.upstreamMessage).toBe('upstream exploded');
    expect(error.attempts).toBe(3);
    expect(error.message).toContain('answered 500');
    expect(error.message).toContain('upstream exploded');
    expect(error.message).toContain('after 3 attempts');
    expect(isSkillportError(error)).toBe(true);
  });

  it.each([
    {
      status: 400,
      body: { error: { message: 'bad model param' } },
      code: 'INVALID_ARGUMENT',
      shown: 'bad model param',
    },
    {
      status: 401,
      body: { error: { message: 'Incorrect API key' } },
      code: 'UNAUTHENTICATED',
      shown: 'Incorrect API key',
    },
    {
      status: 404,
      body: { error: 'model "nope" not found, try pulling it first' },
      code: 'NOT_FOUND',
      shown: 'model "nope" not found',
    },
    { status: 403, body: 'forbidden by proxy', code: 'PERMISSION_DENIED', shown: 'forbidden by proxy' },
  ])('does not retry $status and maps it to $code', async ({ status, body, code, shown }) => {
    server.reply({ status, body });
    const model = createOpenAICompatibleModel({ baseURL: server.baseURL, model: 'm', retryBaseDelayMs: 1 });
    const error = await failure(model.complete(messages));
    expect(server.requests).toHaveLength(1);
    expect(error.code).toBe(code);
    expect(error.upstreamStatus).toBe(status);
    expect(error.message).toContain(shown);
  });

  it('times out an attempt that does not answer in timeoutMs', async () => {
    server.reply(
      { delayMs: 2_000, body: completion('too late') },
      { delayMs: 2_000, body: completion('too late') },
    );
    const model = createOpenAICompatibleModel({
      baseURL: server.baseURL,
      model: 'm',
      timeoutMs: 100,
      maxRetries: 1,
      retryBaseDelayMs: 1,
    });
    const started = Date.now();
    const error = await failure(model.complete(messages));
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(error.code).toBe('DEADLINE_EXCEEDED');
    expect(error.message).toContain('within 100 ms');
    expect(error.attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
  });

  it.each([{ timeoutMs: Number.POSITIVE_INFINITY }, { timeoutMs: 2 ** 32 }])(
    'waits for a slow answer when timeoutMs is $timeoutMs (setTimeout alone fires after 1 ms)',
    async ({ timeoutMs }) => {
      server.reply({ delayMs: 200, body: completion('slow but fine') });
      const model = createOpenAICompatibleModel({
        baseURL: server.baseURL,
        model: 'm',
        timeoutMs,
        maxRetries: 0,
      });
      await expect(model.complete(messages)).resolves.toEqual({ content: 'slow but fine' });
      expect(server.requests).toHaveLength(1);
    },
  );

  it.each([
    { name: 'not JSON', body: '<html>gateway</html>', why: 'not JSON' },
    { name: 'no choices', body: { object: 'chat.completion', choices: [] }, why: 'no choices' },
    { name: 'null content', body: completion(null), why: 'content is not text' },
  ])('rejects a malformed reply ($name) without retrying', async ({ body, why }) => {
    server.reply({ body });
    const model = createOpenAICompatibleModel({ baseURL: server.baseURL, model: 'm', retryBaseDelayMs: 1 });
    const error = await failure(model.complete(messages));
    expect(error.code).toBe('PROCESSING_ERROR');
    expect(error.message).toContain(why);
    expect(server.requests).toHaveLength(1);
  });

  it('rejects with the caller abort reason and stops retrying', async () => {
    server.reply({ delayMs: 2_000, body: completion('late') });
    const model = createOpenAICompatibleModel({ baseURL: server.baseURL, model: 'm' });
    const controller = new AbortController();
    const reason = new Error('user cancelled');
    setTimeout(() => controller.abort(reason), 50);
    await expect(model.complete(messages, { signal: controller.signal })).rejects.toBe(reason);
    expect(server.requests).toHaveLength(1);
  });

  it('reports an unreachable server as UNAVAILABLE', async () => {
    const model = createOpenAICompatibleModel({
      baseURL: 'http://127.0.0.1:9/v1',
      model: 'm',
      maxRetries: 0,
    });
    const error = await failure(model.complete(messages));
    expect(error.code).toBe('UNAVAILABLE');
    expect(error.message).toContain('could not be reached');
  });

  it.each([
    { options: { baseURL: 'localhost:11434', model: 'm' }, message: 'baseURL must be an http(s) URL' },
    { options: { baseURL: 'http://localhost:11434/v1', model: ' ' }, message: 'model must name the model' },
    {
      options: { baseURL: 'http://localhost:11434/v1', model: 'm', timeoutMs: 0 },
      message: 'timeoutMs must be',
    },
    {
      options: { baseURL: 'http://localhost:11434/v1', model: 'm', timeoutMs: Number.NaN },
      message: 'timeoutMs must be',
    },
  ])('refuses bad options at creation: $message', ({ options, message }) => {
    expect(() => createOpenAICompatibleModel(options)).toThrow(message);
  });

  it('refuses a baseURL with a user name or password at creation, without repeating them', async () => {
    // Before: fetch refused the URL at every attempt, and after the retries the error said the model
    // "could not be reached", quoting the password in its message and `details.url`.
    const fetch = vi.fn(async () => new Response(JSON.stringify(completion('ok'))));
    let error: unknown;
    try {
      const model = createOpenAICompatibleModel({
        baseURL: 'http://alice:s3cret@127.0.0.1:9/v1',
        model: 'm',
        retryBaseDelayMs: 1,
        fetch,
      });
      await model.complete(messages);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ChatModelError);
    expect((error as ChatModelError).code).toBe('INVALID_ARGUMENT');
    expect((error as ChatModelError).message).toContain('must not carry a user name or password');
    expect((error as ChatModelError).message).toContain('http://***@127.0.0.1:9/v1');
    expect(JSON.stringify(error)).not.toContain('s3cret');
    expect((error as ChatModelError).message).not.toContain('s3cret');
    expect(fetch).not.toHaveBeenCalled();
  });
});
