/**
 * An unexpected error inside a method (a bug, not a bad request) is answered with -32603 in the
 * JSON-RPC envelope: message "internal error", the error's message as data.reason, never its stack.
 * Checked for a data method that throws or rejects (its handler replaced for the test), over the
 * local engine and a MessageChannel, in a batch beside a good request, and for an extra port method.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connect, createEngine, type Engine } from '../../src/index.node.js';
import { METHOD_TABLE } from '../../src/methods/index.js';
import type { ResponseEntry } from '../../src/rpc/dispatch.js';
import { RpcError } from '../../src/rpc/errors.js';

const METHOD = 'chain::market::token';
const INTERNAL = { code: -32603, message: 'internal error', data: { reason: 'boom: cannot read the column' } };

/** An error as a bug throws it: with a stack of file paths and line numbers. */
const bug = () => new TypeError('boom: cannot read the column');

/** No trace of a stack in an answer: no frames, no source paths or line numbers. */
function expectNoStack(response: unknown) {
  const text = JSON.stringify(response);
  expect(text).not.toMatch(/\bat \S+ \(|\bat file:|\.[cm]?[jt]s:\d+|node_modules|TypeError|"stack"/);
  expect(text).not.toContain(bug().stack!.split('\n')[1]!.trim());
}

let engines: Engine[] = [];
const ports: MessagePort[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const port of ports.splice(0)) port.close();
  await Promise.all(engines.map((e) => e.close()));
  engines = [];
});

async function open(): Promise<Engine> {
  const engine = await createEngine();
  engines.push(engine);
  return engine;
}

/** Makes the method's handler fail: throwing at once, or with a rejected promise. */
function breakMethod(how: 'throws' | 'rejects') {
  const definition = METHOD_TABLE.get(METHOD)!;
  return vi.spyOn(definition, 'handle').mockImplementation(() => {
    if (how === 'throws') throw bug();
    return Promise.reject(bug());
  });
}

describe('-32603 for an unexpected error inside a method', () => {
  for (const how of ['throws', 'rejects'] as const) {
    it(`a data method that ${how}: engine.request, engine.call and a served port`, async () => {
      const engine = await open();
      const handle = breakMethod(how);
      const request = { jsonrpc: '2.0', id: 1, method: METHOD, params: {} };

      const local = await engine.request(request);
      expect(local).toEqual([{ jsonrpc: '2.0', id: 1, error: INTERNAL }]);
      expectNoStack(local);
      expectNoStack(await engine.request(JSON.stringify(request)));

      const error = await engine.call(METHOD, {}).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(RpcError);
      expect((error as RpcError).rpc).toEqual(INTERNAL);
      expectNoStack((error as RpcError).rpc);

      const { port1, port2 } = new MessageChannel();
      ports.push(port1, port2);
      engine.serve(port1);
      const client = connect(port2);
      const remote = await client.request(JSON.stringify(request));
      expect(remote).toEqual([{ jsonrpc: '2.0', id: 1, error: INTERNAL }]);
      expectNoStack(remote);
      client.close();
      expect(handle).toHaveBeenCalledTimes(4);
    });
  }

  it('in a batch, only the failing entry is the error', async () => {
    const engine = await open();
    breakMethod('rejects');
    const response: ResponseEntry[] = await engine.request([
      { jsonrpc: '2.0', id: 1, method: 'chain::market::trades', params: {} },
      { jsonrpc: '2.0', id: 2, method: METHOD, params: {} },
      { jsonrpc: '2.0', method: METHOD, params: {} }, // a notification: no entry, even for an error
    ]);
    expect(response).toEqual([{ jsonrpc: '2.0', id: 1, result: [] }, { jsonrpc: '2.0', id: 2, error: INTERNAL }]);
    expectNoStack(response);
  });

  it('an extra method of a served port that throws', async () => {
    const engine = await open();
    const { port1, port2 } = new MessageChannel();
    ports.push(port1, port2);
    engine.serve(port1, { methods: { 'test::broken': () => { throw bug(); } } });
    const client = connect(port2);
    const response = await client.request({ jsonrpc: '2.0', id: 9, method: 'test::broken', params: {} });
    expect(response).toEqual([{ jsonrpc: '2.0', id: 9, error: INTERNAL }]);
    expectNoStack(response);
    client.close();
  });
});
