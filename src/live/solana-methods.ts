/** The three Solana JSON-RPC methods the follower calls, and how their answers are read. */
import { JsonSyntaxError, parseJsonExact } from '../ingest/exact-json.js';
import { U64_MAX } from '../schema/amounts.js';
import { memberSpans } from './json-members.js';
import { RpcErrorAnswer, TransientFailure, type RpcClient } from './rpc-client.js';

export type Commitment = 'confirmed' | 'finalized';
export type BlockEncoding = 'base64' | 'json';

/**
 * getBlock errors that mean the slot has no block to give, for good: -32007 skipped by its leader
 * (or missing after a ledger jump to a recent snapshot), -32009 missing in long-term storage.
 */
const NO_BLOCK_CODES: ReadonlySet<number> = new Set([-32007, -32009]);

/** What getBlock gave for a slot. */
export type FetchedBlock =
  /** `document`: `{"slot": "<slot>", "block": <the result, as the node wrote it>}`, for the decoder. */
  | { kind: 'block'; document: string }
  | { kind: 'skipped' }
  /** An answer that is not a JSON-RPC answer at all (truncated JSON); the block itself is judged by the decoder. */
  | { kind: 'malformed'; reason: string };

/** A JSON-RPC error object as an RpcErrorAnswer. */
function errorAnswer(error: unknown): RpcErrorAnswer {
  const { code, message } = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; message?: unknown };
  return new RpcErrorAnswer(typeof code === 'number' ? code : Number.NaN, typeof message === 'string' ? message : JSON.stringify(error));
}

/** The `result` of a small JSON-RPC answer (getSlot, getBlocks). */
function readResult(text: string): unknown {
  let answer: unknown;
  try {
    answer = parseJsonExact(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new TransientFailure(`the answer is not JSON: ${error.message}`);
    throw error;
  }
  if (typeof answer !== 'object' || answer === null) throw new TransientFailure('the answer is not a JSON-RPC response');
  const { result, error } = answer as { result?: unknown; error?: unknown };
  if (error !== undefined && error !== null) throw errorAnswer(error);
  if (result === undefined) throw new TransientFailure('the answer has neither result nor error');
  return result;
}

/** A slot in an answer: a non-negative integer (a bigint past 2^53, as parseJsonExact gives it). */
function toSlot(value: unknown, what: string): bigint {
  const slot = typeof value === 'bigint' ? value : Number.isSafeInteger(value) ? BigInt(value as number) : undefined;
  if (slot === undefined || slot < 0n || slot > U64_MAX) throw new TransientFailure(`${what} is not a slot: ${String(value)}`);
  return slot;
}

export async function getSlot(client: RpcClient, commitment: Commitment): Promise<bigint> {
  return client.call('getSlot', [{ commitment }], (text) => toSlot(readResult(text), 'the getSlot result'));
}

/** The slots with a block in [start, end], ascending (the node's answer, kept to the range). */
export async function getBlocks(client: RpcClient, start: bigint, end: bigint, commitment: Commitment): Promise<bigint[]> {
  return client.call('getBlocks', [start, end, { commitment }], (text) => {
    const result = readResult(text);
    if (!Array.isArray(result)) throw new TransientFailure('the getBlocks result is not an array');
    const slots = result.map((value) => toSlot(value, 'a getBlocks entry')).filter((slot) => slot >= start && slot <= end);
    return [...new Set(slots)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  });
}

export async function getBlock(client: RpcClient, slot: bigint, encoding: BlockEncoding, commitment: Commitment): Promise<FetchedBlock> {
  const config = { encoding, maxSupportedTransactionVersion: 0, transactionDetails: 'full', rewards: false, commitment };
  return client.call('getBlock', [slot, config], (text): FetchedBlock => {
    const members = memberSpans(text);
    const error = members?.get('error');
    const result = members?.get('result');
    if (error) {
      const errorText = text.slice(error.start, error.end);
      const reason = malformedReason(errorText);
      if (reason !== undefined) return { kind: 'malformed', reason: `the answer's error: ${reason}` };
      const answer = errorAnswer(parseJsonExact(errorText));
      if (NO_BLOCK_CODES.has(answer.code)) return { kind: 'skipped' };
      throw answer;
    }
    if (!result) return { kind: 'malformed', reason: (members ? undefined : malformedReason(text)) ?? 'the answer is not a JSON-RPC response' };
    const resultText = text.slice(result.start, result.end);
    if (resultText === 'null') return { kind: 'skipped' };
    return { kind: 'block', document: `{"slot":"${slot}","block":${resultText}}` };
  });
}

/** Why `text` is not JSON, in the words of the exact parser; undefined when it is. */
function malformedReason(text: string): string | undefined {
  try {
    parseJsonExact(text);
    return undefined;
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    const truncated = error.offset >= text.length ? ' (the text looks truncated)' : '';
    return `invalid JSON: ${error.message}${truncated}`;
  }
}
