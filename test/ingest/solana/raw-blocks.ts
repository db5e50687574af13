/**
 * Reading the real getBlock fixtures without the decoder, for the tests' independent expectations:
 * the raw entries, the signatures a transaction is charged for, its ComputeBudget instructions and the
 * pre-SIMD-0170 default limit, each computed here from the `json` or `jsonParsed` form of the block.
 */
import { readFileSync } from 'node:fs';
import { parseJsonExact } from '../../../src/ingest/exact-json.js';
import { decodeBase58 } from '../../../src/schema/base58.js';
import { decodeGetBlockFile, type GetBlockDecodeResult } from '../../../src/ingest/solana/get-block.js';
import { REAL_DATA } from '../../helpers/real-data.js';

const PRECOMPILES = new Set([
  'Ed25519SigVerify111111111111111111111111111',
  'KeccakSecp256k11111111111111111111111111111',
  'Secp256r1SigVerify1111111111111111111111111',
]);
const COMPUTE_BUDGET = 'ComputeBudget111111111111111111111111111111';
const VOTE = 'Vote111111111111111111111111111111111111111';

/** One raw transaction entry; `transaction` is an object (json, jsonParsed) or [data, 'base64']. */
export interface RawEntry {
  transaction: any;
  meta: { fee: number | bigint; err: unknown; computeUnitsConsumed?: number | bigint; loadedAddresses?: { writable: string[]; readonly: string[] } };
  version?: unknown;
}

/** A raw block (the result, envelope peeled). */
export interface RawBlock {
  transactions: RawEntry[];
  rewards?: { pubkey: string; lamports: number | bigint; rewardType: string }[];
}

export interface LoadedBlock {
  text: string;
  raw: RawBlock;
  decoded: GetBlockDecodeResult;
}

const cache = new Map<string, LoadedBlock>();

/** A fixture block (path under REAL_DATA), raw and decoded, read once per test file. */
export function loadBlock(path: string): LoadedBlock {
  let entry = cache.get(path);
  if (!entry) {
    const text = readFileSync(REAL_DATA + path, 'utf8');
    const doc = parseJsonExact(text) as { result?: RawBlock } & RawBlock;
    entry = { text, raw: doc.result ?? doc, decoded: decodeGetBlockFile(text, path) };
    cache.set(path, entry);
  }
  return entry;
}

/** A top-level instruction of a json or jsonParsed entry: program and data (undefined when parsed). */
export interface RawInstruction {
  programId: string;
  data: Uint8Array | undefined;
}

/** The top-level instructions of a json or jsonParsed entry, with their program ids resolved. */
export function instructions(entry: RawEntry): RawInstruction[] {
  const message = entry.transaction.message;
  const loaded = entry.meta.loadedAddresses ?? { writable: [], readonly: [] };
  const keys: string[] = [...message.accountKeys.map((k: string | { pubkey: string }) => (typeof k === 'string' ? k : k.pubkey)), ...loaded.writable, ...loaded.readonly];
  return message.instructions.map((ix: { programIdIndex?: number; programId?: string; data?: string }) => ({
    programId: ix.programId ?? keys[ix.programIdIndex!],
    data: typeof ix.data === 'string' ? decodeBase58(ix.data)! : undefined,
  }));
}

/** Signatures the entry is charged 5,000 lamports each for: its own plus the precompiles' (first data byte). */
export function chargedSignatures(entry: RawEntry): number {
  let precompile = 0;
  for (const ix of instructions(entry)) if (PRECOMPILES.has(ix.programId)) precompile += ix.data![0] ?? 0;
  return entry.transaction.signatures.length + precompile;
}

/** Whether the entry charges a precompile signature. */
export function hasPrecompile(entry: RawEntry): boolean {
  return instructions(entry).some((ix) => PRECOMPILES.has(ix.programId));
}

/** A simple vote: fewer than 3 signatures, one instruction, the Vote program. */
export function isSimpleVote(entry: RawEntry): boolean {
  const ixs = instructions(entry);
  return entry.transaction.signatures.length < 3 && ixs.length === 1 && ixs[0].programId === VOTE;
}

/** The compact-u16 signature count at the start of a base64 wire transaction. */
export function wireSignatureCount(base64: string): number {
  const bytes = Buffer.from(base64, 'base64');
  return bytes[0] < 0x80 ? bytes[0] : (bytes[0] & 0x7f) | (bytes[1] << 7);
}

/** SetComputeUnitLimit (tag 2, u32 LE) and SetComputeUnitPrice (tag 3, u64 LE), if present. */
export function computeBudgetRequests(entry: RawEntry): { limit: number | undefined; price: bigint | undefined } {
  let limit: number | undefined;
  let price: bigint | undefined;
  for (const ix of instructions(entry)) {
    if (ix.programId !== COMPUTE_BUDGET) continue;
    const view = Buffer.from(ix.data!);
    if (view[0] === 2) limit = view.readUInt32LE(1);
    if (view[0] === 3) price = view.readBigUInt64LE(1);
  }
  return { limit, price };
}

/** The enum tags (first data byte) of the entry's ComputeBudget instructions. */
export function computeBudgetTags(entry: RawEntry): number[] {
  return instructions(entry).filter((ix) => ix.programId === COMPUTE_BUDGET).map((ix) => ix.data![0]);
}

/** Before SIMD-0170: the requested limit, else 200,000 per instruction other than ComputeBudget ones; at most 1,400,000. */
export function preSimd0170Limit(entry: RawEntry): number {
  const requested = computeBudgetRequests(entry).limit;
  const others = instructions(entry).filter((ix) => ix.programId !== COMPUTE_BUDGET).length;
  return Math.min(requested ?? 200_000 * others, 1_400_000);
}

/** The leader's Fee reward of the block. */
export function feeReward(raw: RawBlock): { pubkey: string; lamports: bigint } {
  const rewards = (raw.rewards ?? []).filter((r) => r.rewardType === 'Fee');
  if (rewards.length !== 1) throw new Error(`expected one Fee reward, found ${rewards.length}`);
  return { pubkey: rewards[0].pubkey, lamports: BigInt(rewards[0].lamports) };
}

/** The sum of meta.fee over the block. */
export function totalFees(raw: RawBlock): bigint {
  return raw.transactions.reduce((sum, t) => sum + BigInt(t.meta.fee), 0n);
}
