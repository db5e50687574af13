/**
 * What a hostile client can send, as fast-check arbitraries: JSON-RPC envelopes and batches with
 * every member wrong in every way we know (types, prototype names, sizes, nesting), valid ones
 * among them so that real methods run. A generated body is a Shape: ids are placeholders that the
 * runner fills with numbers unique across the requests in flight, so a misrouted reply shows.
 */
import fc from 'fast-check';
import { METHODS } from '../src/methods/index.js';

/** Where the runner puts a fresh unique id (a safe integer). */
export const FRESH_ID = Symbol('fresh id');

/** The four ways a body reaches the dispatch core: as an object or as JSON text, in-process or over a MessagePort. */
export type Transport = 'local-object' | 'local-text' | 'port-object' | 'port-text';
export const TRANSPORTS: readonly Transport[] = ['local-object', 'local-text', 'port-object', 'port-text'];

const DATA_METHODS = METHODS.map((m) => m.name);
const STREAM_METHODS = ['chain::subscribe', 'chain::unsubscribe', 'chain::ack'];
const PARAM_NAMES = [...new Set(METHODS.flatMap((m) => Object.keys(m.params)))];
const PROTOTYPE_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'prototype'];
const MINT = 'So11111111111111111111111111111111111111112';

/** An object nested `depth` levels deep. */
export function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** JSON text of an object nested `depth` levels deep (JSON.stringify itself fails beyond a few thousand). */
export function nestedText(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** A value that stands for deep nesting; JSON text and objects are built from it by the runner. */
export class Deep {
  constructor(readonly depth: number) {}
}

const methodName = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...DATA_METHODS) },
  { weight: 1, arbitrary: fc.constantFrom(...STREAM_METHODS) },
  { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES) },
  { weight: 1, arbitrary: fc.constantFrom(...DATA_METHODS).map((m) => m.replace('chain::', '')) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...DATA_METHODS), fc.string({ maxLength: 3 })).map(([m, s]) => m + s) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 1_000_000 }).map((n) => 'x'.repeat(n)) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.constant(null), fc.boolean(), fc.constant([])) },
);

const paramValue = (objects: boolean) => fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('1m', '5m', '15m', '1h', '4h', '1d', '30s', '10s', MINT) },
  { weight: 3, arbitrary: fc.integer({ min: -5, max: 2000 }) },
  { weight: 1, arbitrary: fc.constantFrom('2026-01-01T00:00:00Z', '1767225600', 'yesterday', '', '1e400') },
  { weight: 1, arbitrary: fc.double() },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 1_000_000 }).map((n) => 'y'.repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 5, max: 5000 }).map((d) => new Deep(d)) },
  ...(objects ? [{ weight: 1, arbitrary: fc.oneof(fc.bigInt(), fc.constant(cyclic()), fc.constant<unknown>(() => 1)) }] : []),
);

function cyclic(): unknown {
  const value: Record<string, unknown> = { a: 1 };
  value.self = value;
  return value;
}

const params = (objects: boolean) => fc.oneof(
  { weight: 6, arbitrary: fc.dictionary(fc.constantFrom(...PARAM_NAMES), paramValue(objects), { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES, 'bogus'), fc.string()), paramValue(objects), { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('method', 'params', 'subscription', 'received'), paramValue(objects), { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.integer({ min: 5, max: 5000 }).map((d) => new Deep(d))) },
);

const id = (objects: boolean) => fc.oneof(
  { weight: 8, arbitrary: fc.constant<unknown>(FRESH_ID) },
  { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 8 }), fc.constant(null), fc.double(), fc.constant(2 ** 60), fc.constant(-1)) },
  ...(objects ? [{ weight: 1, arbitrary: fc.bigInt() as fc.Arbitrary<unknown> }] : []),
);

const jsonrpc = fc.constantFrom<unknown>('2.0', '1.0', 2, null);

/** One request object: mostly well formed (so that methods run), else each member present or absent, right or wrong. */
const envelope = (objects: boolean) => fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record(
      { jsonrpc: fc.constant<unknown>('2.0'), id: fc.constant<unknown>(FRESH_ID), method: methodName, params: params(objects) },
      { requiredKeys: ['jsonrpc', 'id', 'method'] },
    ) as fc.Arbitrary<Record<string, unknown>>,
  },
  {
    weight: 1,
    arbitrary: fc.record(
      { jsonrpc, id: id(objects), method: methodName, params: params(objects), extra: fc.constantFrom<unknown>('x', 1), toString: fc.constant<unknown>('x') },
      { requiredKeys: [] },
    ) as fc.Arbitrary<Record<string, unknown>>,
  },
);

/** A whole body: one request, a batch (small, empty or too long), or some other JSON value. */
export const body = (objects: boolean) => fc.oneof(
  { weight: 10, arbitrary: envelope(objects) as fc.Arbitrary<unknown> },
  { weight: 4, arbitrary: fc.array(envelope(objects), { minLength: 1, maxLength: 6 }) },
  { weight: 1, arbitrary: fc.integer({ min: 101, max: 400 }).map((n) => Array.from({ length: n }, () => ({ jsonrpc: '2.0', id: FRESH_ID, method: DATA_METHODS[0] }))) },
  { weight: 1, arbitrary: fc.constant([]) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.integer({ min: 5, max: 5000 }).map((d) => [new Deep(d)]) },
);

/** How a text body is spoiled, if at all. */
export const textDamage = fc.oneof(
  { weight: 8, arbitrary: fc.constant<TextDamage>({ kind: 'none' }) },
  { weight: 1, arbitrary: fc.nat().map((at): TextDamage => ({ kind: 'truncate', at })) },
  { weight: 1, arbitrary: fc.tuple(fc.nat(), fc.constantFrom('{', '"', '\\', ',', '\u0000', '\uFEFF')).map(([at, char]): TextDamage => ({ kind: 'insert', at, char })) },
);
export type TextDamage = { kind: 'none' } | { kind: 'truncate'; at: number } | { kind: 'insert'; at: number; char: string };

/** One fuzz case: up to 8 bodies sent at once on the same transport. */
export const group = (transport: Transport) => {
  const objects = transport.endsWith('-object');
  return fc.array(fc.record({ body: body(objects), damage: textDamage }), { minLength: 1, maxLength: 8 });
};
