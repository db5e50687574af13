/**
 * JSON-RPC conformance (DESIGN.md 4), the same suite over every transport: local call,
 * a MessageChannel, and a port into a worker_thread.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METHODS } from '../../src/methods/index.js';
import type { ParamSpec } from '../../src/rpc/params.js';
import { TRANSPORTS, type Transport } from '../helpers/transports.js';

const MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const req = (id: number | undefined, method: string, params?: unknown) => ({
  jsonrpc: '2.0',
  ...(id === undefined ? {} : { id }),
  method,
  ...(params === undefined ? {} : { params }),
});

/** Bad values for a param spec, each with the fragment the error message must contain. */
function badValues(name: string, spec: ParamSpec): [unknown, string][] {
  switch (spec.kind) {
    case 'limit':
      return [[spec.min - 1, `${spec.min} to ${spec.max}`], [spec.max + 1, `${spec.max}`], [1.5, 'integer'], ['10', 'integer']];
    case 'window':
      return [['7m', spec.values.join(', ')], [5, spec.values.join(', ')]];
    case 'mint':
      return [['not-base58-0OIl', 'base58'], ['abc', 'base58'], [42, 'base58']];
    case 'time':
      return [['yesterday', 'ISO-8601'], [true, 'Unix seconds'], ['2024-13-40', 'ISO-8601']];
    case 'integer':
      return [[spec.min - 1, `${spec.min} to ${spec.max}`], [spec.max + 1, `${spec.max}`], [1.5, 'integer'], ['10', 'integer']];
    case 'flag':
      return [['yes', 'true or false'], [1, 'true or false']];
    case 'keys':
      return [
        [MINT, 'array'], [Array.from({ length: spec.max + 1 }, () => MINT), `${spec.min} to ${spec.max}`],
        [['abc'], 'base58'], [[MINT, MINT], 'distinct'],
      ];
    case 'text':
      return [[42, 'string']];
  }
}

for (const [transportName, open] of Object.entries(TRANSPORTS)) {
  describe(`conformance over ${transportName}`, () => {
    let t: Transport;
    beforeAll(async () => {
      t = await open();
    });
    afterAll(() => t.close());

    it('answers text that is not JSON with -32700 and id null', async () => {
      const response = await t.request('{"jsonrpc": "2.0", "id": 1, "method": ');
      expect(response).toEqual([{ jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32700 }) }]);
    });

    it('answers JSON text with JSON results', async () => {
      const response = await t.request(JSON.stringify(req(7, 'chain::market::token', {})));
      expect(response).toEqual([{ jsonrpc: '2.0', id: 7, result: [] }]);
    });

    it('rejects invalid request objects with -32600', async () => {
      const cases: [unknown, number | null][] = [
        [42, null],
        [{ jsonrpc: '1.0', id: 3, method: 'chain::market::token' }, 3],
        [{ id: 4, method: 'chain::market::token' }, 4],
        [{ jsonrpc: '2.0', id: 5, method: 17 }, 5],
        [{ jsonrpc: '2.0', id: 'six', method: 'chain::market::token' }, null],
        [{ jsonrpc: '2.0', id: 1.5, method: 'chain::market::token' }, null],
        [{ jsonrpc: '2.0', id: 8, method: 'chain::market::token', extra: 1 }, 8],
      ];
      for (const [body, id] of cases) {
        const response = await t.request(body);
        expect(response, JSON.stringify(body)).toEqual([{ jsonrpc: '2.0', id, error: expect.objectContaining({ code: -32600 }) }]);
      }
    });

    it('answers an empty batch with one -32600 entry', async () => {
      expect(await t.request([])).toEqual([{ jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32600 }) }]);
    });

    it('answers a mixed batch in request order, skipping notifications', async () => {
      const response = await t.request([
        req(1, 'chain::market::token'),
        req(2, 'chain::market::ohlcv', { window: '7m' }),
        req(undefined, 'chain::priorityfee::block'),
        req(undefined, 'chain::no_such_method'),
        req(3, 'chain::market::nope'),
        'not a request',
        req(4, 'chain::priorityfee::fee', { window: '5m', limit: 3 }),
      ]);
      expect(response.map((e) => e.id)).toEqual([1, 2, 3, null, 4]);
      expect(response[0]).toEqual({ jsonrpc: '2.0', id: 1, result: [] });
      expect(response[1]).toMatchObject({ error: { code: -32602 } });
      expect(response[2]).toMatchObject({ error: { code: -32601 } });
      expect(response[3]).toMatchObject({ error: { code: -32600 } });
      expect(response[4]).toEqual({ jsonrpc: '2.0', id: 4, result: [] });
    });

    it('gives a single notification no entry', async () => {
      expect(await t.request(req(undefined, 'chain::market::token'))).toEqual([]);
    });

    it('echoes ids exactly', async () => {
      for (const id of [0, -1, 1, 2 ** 53 - 1, 123456789]) {
        const [entry] = await t.request(req(id, 'chain::market::token'));
        expect(entry.id).toBe(id);
      }
    });

    it('names the unknown method and suggests the closest documented one', async () => {
      const [entry] = await t.request(req(1, 'chain::market::ohlc', {}));
      expect(entry).toMatchObject({ error: { code: -32601, data: { suggestion: 'chain::market::ohlcv' } } });
      expect((entry as { error: { message: string } }).error.message).toContain('chain::market::ohlc');
      const [unprefixed] = await t.request(req(2, 'token', {}));
      expect(unprefixed).toMatchObject({ error: { code: -32601, data: { suggestion: 'chain::market::token' } } });
    });

    it('call() resolves with the result and rejects with the error object', async () => {
      await expect(t.call('chain::market::trades', { limit: 5 })).resolves.toEqual([]);
      await expect(t.call('chain::market::trades', { limit: 0 })).rejects.toMatchObject({
        rpc: { code: -32602, data: { param: 'limit' } },
      });
    });

    for (const method of METHODS) {
      describe(method.name, () => {
        it('accepts its documented params', async () => {
          const params: Record<string, unknown> = {};
          for (const [name, spec] of Object.entries(method.params)) {
            if (spec.kind === 'window') params[name] = spec.values[spec.values.length - 1];
            if (spec.kind === 'limit') params[name] = spec.max;
            if (spec.kind === 'mint') params[name] = MINT;
            if (spec.kind === 'time') params[name] = name === 'to' ? '2030-01-01T00:00:00Z' : 1_700_000_000;
            if (spec.kind === 'integer') params[name] = spec.max;
            if (spec.kind === 'flag') params[name] = true;
            if (spec.kind === 'keys') params[name] = [MINT]; // (estimate's `transaction` is the alternative to its accounts)
          }
          const [entry] = await t.request(req(1, method.name, params));
          expect(entry).toEqual({ jsonrpc: '2.0', id: 1, result: [] });
        });

        it('rejects an unknown param and a non-object params', async () => {
          const [unknown] = await t.request(req(1, method.name, { lmit: 5 }));
          expect(unknown).toMatchObject({ id: 1, error: { code: -32602, data: { param: 'lmit' } } });
          const [array] = await t.request(req(2, method.name, [5]));
          expect(array).toMatchObject({ id: 2, error: { code: -32602, data: { param: 'params' } } });
        });

        for (const [name, spec] of Object.entries(method.params)) {
          it(`rejects bad '${name}' values with -32602 naming the param and what is allowed`, async () => {
            for (const [value, allowed] of badValues(name, spec)) {
              const params: Record<string, unknown> = { [name]: value };
              // keep a required window valid while testing another param
              for (const [other, otherSpec] of Object.entries(method.params)) {
                if (other !== name && otherSpec.kind === 'window' && !otherSpec.default) params[other] = otherSpec.values[0];
              }
              const [entry] = await t.request(req(9, method.name, params));
              expect(entry, `${name}=${JSON.stringify(value)}`).toMatchObject({ id: 9, error: { code: -32602, data: { param: name } } });
              const message = (entry as { error: { message: string } }).error.message;
              expect(message).toContain(`'${name}'`);
              expect(message).toContain(allowed);
            }
          });
          if (spec.kind === 'window' && !spec.default) {
            it(`requires '${name}'`, async () => {
              const [entry] = await t.request(req(1, method.name, {}));
              expect(entry).toMatchObject({ error: { code: -32602, data: { param: name, allowed: spec.values } } });
            });
          }
        }
      });
    }
  });
}
