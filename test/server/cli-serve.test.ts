/**
 * `chainlens serve` and `chainlens token` as a user runs them (the compiled bin in child processes):
 * the first token, tokens issued, listed and revoked through the admin channel (and on the file
 * when no server runs), a graceful SIGTERM (the request in flight is answered, WebSockets close
 * with 1001, exit 0), and a restart that keeps the revocations.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { connect as netConnect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { chain, SolanaRpcServer } from '../helpers/solana-rpc-server.js';

const BIN = fileURLToPath(new URL('../../bin/chainlens.js', import.meta.url));
const run = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });

interface Running {
  child: ChildProcess;
  url: string;
  /** The first token, when the server issued one. */
  token?: string;
  stderr: string[];
  exited: Promise<number | null>;
}

/** Starts `chainlens serve` and waits for its "serving" line (and its first-token line, when `firstToken`). */
async function startServe(args: string[], firstToken: boolean): Promise<Running> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const running: Partial<Running> = { child, stderr, exited };
  while (running.url === undefined || (firstToken && running.token === undefined)) {
    const { value, done } = await lines.next();
    if (done) throw new Error(`serve ended early: ${stderr.join('\n')}`);
    running.url ??= /serving (http:\/\/\S+)/.exec(value)?.[1];
    running.token ??= /(cl_[0-9a-f]{12}_[\w-]{43})/.exec(value)?.[1];
  }
  return running as Running;
}

const post = (url: string, token: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
const TRADES = { jsonrpc: '2.0', id: 1, method: 'chain::market::trades', params: { limit: 3 } };

describe('chainlens serve', () => {
  let dump: string;
  let state: string;
  let server: Running | undefined;
  beforeAll(() => {
    dump = mkdtempSync(join(tmpdir(), 'chainlens-serve-dump-'));
    state = mkdtempSync(join(tmpdir(), 'chainlens-serve-'));
    const generated = run(['generate', '--out', dump, '--minutes', '0.2', '--seed', '3', '--format', 'ndjson', '--tx-per-block', '100']);
    expect(generated.status, generated.stderr).toBe(0);
  });
  afterAll(() => {
    server?.child.kill('SIGKILL');
  });

  it('serves the data, issues and revokes tokens at run time, shuts down gracefully on SIGTERM and keeps revocations over a restart', { timeout: 120_000 }, async () => {
    server = await startServe(['--state', state, '--data', dump], true);
    const first = server.token!;
    // the load runs while the server answers; once done, the trades are there
    await expect.poll(async () => ((await (await post(server!.url, first, TRADES)).json()) as { result: unknown[] }[])[0]!.result.length, { timeout: 30_000 }).toBe(3);

    const issued = run(['token', 'issue', '--state', state, '--label', 'ci bot']);
    expect(issued.status, issued.stderr).toBe(0);
    const second = issued.stdout.trim();
    expect(issued.stderr).toMatch(/the server keeps its hash/);
    expect((await post(server.url, second, TRADES)).status).toBe(200);
    const listed = run(['token', 'list', '--state', state]);
    expect(listed.stdout).toMatch(/first token/);
    expect(listed.stdout).toMatch(/ci bot/);
    const id = /cl_([0-9a-f]{12})_/.exec(first)![1]!;
    expect(run(['token', 'revoke', id, '--state', state]).status).toBe(0);
    expect((await post(server.url, first, TRADES)).status).toBe(401);
    expect(run(['token', 'revoke', 'ffffffffffff', '--state', state]).status).toBe(1);

    // a WebSocket with a stream open, and a POST whose body is still arriving when SIGTERM comes
    const ws = new WebSocket(server.url.replace('http', 'ws'), { headers: { authorization: `Bearer ${second}` } });
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'chain::subscribe', params: { method: 'chain::market::block', params: {} } }));
    await new Promise((resolve) => ws.once('message', resolve));
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    const body = JSON.stringify(TRADES);
    const { port } = new URL(server.url);
    const socket = netConnect(Number(port), '127.0.0.1');
    const reply = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (d) => (text += d));
      socket.on('close', () => resolve(text));
    });
    socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer ${second}\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.write(body.slice(10));
    const answer = await reply;
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toMatch(/"result":\[\{/);
    expect(await closed).toBe(1001);
    expect(await server.exited).toBe(0);
    expect(server.stderr.join('\n')).toMatch(/SIGTERM: shutting down/);

    // a restart: no new first token (one is active), the revocation holds, the issued token works
    server = await startServe(['--state', state, '--data', dump], false);
    expect((await post(server.url, first, TRADES)).status).toBe(401);
    expect((await post(server.url, second, TRADES)).status).toBe(200);
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
    server = undefined;
  });

  it('follows a Solana JSON-RPC endpoint with --rpc, and after a SIGTERM resumes from the slot after the newest committed one', { timeout: 120_000 }, async () => {
    const FIRST = 400_000_000n;
    const blocks = chain('BB.B.BB', FIRST);
    const rpc = await SolanaRpcServer.start(blocks, FIRST + 1n);
    const live = mkdtempSync(join(tmpdir(), 'chainlens-serve-rpc-'));
    const newestSlots = async (running: Running, token: string) => {
      const answer = (await (await post(running.url, token, { jsonrpc: '2.0', id: 1, method: 'chain::priorityfee::block', params: { limit: 10 } })).json()) as { result: { slot: string }[] }[];
      return answer[0]!.result.map((b) => b.slot);
    };
    try {
      server = await startServe(['--state', live, '--rpc', rpc.url, '--rpc-from', String(FIRST)], true);
      const token = server.token!;
      await expect.poll(() => newestSlots(server!, token), { timeout: 30_000 }).toEqual([String(FIRST + 1n), String(FIRST)]);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(JSON.parse(readFileSync(join(live, 'rpc-cursor.json'), 'utf8'))).toEqual({ slot: String(FIRST + 1n) });

      // the chain moved on while the server was down: the restart fills the gap from the cursor, nothing twice
      rpc.tip = blocks.at(-1)!.slot;
      const requestsBefore = rpc.requests.length;
      server = await startServe(['--state', live, '--rpc', rpc.url, '--rpc-from', String(FIRST)], false);
      const expected = blocks.slice(2).map((b) => String(b.slot)).reverse();
      await expect.poll(() => newestSlots(server!, token), { timeout: 30_000 }).toEqual(expected);
      expect(rpc.blockRequests(requestsBefore).map(String)).toEqual([...expected].reverse());
      server.child.kill('SIGINT');
      expect(await server.exited).toBe(0);
      expect(server.stderr.join('\n')).toMatch(/3 blocks committed, 2 skipped slots, 0 rejected/);
      server = undefined;
    } finally {
      await rpc.close();
    }
  });

  it('token works on the file when no server is running', () => {
    const alone = mkdtempSync(join(tmpdir(), 'chainlens-tokens-'));
    const issued = run(['token', 'issue', '--state', alone, '--demo']);
    expect(issued.status, issued.stderr).toBe(0);
    expect(issued.stderr).toMatch(/written to .*tokens\.json/);
    expect(run(['token', 'list', '--state', alone]).stdout).toMatch(/demo/);
    expect(run(['token', 'frobnicate', '--state', alone]).status).toBe(2);
  });

  it('a busy port is a clear message and exit status 1, not a stack trace', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = busy.address() as AddressInfo;
      const result = run(['serve', '--port', String(port), '--state', mkdtempSync(join(tmpdir(), 'chainlens-busy-'))]);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`port ${port} is in use; pass --port 0 for a free one`);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    } finally {
      busy.close();
    }
  });
});
