/**
 * Regressions of hostile envelopes, one per reproduced bug, each named after it. The expectations
 * are JSON-RPC 2.0's and the documented limits (docs/semantics.md, Limits), not this code's output.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nested, nestedText } from '../../fuzz/envelopes.js';
import { generateBlocks } from '../../src/generate/market.js';
import { connect, createEngine, type Client, type Engine } from '../../src/index.node.js';
import { ECHO_CHARS, MAX_BATCH } from '../../src/rpc/limits.js';

let engine: Engine;
let client: Client;
let serverPort: MessagePort;
let clientPort: MessagePort;

beforeAll(async () => {
  engine = await createEngine();
  const blocks = [...generateBlocks({ blocks: 5, txPerBlock: 20, seed: 'hostile' })];
  await engine.ingest({ blocks: blocks.map((b) => b.block), transactions: blocks.flatMap((b) => b.transactions), trades: blocks.flatMap((b) => b.trades) });
  ({ port1: serverPort, port2: clientPort } = new MessageChannel());
  engine.serve(serverPort);
  client = connect(clientPort);
});
afterAll(async () => {
  client.close();
  serverPort.close();
  await engine.close();
});

const request = (id: number, method: string, params: unknown = {}) => ({ jsonrpc: '2.0', id, method, params });
const TOKEN = 'chain::market::token';

describe('replies over a MessagePort go to their own request', () => {
  it('misrouted reply: a body the server cannot decode is answered, and later replies stay with their requests', async () => {
    // a hand-written client posts bare bodies; one is too deep to decode on the server's side
    const { port1, port2 } = new MessageChannel();
    engine.serve(port1);
    const replies: unknown[] = [];
    port2.on('message', (m) => replies.push(m));
    port2.postMessage(request(1, TOKEN, nested(2_500)));
    port2.postMessage(request(2, TOKEN));
    while (replies.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(replies[0]).toEqual([{ jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32700 }) }]);
    expect((replies[1] as { id: number }[])[0]!.id).toBe(2);
    port2.close();
  });

  it('misrouted reply: a body the client cannot post rejects -32600 and leaves nothing pending', async () => {
    const withFunction = client.request(request(10, TOKEN, { mint: () => 1 }));
    const tooDeep = client.request(request(11, TOKEN, nested(4_200)));
    const fine = client.request(request(12, TOKEN));
    await expect(withFunction).rejects.toMatchObject({ code: -32600 });
    await expect(tooDeep).rejects.toMatchObject({ code: -32600 });
    const [entry] = await fine;
    expect(entry).toMatchObject({ id: 12, result: expect.any(Array) });
  });

  it('misrouted reply: slow and fast requests in flight together each get their own answer', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => 100 + i);
    const answers = await Promise.all(ids.map((id) => client.request(request(id, id % 2 ? TOKEN : 'chain::priorityfee::block', { at: 1_767_225_700 - (id % 3) }))));
    expect(answers.map((a) => a[0]!.id)).toEqual(ids);
  });
});

describe('wrong codes', () => {
  for (const [name, body] of [
    ['object', request(1, TOKEN, nested(4_200))],
    ['text', `{"jsonrpc":"2.0","id":1,"method":"${TOKEN}","params":${nestedText(4_200)}}`],
  ] as const) {
    it(`params nested 4,200 deep (${name}) are -32602, not a stack overflow`, async () => {
      const [entry] = await engine.request(body);
      expect(entry).toMatchObject({ id: 1, error: { code: -32602, message: expect.stringMatching(/nest deeper than/) } });
    });
  }

  it('a BigInt or a cyclic value through the object API is -32602', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const value of [5n, cyclic]) {
      const [entry] = await engine.request(request(1, 'chain::market::trades', { limit: value }));
      expect(entry).toMatchObject({ id: 1, error: { code: -32602 } });
    }
  });

  it('params named constructor or toString are -32602 like any unknown name', async () => {
    for (const name of ['constructor', 'toString', 'hasOwnProperty', 'bogus']) {
      const [entry] = await engine.request(JSON.parse(`{"jsonrpc":"2.0","id":1,"method":"${TOKEN}","params":{"${name}":1}}`));
      expect(entry).toMatchObject({ id: 1, error: { code: -32602, data: { param: name } } });
    }
  });

  it('an envelope member inherited from a prototype is not a member', async () => {
    const inherits = Object.create({ jsonrpc: '2.0', method: TOKEN }) as Record<string, unknown>;
    inherits.id = 1;
    const [entry] = await engine.request(inherits);
    expect(entry).toMatchObject({ id: 1, error: { code: -32600 } });
  });
});

describe('bounded work per request', () => {
  it('a 1 MB unknown method name: -32601 repeating only its start, no suggestion', async () => {
    const name = 'x'.repeat(1_000_000);
    const reply = await engine.request(request(1, name));
    expect(reply[0]).toMatchObject({ id: 1, error: { code: -32601, data: { suggestion: undefined } } });
    expect(JSON.stringify(reply).length).toBeLessThan(1_000);
  });

  it(`a -32602 repeats at most ${ECHO_CHARS} characters of the input`, async () => {
    const [entry] = await engine.request(request(1, 'chain::market::trades', { mint: 'y'.repeat(1_000_000) }));
    expect(entry).toMatchObject({ id: 1, error: { code: -32602 } });
    expect(JSON.stringify(entry).length).toBeLessThan(600);
  });

  it(`a batch longer than ${MAX_BATCH} is one -32600`, async () => {
    const batch = Array.from({ length: 10_000 }, (_, i) => request(i + 1, TOKEN));
    const reply = await engine.request(batch);
    expect(reply).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: `invalid request: a batch of 10000 requests; at most ${MAX_BATCH}` } }]);
    expect(await engine.request(batch.slice(0, MAX_BATCH))).toHaveLength(MAX_BATCH);
  });
});
