/**
 * The HTTP + WebSocket server (docs/semantics.md, Server) on an ephemeral loopback port: the
 * bytes it answers, every refusal's status, headers and error entry, tokens issued and revoked at
 * run time through the admin channel, the demo rate, CORS, slow clients and slow subscribers.
 * Clients: fetch, curl, `ws`, and raw sockets where a client must misbehave.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { adminCall, createEngine, serve, serveAdmin, TokenStore, type Engine, type Server } from '../../src/index.node.js';
import { METHODS } from '../../src/methods/index.js';
import type { PushParams } from '../../src/stream/push.js';
import { connectWs } from '../helpers/ws-client.js';
import { lawDump } from '../stream/law.js';

const run = promisify(execFile);
const JSON_HEADERS = { 'content-type': 'application/json' };

/** A request for every data method, with the params it needs. */
const EVERY_METHOD = METHODS.map((method, k) => ({
  jsonrpc: '2.0',
  id: k + 1,
  method: method.name,
  params: 'window' in method.params ? { window: method.name.endsWith('top_txs') ? '5m' : '1m' } : {},
}));

const post = (server: Server, token: string | undefined, body: string, headers: Record<string, string> = JSON_HEADERS) =>
  fetch(server.url, { method: 'POST', headers: token === undefined ? headers : { ...headers, authorization: `Bearer ${token}` }, body });

/** The status, headers and error entry of a refused request. */
async function refusal(response: Response) {
  const body = (await response.json()) as { id: null; error: { code: number; message: string; data?: unknown } }[];
  expect(body).toHaveLength(1);
  expect(body[0]!.id).toBeNull();
  return { status: response.status, error: body[0]!.error, headers: response.headers };
}

/** Opens a socket; resolves with it open, or with the HTTP status that refused the upgrade. */
function openSocket(url: string, options: WebSocket.ClientOptions, protocols?: string[]): Promise<WebSocket | number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url.replace(/^http/, 'ws'), protocols, options);
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode!));
    ws.once('error', reject);
  });
}

describe('server', () => {
  let engine: Engine;
  let server: Server;
  let token: string;
  let state: string;

  beforeAll(async () => {
    const dump = await lawDump();
    engine = await createEngine({ minSamples: 10 });
    await engine.load(dump.dir);
    state = mkdtempSync(join(tmpdir(), 'chainlens-server-'));
    server = await serve(engine, {
      port: 0, tokens: await TokenStore.open(join(state, 'tokens.json')), demoRate: { perSecond: 1, burst: 2 },
      corsOrigins: ['https://app.example'], maxBodyBytes: 64 * 1024, headersTimeoutMs: 300,
    });
    token = (await server.tokens.issue({ label: 'test' })).token;
  });
  afterAll(async () => {
    await server?.close();
    await engine?.close();
  });

  it('binds loopback by default', () => {
    expect(server.host).toBe('127.0.0.1');
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
  });

  it('answers POST / with the bytes engine.request answers, for every method in one batch, through fetch and curl', async () => {
    const body = JSON.stringify(EVERY_METHOD);
    const local = JSON.stringify(await engine.request(body));
    const response = await post(server, token, body);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await response.text();
    expect(text).toBe(local);
    expect((JSON.parse(text) as unknown[]).length).toBe(METHODS.length);
    const file = join(state, 'body.json');
    writeFileSync(file, body);
    const { stdout } = await run('curl', ['-sS', '-X', 'POST', '-H', `Authorization: Bearer ${token}`, '-H', 'Content-Type: application/json', '--data-binary', `@${file}`, server.url]);
    expect(stdout).toBe(local);
  });

  it('answers a WebSocket frame with the same bytes', async () => {
    const client = await connectWs(server.url, token);
    try {
      const body = JSON.stringify(EVERY_METHOD);
      const reply = new Promise<string>((resolve) => client.socket.once('message', (data) => resolve(String(data))));
      client.socket.send(body);
      expect(await reply).toBe(JSON.stringify(await engine.request(body)));
    } finally {
      await client.close();
    }
  });

  it('refuses a missing, malformed, unknown or revoked token with 401 and -32001', async () => {
    const revoked = await server.tokens.issue({ label: 'to revoke' });
    await server.tokens.revoke(revoked.info.id);
    const body = JSON.stringify(EVERY_METHOD[0]);
    const cases: [Record<string, string>, string][] = [
      [JSON_HEADERS, 'missing'],
      [{ ...JSON_HEADERS, authorization: 'Bearer not-a-token' }, 'malformed'],
      [{ ...JSON_HEADERS, authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }, 'malformed'],
      [{ ...JSON_HEADERS, authorization: `Bearer cl_000000000000_${'A'.repeat(43)}` }, 'unknown'],
      [{ ...JSON_HEADERS, authorization: `Bearer ${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}` }, 'unknown'],
      [{ ...JSON_HEADERS, authorization: `Bearer ${revoked.token}` }, 'revoked'],
    ];
    for (const [headers, reason] of cases) {
      const { status, error, headers: got } = await refusal(await post(server, undefined, body, headers));
      expect(status, reason).toBe(401);
      expect(error, reason).toMatchObject({ code: -32001, data: { reason } });
      expect(got.get('www-authenticate'), reason).toMatch(/^Bearer realm="chainlens"/);
    }
  });

  it('refuses a WebSocket upgrade without a valid token (401), and takes a token in the Authorization header or a bearer.<token> subprotocol', async () => {
    expect(await openSocket(server.url, {})).toBe(401);
    expect(await openSocket(new URL('/other', server.url).href, { headers: { authorization: `Bearer ${token}` } })).toBe(404);
    expect(await openSocket(server.url, { headers: { authorization: 'Bearer cl_nope' } })).toBe(401);
    for (const socket of [await openSocket(server.url, { headers: { authorization: `Bearer ${token}` } }), await openSocket(server.url, {}, [`bearer.${token}`])]) {
      expect(socket).toBeInstanceOf(WebSocket);
      (socket as WebSocket).close();
    }
  });

  it('answers what is not a JSON-RPC POST with its status and an error entry', async () => {
    const body = JSON.stringify(EVERY_METHOD[0]);
    const auth = { authorization: `Bearer ${token}` };
    expect(await refusal(await fetch(new URL('/other', server.url), { method: 'POST', headers: { ...JSON_HEADERS, ...auth }, body }))).toMatchObject({ status: 404, error: { code: -32600 } });
    const get = await refusal(await fetch(server.url, { headers: auth }));
    expect(get).toMatchObject({ status: 405, error: { code: -32600 } });
    expect(get.headers.get('allow')).toBe('POST');
    expect(await refusal(await post(server, token, body, { 'content-type': 'text/plain' }))).toMatchObject({ status: 415, error: { code: -32600 } });
    expect(await refusal(await post(server, token, 'x'.repeat(64 * 1024 + 1)))).toMatchObject({ status: 413, error: { code: -32600 } });
    // a body that comes in chunks, without a length, is cut at the limit too
    const chunked = new ReadableStream({
      start(controller) {
        for (let k = 0; k < 80; k++) controller.enqueue(new TextEncoder().encode(' '.repeat(1024)));
        controller.close();
      },
    });
    const streamed = await fetch(server.url, { method: 'POST', headers: { ...JSON_HEADERS, ...auth }, body: chunked, duplex: 'half' } as RequestInit);
    expect(streamed.status).toBe(413);
    // JSON-RPC's own refusals are 200s with the entries the local call answers
    const batch = JSON.stringify(Array.from({ length: 101 }, () => EVERY_METHOD[0]));
    const tooLong = await post(server, token, batch);
    expect(tooLong.status).toBe(200);
    expect(await tooLong.text()).toBe(JSON.stringify(await engine.request(batch)));
    expect(await (await post(server, token, '{not json')).json()).toMatchObject([{ id: null, error: { code: -32700 } }]);
  });

  it('rate-limits a demo token with 429, Retry-After and -32005, and leaves other tokens alone', async () => {
    const demo = (await server.tokens.issue({ label: 'demo', demo: true })).token;
    const body = JSON.stringify(EVERY_METHOD[0]);
    const statuses = [];
    for (let k = 0; k < 3; k++) statuses.push((await post(server, demo, body)).status);
    expect(statuses).toEqual([200, 200, 429]);
    const limited = await refusal(await post(server, demo, body));
    expect(limited).toMatchObject({ status: 429, error: { code: -32005, data: { perSecond: 1, burst: 2 } } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await post(server, token, body)).status).toBe(200);
    // the same bucket over a WebSocket: a frame past the rate gets the -32005 entry
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const client = await connectWs(server.url, demo); // the upgrade takes one unit
    try {
      await client.request(body);
      expect(await client.request(body)).toMatchObject([{ error: { code: -32005 } }]);
    } finally {
      await client.close();
    }
  });

  it('sends CORS headers to listed origins only', async () => {
    const body = JSON.stringify(EVERY_METHOD[0]);
    const listed = await post(server, token, body, { ...JSON_HEADERS, origin: 'https://app.example' });
    expect(listed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const other = await post(server, token, body, { ...JSON_HEADERS, origin: 'https://evil.example' });
    expect(other.status).toBe(200);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(server.url, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    expect((await fetch(server.url, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } })).status).toBe(405);
    expect(await openSocket(server.url, { headers: { authorization: `Bearer ${token}`, origin: 'https://evil.example' } })).toBe(403);
  });

  it('drops a client that does not finish its headers in time', async () => {
    const socket = netConnect(server.port, '127.0.0.1');
    socket.write('POST / HTTP/1.1\r\nHost: x\r\n');
    const started = performance.now();
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (d) => (text += d));
      socket.on('close', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('issues and revokes tokens at run time through the admin channel; revocation survives a restart, the file holds no token', async () => {
    const admin = await serveAdmin(server.tokens, join(state, 'admin.sock'));
    try {
      const { token: issued, info } = await adminCall(admin.path, 'admin::token::issue', { label: 'ops' });
      const body = JSON.stringify(EVERY_METHOD[0]);
      expect((await post(server, issued, body)).status).toBe(200);
      const socket = await connectWs(server.url, issued);
      expect((await adminCall(admin.path, 'admin::token::list')).map((t) => t.id)).toContain(info.id);
      await adminCall(admin.path, 'admin::token::revoke', { id: info.id });
      expect((await post(server, issued, body)).status).toBe(401);
      // an open socket of a revoked token is closed on its next frame, with 1008 and the -32001 entry
      const closed = new Promise<number>((resolve) => socket.socket.once('close', (code) => resolve(code)));
      expect(await socket.request(body)).toMatchObject([{ error: { code: -32001, data: { reason: 'revoked' } } }]);
      expect(await closed).toBe(1008);
      await expect(adminCall(admin.path, 'admin::token::revoke', { id: 'ffffffffffff' })).rejects.toThrow(/no token/);

      const file = readFileSync(join(state, 'tokens.json'), 'utf8');
      for (const secret of [issued, token]) expect(file).not.toContain(secret.slice(16));
      const reopened = await TokenStore.open(join(state, 'tokens.json'));
      expect(reopened.check(issued)).toEqual({ ok: false, refusal: 'revoked' });
      expect(reopened.check(token)).toMatchObject({ ok: true });
    } finally {
      await admin.close();
    }
  });
});

describe('server streams', () => {
  it('ends the subscription of a WebSocket that stops reading at the slow-subscriber bound (-32005), and keeps serving others', { timeout: 120_000 }, async () => {
    const dump = await lawDump();
    const engine = await createEngine({ minSamples: 10, streams: { maxPendingPushes: 100 } });
    const server = await serve(engine, { port: 0 });
    const { token } = await server.tokens.issue();
    const slow = await connectWs(server.url, token);
    const fast = await connectWs(server.url, token);
    try {
      const slowPushes: PushParams[] = [];
      const fastPushes: PushParams[] = [];
      // top lists are ~50 KB a push: a few subscriptions fill the socket's buffers within the replay
      // (the bound is above the 64 blocks a replay commits at once, which a reader that keeps up gets in one go)
      for (let k = 0; k < 6; k++) await slow.subscribe('chain::priorityfee::top_txs', { window: '5m' }, (p) => void slowPushes.push(p));
      await fast.subscribe('chain::priorityfee::block', {}, (p) => void fastPushes.push(p));
      (slow.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
      const report = await engine.replay(dump.dir, { speed: Infinity }).done;
      await fast.call('chain::market::token', {});
      expect(fastPushes).toHaveLength(report.blocks);
      (slow.socket as unknown as { _socket: { resume(): void } })._socket.resume();
      await slow.call('chain::market::token', {});
      const ended = slowPushes.filter((p) => p.error);
      expect(ended.length).toBeGreaterThan(0);
      for (const push of ended) expect(push.error).toMatchObject({ code: -32005, data: { reason: 'slow subscriber', maxPendingPushes: 100 } });
      // nothing follows a subscription's last push
      for (const push of ended) expect(slowPushes.filter((p) => p.subscription === push.subscription).at(-1)).toBe(push);
    } finally {
      await slow.close();
      await fast.close();
      await server.close();
      await engine.close();
    }
  });

  it('drops a WebSocket whose peer stops answering pings, and keeps one that answers', { timeout: 30_000 }, async () => {
    const engine = await createEngine();
    const server = await serve(engine, { port: 0, heartbeatMs: 150 });
    const { token } = await server.tokens.issue();
    const gone = await connectWs(server.url, token);
    const alive = await connectWs(server.url, token);
    try {
      await gone.subscribe('chain::priorityfee::block', {}, () => undefined);
      // a peer that vanished without a close: nothing it receives is read, so no pong comes back
      (gone.socket as unknown as { _socket: { pause(): void } })._socket.pause();
      await expect.poll(() => server.sockets, { timeout: 5_000, interval: 50 }).toBe(1);
      expect(await alive.call('chain::market::token', {})).toEqual([]);
    } finally {
      gone.socket.terminate();
      await alive.close();
      await server.close();
      await engine.close();
    }
  });

  it('answers while a load commits, what is committed so far (chain::market::ingestion grows)', { timeout: 120_000 }, async () => {
    const dump = await lawDump();
    const engine = await createEngine();
    const server = await serve(engine, { port: 0 });
    const { token } = await server.tokens.issue();
    try {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'chain::market::ingestion', params: { limit: 300 } });
      const counts: number[] = [];
      let loaded = false;
      const loading = engine.load(dump.dir, { batchRows: 500 }).then((r) => ((loaded = true), r));
      while (!loaded) {
        const [entry] = (await (await post(server, token, body)).json()) as { result: unknown[] }[];
        counts.push(entry!.result.length);
      }
      const report = await loading;
      const [final] = (await (await post(server, token, body)).json()) as { result: unknown[] }[];
      expect(final!.result.length).toBe(Math.min(300, report.blocks));
      expect(counts.some((n) => n > 0 && n < final!.result.length)).toBe(true);
      expect(counts).toEqual([...counts].sort((a, b) => a - b));
    } finally {
      await server.close();
      await engine.close();
    }
  });
});
