import { describe, expect, it } from 'vitest';
import {
  decodeComputeBudget,
  MAX_COMPUTE_UNIT_LIMIT,
  type DefaultLimitRule,
} from '../../../src/ingest/solana/compute-budget.js';
import { priorityFeeOf as priorityFee, U64_MAX } from '../../../src/schema/amounts.js';
import { COMPUTE_BUDGET_PROGRAM, ED25519_PROGRAM, SIMD0170_BUILTIN_PROGRAMS, VOTE_PROGRAM } from '../../../src/ingest/solana/programs.js';
import { baseFee, precompileSignatureCount } from '../../../src/ingest/solana/signatures.js';
import type { TxInstruction } from '../../../src/ingest/solana/transaction-view.js';
import { isVoteTransaction } from '../../../src/ingest/solana/votes.js';

const SYSTEM = '11111111111111111111111111111111';
const DEX = 'Dex1111111111111111111111111111111111111111';
const BEFORE: DefaultLimitRule = { simd0170: false, builtinPrograms: SIMD0170_BUILTIN_PROGRAMS };
const AFTER: DefaultLimitRule = { simd0170: true, builtinPrograms: SIMD0170_BUILTIN_PROGRAMS };

const le = (value: bigint, bytes: number) => Array.from({ length: bytes }, (_, i) => Number((value >> BigInt(8 * i)) & 0xffn));
const cb = (...bytes: number[]): TxInstruction => ({ programId: COMPUTE_BUDGET_PROGRAM, data: Uint8Array.from(bytes) });
const setLimit = (units: number) => cb(2, ...le(BigInt(units), 4));
const setPrice = (microLamports: bigint) => cb(3, ...le(microLamports, 8));
const heap = (bytes: number) => cb(1, ...le(BigInt(bytes), 4));
const loadedLimit = (bytes: number) => cb(4, ...le(BigInt(bytes), 4));
const call = (programId: string, ...data: number[]): TxInstruction => ({ programId, data: Uint8Array.from(data) });

describe('decodeComputeBudget', () => {
  it('reads SetComputeUnitLimit (u32 LE) and SetComputeUnitPrice (u64 LE)', () => {
    const budget = decodeComputeBudget([setLimit(137_822), setPrice(15_030n), call(DEX)], AFTER);
    expect(budget).toEqual({ computeUnitPrice: 15_030n, computeUnitLimit: 137_822, anomaly: null });
  });

  it('keeps prices above 2^53 exact and caps the limit at 1,400,000', () => {
    const budget = decodeComputeBudget([setLimit(0xffffffff), setPrice(0xffffffffffffffffn)], AFTER);
    expect(budget.computeUnitPrice).toBe(0xffffffffffffffffn);
    expect(budget.computeUnitLimit).toBe(MAX_COMPUTE_UNIT_LIMIT);
  });

  it('ignores trailing bytes (borsh try_from_slice_unchecked), as real 2025 transactions rely on', () => {
    expect(decodeComputeBudget([cb(2, 0xf4, 1, 0, 0, 0, 0, 0, 0)], AFTER).computeUnitLimit).toBe(500);
  });

  it('accepts one RequestHeapFrame and one SetLoadedAccountsDataSizeLimit', () => {
    const budget = decodeComputeBudget([heap(256 * 1024), loadedLimit(64 * 1024), setPrice(1n), call(DEX)], BEFORE);
    expect(budget).toEqual({ computeUnitPrice: 1n, computeUnitLimit: 200_000, anomaly: null });
  });

  it.each([
    ['duplicate price', [setPrice(1n), setPrice(2n)], { kind: 'duplicate', instruction: 1 }],
    ['duplicate limit', [setLimit(1), call(DEX), setLimit(2)], { kind: 'duplicate', instruction: 2 }],
    ['duplicate heap frame', [heap(32 * 1024), heap(32 * 1024)], { kind: 'duplicate', instruction: 1 }],
    ['duplicate loaded-accounts limit', [loadedLimit(1), loadedLimit(1)], { kind: 'duplicate', instruction: 1 }],
    ['deprecated RequestUnits', [cb(0, ...le(1000n, 4), ...le(0n, 4))], { kind: 'invalid', instruction: 0 }],
    ['unknown tag', [cb(9)], { kind: 'invalid', instruction: 0 }],
    ['empty data', [cb()], { kind: 'invalid', instruction: 0 }],
    ['short price', [setPrice(1n), cb(2, 1, 0)], { kind: 'invalid', instruction: 1 }],
    ['heap frame not a multiple of 1024', [call(DEX), heap(33 * 1024 + 1)], { kind: 'invalid', instruction: 1 }],
    ['heap frame above 256 KiB', [heap(257 * 1024)], { kind: 'invalid', instruction: 0 }],
    ['zero loaded-accounts limit', [setPrice(5n), loadedLimit(0)], { kind: 'invalid', instruction: 1 }],
  ])('%s: the runtime refuses it, price 0 and limit 1,400,000', (_name, instructions, anomaly) => {
    expect(decodeComputeBudget(instructions, AFTER)).toEqual({ computeUnitPrice: 0n, computeUnitLimit: MAX_COMPUTE_UNIT_LIMIT, anomaly });
  });

  it('the first problem in instruction order is the one reported', () => {
    expect(decodeComputeBudget([cb(7), setPrice(1n), setPrice(1n)], AFTER).anomaly).toEqual({ kind: 'invalid', instruction: 0 });
  });
});

describe('default compute unit limit', () => {
  it('before SIMD-0170: 200,000 per instruction other than ComputeBudget', () => {
    expect(decodeComputeBudget([setPrice(1n), call(SYSTEM), call(DEX)], BEFORE).computeUnitLimit).toBe(400_000);
  });

  it('after SIMD-0170: 3,000 per builtin instruction (ComputeBudget included), 200,000 per other', () => {
    expect(decodeComputeBudget([setPrice(1n), call(SYSTEM), call(DEX)], AFTER).computeUnitLimit).toBe(3_000 * 2 + 200_000);
    expect(decodeComputeBudget([setPrice(1n), call(SYSTEM), call(SYSTEM)], AFTER).computeUnitLimit).toBe(9_000);
  });

  it('is capped at 1,400,000', () => {
    const many = Array.from({ length: 9 }, () => call(DEX));
    expect(decodeComputeBudget(many, BEFORE).computeUnitLimit).toBe(1_400_000);
    expect(decodeComputeBudget(many, AFTER).computeUnitLimit).toBe(1_400_000);
  });

  it('uses the configured builtin list', () => {
    const rule = { simd0170: true, builtinPrograms: new Set([COMPUTE_BUDGET_PROGRAM, DEX]) };
    expect(decodeComputeBudget([setPrice(1n), call(SYSTEM), call(DEX)], rule).computeUnitLimit).toBe(3_000 + 200_000 + 3_000);
  });
});

describe('fees', () => {
  it('priority fee is ceil(price x limit / 1e6) in exact integers, saturating at 2^64 - 1 (agave)', () => {
    expect(priorityFee(15_030n, 137_822)).toBe(2072n);
    expect(priorityFee(1n, 1)).toBe(1n);
    expect(priorityFee(0n, 1_400_000)).toBe(0n);
    expect(priorityFee(1_000_000n, 200_000)).toBe(200_000n);
    expect(priorityFee(0xffffffffffffffffn, 1_000_000)).toBe(0xffffffffffffffffn);
    expect(priorityFee(0xffffffffffffffffn, 1_400_000)).toBe(U64_MAX);
  });

  it('precompile instructions add their first data byte to the charged signatures', () => {
    const view = { signatures: ['a', 'b'], accountKeys: [], writable: [], instructions: [call(ED25519_PROGRAM, 2, 0), call(ED25519_PROGRAM), call(DEX, 9)] };
    expect(precompileSignatureCount(view)).toBe(2);
    expect(baseFee(view)).toBe(20_000n);
  });
});

describe('isVoteTransaction', () => {
  const vote = call(VOTE_PROGRAM, 1);
  it('is fewer than 3 signatures and one Vote instruction', () => {
    expect(isVoteTransaction({ signatures: ['a'], accountKeys: [], writable: [], instructions: [vote] })).toBe(true);
    expect(isVoteTransaction({ signatures: ['a', 'b'], accountKeys: [], writable: [], instructions: [vote] })).toBe(true);
    expect(isVoteTransaction({ signatures: ['a', 'b', 'c'], accountKeys: [], writable: [], instructions: [vote] })).toBe(false);
    expect(isVoteTransaction({ signatures: ['a'], accountKeys: [], writable: [], instructions: [setPrice(1n), vote] })).toBe(false);
    expect(isVoteTransaction({ signatures: ['a'], accountKeys: [], writable: [], instructions: [call(DEX)] })).toBe(false);
  });
});
