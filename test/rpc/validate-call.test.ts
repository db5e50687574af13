/** validateCall: the error a call would get for its method or params, found without running it. */
import { describe, expect, it } from 'vitest';
import { METHOD_TABLE } from '../../src/methods/index.js';
import { validateCall } from '../../src/rpc/dispatch.js';
import { NO_PUSH_METHODS } from '../../src/stream/connection.js';

const target = { methods: METHOD_TABLE, extra: NO_PUSH_METHODS };

describe('validateCall', () => {
  it('passes a valid call and an extra method (its params are its own to check)', () => {
    expect(validateCall('chain::market::trades', { limit: 5 }, target)).toBeUndefined();
    expect(validateCall('chain::priorityfee::fee', { window: '1m', at: '2026-01-01T00:00:00Z' }, target)).toBeUndefined();
    expect(validateCall('chain::subscribe', 'anything', target)).toBeUndefined();
  });

  it('answers -32601 with a suggestion for an unknown method and -32602 naming a bad param', () => {
    expect(validateCall('chain::market::trade', {}, target)).toMatchObject({ code: -32601, data: { suggestion: 'chain::market::trades' } });
    expect(validateCall('chain::market::trades', { limit: 0 }, target)).toMatchObject({ code: -32602, data: { param: 'limit' } });
    expect(validateCall('chain::market::trades', { limt: 1 }, target)).toMatchObject({ code: -32602, data: { param: 'limt' } });
    expect(validateCall('chain::market::trades', [], target)).toMatchObject({ code: -32602, data: { param: 'params' } });
  });
});
