/** The public shapes of the live Solana JSON-RPC source (see solana-rpc.ts). */
import type { IngestReport } from '../ingest/pipeline.js';
import type { GetBlockDecodeOptions } from '../ingest/solana/index.js';
import type { RetryOptions } from './retry.js';

export type { RetryOptions } from './retry.js';

/** Options of `followSolanaRpc`. */
export interface FollowOptions {
  /** The Solana JSON-RPC endpoint (http: or https:). */
  url: string;
  /** getBlock encoding (default 'base64': the smallest answer the decoder reads). */
  encoding?: 'base64' | 'json';
  /** Commitment of getSlot, getBlocks and getBlock (default 'confirmed'). */
  commitment?: 'confirmed' | 'finalized';
  /** Milliseconds between getSlot polls once caught up (default 400, about a slot). */
  pollMs?: number;
  /** First slot to follow when there is no cursor (default: the tip at start). */
  startSlot?: bigint;
  /**
   * A JSON file holding the newest committed slot, `{"slot": "<decimal>"}`: read at start (following
   * resumes at the slot after it, `startSlot` is then ignored), rewritten through a temporary file
   * and a rename after each committed block.
   */
  cursorFile?: string;
  /** Widest slot range of one getBlocks call (default 1,000; the Solana API allows 500,000). */
  maxBlocksPerRequest?: number;
  /** Milliseconds one HTTP request may take, answer read included (default 10,000). */
  requestTimeoutMs?: number;
  /** Attempts per call and backoff (default 8 attempts, 250 ms doubling up to 10,000 ms, with jitter). */
  retry?: RetryOptions;
  /** The fetch to use (default globalThis.fetch). */
  fetch?: typeof fetch;
  /** How blocks are decoded (token names, the SIMD-0170 activation slot of a cluster other than mainnet). */
  decode?: GetBlockDecodeOptions;
  /** Called for every event, synchronously; an exception it throws is ignored (it never stops the follower). */
  onEvent?: (event: FollowEvent) => void;
}

/** What the follower did; slots are decimal strings (u64). */
export type FollowEvent =
  /** A block committed to the engine. `transactions`: the block's decoded transactions handed to ingest; `report` is ingest's, the decoder's refusals included. */
  | { type: 'committed'; slot: string; transactions: number; report: IngestReport }
  /** A slot without a block (skipped by its leader, or not kept by the node). */
  | { type: 'skipped'; slot: string }
  /** A block that could not be ingested: the decoder refused it (malformed), or the engine did (not newer than its newest slot). */
  | { type: 'rejected'; slot: string; reason: string }
  /** A call failed in a way that may pass; it is tried again after `delayMs`. `attempt` is the attempt that failed. */
  | { type: 'retry'; method: string; attempt: number; delayMs: number; reason: string }
  /**
   * Every block up to the tip `slot` is done; the follower now polls. Sent once each time it catches
   * up. (Slots after the newest block count as skipped only once a later block shows they are.)
   */
  | { type: 'caughtUp'; slot: string }
  /** A fatal error: the follower stops and `done` rejects with it. */
  | { type: 'error'; error: Error };

export type FollowState = 'starting' | 'following' | 'catching-up' | 'stopped';

/** A snapshot of the follower (`Follower.status()`). */
export interface FollowStatus {
  /** The newest slot committed, by this follower or (read from the cursor file) by the one before. */
  newestCommittedSlot?: string;
  /** The tip getSlot answered last. */
  tipSlot?: string;
  /** Slots up to the tip not examined yet. */
  behind?: number;
  committed: number;
  skipped: number;
  rejected: number;
  retries: number;
  state: FollowState;
}

/** What a follower did, once it has stopped. */
export interface FollowReport {
  newestCommittedSlot?: string;
  committed: number;
  skipped: number;
  rejected: number;
  retries: number;
  /** Rows of the committed blocks, counted as IngestReport counts them (read = ingested + rejected). */
  rows: { read: number; ingested: number; rejected: number };
}

/** A running follower. */
export interface Follower {
  /** Resolves once stopped; rejects on a fatal error (an Error naming the URL and the method). */
  readonly done: Promise<FollowReport>;
  /** Stops polling at once; a block being ingested is finished first. Resolves (or rejects) as `done`. */
  stop(): Promise<FollowReport>;
  status(): FollowStatus;
}
