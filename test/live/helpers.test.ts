/**
 * The live source's small parts, against expectations written here: the JSON member scanner (against
 * JSON.parse of each member it finds) and the retry arithmetic (against the documented policy).
 */
import { describe, expect, it } from 'vitest';
import { memberSpans } from '../../src/live/json-members.js';
import { backoffMs, retryAfterMs, retryPolicy } from '../../src/live/retry.js';
import { jsonText, displayUrl } from '../../src/live/rpc-client.js';

/** The members memberSpans finds, each value parsed on its own. */
function members(text: string) {
  const spans = memberSpans(text);
  return spans && Object.fromEntries([...spans].map(([key, { start, end }]) => [key, JSON.parse(text.slice(start, end))]));
}

describe('memberSpans', () => {
  it('finds every top-level member, whatever the strings hold', () => {
    const value = {
      jsonrpc: '2.0',
      result: { logMessages: ['a "quoted" {brace} [bracket]', 'ends with a backslash \\', '\\"', '}'], n: [1, [2, { x: null }]], e: -1.5e-3 },
      'key with \\"quote': true,
      id: 7,
    };
    for (const text of [JSON.stringify(value), JSON.stringify(value, null, 2)]) expect(members(text)).toEqual(value);
    expect(members(' {} ')).toEqual({});
    expect(members('{"error":{"code":-32007,"message":"Slot 5 was skipped"},"id":1}')).toEqual({ error: { code: -32007, message: 'Slot 5 was skipped' }, id: 1 });
  });

  it('gives nothing for a text that is not one whole object', () => {
    const text = JSON.stringify({ jsonrpc: '2.0', result: { transactions: ['x"}'] }, id: 1 });
    for (let cut = 0; cut < text.length; cut++) expect(memberSpans(text.slice(0, cut))).toBeUndefined();
    for (const bad of ['[]', 'null', '{"a":1}x', '{"a" 1}', '{"a":1,}', '{a:1}', '{"a":}']) expect(memberSpans(bad)).toBeUndefined();
  });
});

describe('retry policy', () => {
  const policy = retryPolicy({ attempts: 5, baseMs: 100, maxMs: 1_000 });

  it('doubles the wait from baseMs up to maxMs, keeping at least half of it under jitter', () => {
    const exponential = [100, 200, 400, 800, 1_000, 1_000];
    exponential.forEach((ms, i) => {
      expect(backoffMs(policy, i + 1, undefined, () => 0)).toBe(ms / 2);
      expect(backoffMs(policy, i + 1, undefined, () => 0.999_999)).toBe(ms);
    });
  });

  it('waits at least what Retry-After says, beyond maxMs if need be', () => {
    expect(backoffMs(policy, 1, 5_000, () => 0)).toBe(5_000);
    expect(backoffMs(policy, 4, 0, () => 1)).toBe(800);
    expect(retryAfterMs('2')).toBe(2_000);
    expect(retryAfterMs('0')).toBe(0);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:05 GMT', Date.UTC(2015, 9, 21, 7, 28, 0))).toBe(5_000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:05 GMT', Date.UTC(2016, 0, 1))).toBe(0);
    for (const unreadable of [null, '', '-1', 'soon']) expect(retryAfterMs(unreadable)).toBeUndefined();
  });

  it('refuses a policy that cannot work', () => {
    expect(retryPolicy()).toEqual({ attempts: 8, baseMs: 250, maxMs: 10_000 });
    expect(() => retryPolicy({ attempts: 1.5 })).toThrow(RangeError);
    expect(() => retryPolicy({ baseMs: -1 })).toThrow(RangeError);
    expect(() => retryPolicy({ baseMs: 10, maxMs: 5 })).toThrow(RangeError);
  });
});

describe('requests', () => {
  it('writes slots past 2^53 exactly and leaves undefined members out', () => {
    expect(jsonText({ params: [18_446_744_073_709_551_615n, { commitment: 'confirmed', skip: undefined }] }))
      .toBe('{"params":[18446744073709551615,{"commitment":"confirmed"}]}');
  });

  it('shows an endpoint without its credentials or query (API keys)', () => {
    expect(displayUrl('https://user:secret@rpc.example.com:8899/path/?api-key=secret')).toBe('https://rpc.example.com:8899/path/');
  });
});
