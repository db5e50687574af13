/**
 * A live source: follows a Solana JSON-RPC endpoint and ingests each new block into an engine, in
 * slot order, block by block (the follower: follower.ts; the calls and their retries: rpc-client.ts;
 * the resume file: cursor.ts). Node only (the cursor file).
 */
import type { Engine } from '../engine.js';
import { SlotFollower, type FollowSettings } from './follower.js';
import { retryPolicy } from './retry.js';
import type { Follower, FollowOptions } from './types.js';

export type { FollowEvent, FollowOptions, FollowReport, FollowState, FollowStatus, Follower, RetryOptions } from './types.js';
export { FollowError } from './rpc-client.js';

/** getBlocks answers at most this many slots (the Solana API's bound). */
const MAX_GETBLOCKS_RANGE = 500_000;

function positive(name: string, value: number, max = Number.MAX_SAFE_INTEGER, integer = false): number {
  if (!(value > 0 && value <= max) || (integer && !Number.isInteger(value))) {
    throw new RangeError(`${name} must be ${integer ? 'an integer' : 'a number'} in (0, ${max}], got ${value}`);
  }
  return value;
}

/** The options checked, with their defaults; throws a TypeError or RangeError on a bad one. */
function settingsOf(options: FollowOptions): FollowSettings {
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new TypeError(`followSolanaRpc: url must be an http: or https: URL, got ${JSON.stringify(options.url)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`followSolanaRpc: url must be http: or https:, got ${url.protocol}`);
  const encoding = options.encoding ?? 'base64';
  if (encoding !== 'base64' && encoding !== 'json') throw new RangeError(`followSolanaRpc: encoding must be 'base64' or 'json', got ${String(encoding)}`);
  const commitment = options.commitment ?? 'confirmed';
  if (commitment !== 'confirmed' && commitment !== 'finalized') throw new RangeError(`followSolanaRpc: commitment must be 'confirmed' or 'finalized', got ${String(commitment)}`);
  if (options.startSlot !== undefined && (typeof options.startSlot !== 'bigint' || options.startSlot < 0n)) {
    throw new RangeError(`followSolanaRpc: startSlot must be a non-negative bigint, got ${String(options.startSlot)}`);
  }
  const fetchFunction = options.fetch ?? globalThis.fetch;
  if (typeof fetchFunction !== 'function') throw new TypeError('followSolanaRpc: no fetch: pass options.fetch');
  return {
    url: options.url,
    encoding,
    commitment,
    pollMs: options.pollMs === undefined ? 400 : positive('pollMs', options.pollMs),
    startSlot: options.startSlot,
    cursorFile: options.cursorFile,
    maxBlocksPerRequest: positive('maxBlocksPerRequest', options.maxBlocksPerRequest ?? 1_000, MAX_GETBLOCKS_RANGE, true),
    requestTimeoutMs: positive('requestTimeoutMs', options.requestTimeoutMs ?? 10_000),
    retry: retryPolicy(options.retry),
    fetch: fetchFunction,
    decode: options.decode,
    onEvent: options.onEvent,
  };
}

/**
 * Follows the Solana JSON-RPC endpoint `options.url`, ingesting every new block into `engine` in slot
 * order until `stop()`. Starts at once; bad options throw here, failures of the endpoint come as
 * retry events and, once the retries of a call are spent, as the rejection of `done`.
 */
export function followSolanaRpc(engine: Pick<Engine, 'ingest'>, options: FollowOptions): Follower {
  const follower = new SlotFollower(engine, settingsOf(options));
  return {
    done: follower.done,
    stop: () => follower.stop(),
    status: () => follower.status(),
  };
}
