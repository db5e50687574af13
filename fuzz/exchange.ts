/**
 * One fuzz exchange: a generated body made concrete for a transport (unique ids, deep nesting,
 * damaged text), sent, and its reply judged. The judge is independent of the dispatch code: it
 * knows only JSON-RPC 2.0 and the documented limits, and says what went wrong, if anything.
 */
import { MAX_BATCH } from '../src/rpc/limits.js';
import { Deep, FRESH_ID, nested, nestedText, type TextDamage, type Transport } from './envelopes.js';

/** A body ready to send, and what its reply must hold. */
export interface Prepared {
  payload: unknown;
  /** The ids its reply must carry, once each (the requests with a valid id). */
  ids: number[];
  /** Whether the reply must be exactly one entry with id null (text that is not JSON, an empty or too long batch, a non-object body). */
  single: boolean;
}

/** What the judge found; `ok` when nothing. */
export type Verdict = 'ok' | 'refused' | 'crash' | 'hang' | 'misrouted' | 'internal' | 'malformed' | 'oversized';

/** The largest error entry we accept as a reply to anything (the echo limit keeps them far below). */
const MAX_ERROR_CHARS = 2_048;

/** Makes a generated body concrete: fresh ids from `nextId`, Deep markers nested, text damaged. */
export function prepare(shape: unknown, transport: Transport, damage: TextDamage, nextId: () => number): Prepared {
  // markers sit at most three levels down (body, request, params); below that values go as generated (cycles included)
  const materialize = (value: unknown, depth: number): unknown => {
    if (value === FRESH_ID) return nextId();
    if (value instanceof Deep) return transport.endsWith('-text') ? `\u0000DEEP${value.depth}\u0000` : nested(value.depth);
    if (Array.isArray(value)) return depth === 0 ? value.map((v) => materialize(v, 1)) : value;
    if (depth < 3 && value !== null && typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        // defined, not assigned: a generated `__proto__` key stays an own member
        Object.defineProperty(out, key, { value: materialize((value as Record<string, unknown>)[key], depth + 1), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    return value;
  };
  const object = materialize(shape, 0);
  if (transport.endsWith('-object')) return { payload: object, ...expectation(object) };
  let text = JSON.stringify(object).replace(/"\\u0000DEEP(\d+)\\u0000"/g, (_, d: string) => nestedText(Number(d)));
  if (damage.kind === 'truncate') text = text.slice(0, damage.at % (text.length + 1));
  if (damage.kind === 'insert') {
    const at = damage.at % (text.length + 1);
    text = text.slice(0, at) + damage.char + text.slice(at);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { payload: text, ids: [], single: true };
  }
  return { payload: text, ...expectation(parsed) };
}

/** The ids a body's reply must carry: each request object's own safe-integer id. */
function expectation(body: unknown): { ids: number[]; single: boolean } {
  const requests = Array.isArray(body) ? body : [body];
  if (Array.isArray(body) && (body.length === 0 || body.length > MAX_BATCH)) return { ids: [], single: true };
  const ids: number[] = [];
  for (const request of requests) {
    if (request === null || typeof request !== 'object' || Array.isArray(request)) continue;
    const id = Object.hasOwn(request, 'id') ? (request as { id?: unknown }).id : undefined;
    if (typeof id === 'number' && Number.isSafeInteger(id)) ids.push(id);
  }
  return { ids, single: !Array.isArray(body) && (body === null || typeof body !== 'object') };
}

/** Judges a reply (or the error the send rejected with) against what was sent. */
export function judge(sent: Prepared, outcome: { reply?: unknown; error?: unknown; timedOut?: boolean }): Verdict {
  if (outcome.timedOut) return 'hang';
  if (outcome.error !== undefined) {
    // a port client refuses a body it cannot post, with -32600 and nothing left pending
    return (outcome.error as { code?: unknown })?.code === -32600 ? 'refused' : 'crash';
  }
  const reply = outcome.reply;
  if (!Array.isArray(reply)) return 'malformed';
  for (const entry of reply) {
    if (entry === null || typeof entry !== 'object' || entry.jsonrpc !== '2.0' || !Object.hasOwn(entry, 'id')) return 'malformed';
    if (entry.id !== null && !(typeof entry.id === 'number')) return 'malformed';
    const hasResult = Object.hasOwn(entry, 'result');
    const hasError = Object.hasOwn(entry, 'error');
    if (hasResult === hasError) return 'malformed';
    if (hasError) {
      const { code, message } = entry.error as { code?: unknown; message?: unknown };
      if (typeof code !== 'number' || typeof message !== 'string') return 'malformed';
      if (code === -32603) return 'internal';
      if (JSON.stringify(entry.error).length > MAX_ERROR_CHARS) return 'oversized';
    }
  }
  const got = reply.filter((e) => e.id !== null).map((e) => e.id as number).sort((a, b) => a - b);
  const want = [...sent.ids].sort((a, b) => a - b);
  if (got.length !== want.length || got.some((id, i) => id !== want[i])) return 'misrouted';
  if (sent.single && (reply.length !== 1 || reply[0].id !== null)) return 'malformed';
  return 'ok';
}
