// Real mainnet blocks from test/fixtures/real/blocks (see test/fixtures/real/PROVENANCE.md):
// block 254170887 from helius-labs/photon (tests/data/blocks/index_block_metadata/254170887, Apache-2.0);
// the 2025 "sava" block from sava-software/sava (sava-rpc/src/test/resources/rpc_response_data/getBlock.json.zip,
// Apache-2.0). The *.json-encoding.json files are the same blocks re-encoded to the RPC `json` encoding.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseJsonExact } from '../../../src/ingest/exact-json.js';
import { decodeBase58 } from '../../../src/schema/base58.js';
import { decodeGetBlockFile, type GetBlockDecodeResult } from '../../../src/ingest/solana/get-block.js';
import { REAL_DATA } from '../../helpers/real-data.js';

const BLOCKS = `${REAL_DATA}blocks/`;
const PRECOMPILES = new Set([
  'Ed25519SigVerify111111111111111111111111111',
  'KeccakSecp256k11111111111111111111111111111',
  'Secp256r1SigVerify1111111111111111111111111',
]);

interface RawBlock {
  transactions: { transaction: any; meta: { fee: number | bigint; loadedAddresses?: { writable: string[]; readonly: string[] } } }[];
  rewards: { pubkey: string; lamports: number; rewardType: string }[];
}

const cache = new Map<string, { text: string; raw: RawBlock; decoded: GetBlockDecodeResult }>();
function load(file: string) {
  let entry = cache.get(file);
  if (!entry) {
    const text = readFileSync(BLOCKS + file, 'utf8');
    const doc = parseJsonExact(text) as { result?: RawBlock } & RawBlock;
    entry = { text, raw: doc.result ?? doc, decoded: decodeGetBlockFile(text, file) };
    cache.set(file, entry);
  }
  return entry;
}

/** Signatures charged by the raw entry, read without the decoder: the json twin gives the instructions. */
function chargedSignatures(jsonEntry: RawBlock['transactions'][number]): number {
  const tx = jsonEntry.transaction;
  const loaded = jsonEntry.meta.loadedAddresses ?? { writable: [], readonly: [] };
  const keys: string[] = [...tx.message.accountKeys, ...loaded.writable, ...loaded.readonly];
  let precompile = 0;
  for (const ix of tx.message.instructions) {
    if (PRECOMPILES.has(keys[ix.programIdIndex])) precompile += decodeBase58(ix.data)![0] ?? 0;
  }
  return tx.signatures.length + precompile;
}

/** The compact-u16 signature count at the start of a base64 wire transaction. */
function wireSignatureCount(base64: string): number {
  const bytes = Buffer.from(base64, 'base64');
  return bytes[0] < 0x80 ? bytes[0] : (bytes[0] & 0x7f) | (bytes[1] << 7);
}

const CASES = [
  { name: 'block 254170887 (2024-03)', base: 'block-254170887', count: 602 },
  { name: 'sava block (2025-08)', base: 'sava-block', count: 1790 },
];

describe.each(CASES)('$name', ({ base, count }) => {
  it.each(['json-encoding', 'base64'])('fee identity holds for every transaction (%s)', (encoding) => {
    const { raw, decoded } = load(`${base}.${encoding}.json`);
    const twin = load(`${base}.json-encoding.json`).raw;
    expect(decoded.rejections).toEqual([]);
    expect(decoded.transactions).toHaveLength(count);
    let holds = 0;
    for (const row of decoded.transactions) {
      const entry = raw.transactions[row.index];
      const signatures = chargedSignatures(twin.transactions[row.index]);
      if (encoding === 'base64') expect(wireSignatureCount(entry.transaction[0])).toBe(twin.transactions[row.index].transaction.signatures.length);
      if (row.priority_fee! + 5000n * BigInt(signatures) === BigInt(entry.meta.fee)) holds++;
    }
    expect(holds).toBe(count);
  });

  it('json and base64 encodings decode to identical rows', () => {
    const json = load(`${base}.json-encoding.json`).decoded;
    const binary = load(`${base}.base64.json`).decoded;
    expect(binary.blocks).toEqual(json.blocks);
    expect(binary.transactions).toEqual(json.transactions);
    expect(binary.trades).toEqual(json.trades);
    expect(binary.tokens).toEqual(json.tokens);
    expect(json.trades.length).toBeGreaterThan(0);
  });
});

describe('block 254170887', () => {
  const file = 'block-254170887.base64.json';

  it('takes the slot from the file name and the leader from the Fee reward', () => {
    const { decoded } = load(file);
    expect(decoded.warnings).toEqual([]);
    expect(decoded.blocks).toEqual([
      {
        slot: 254170887n,
        timestamp: 1710441678n * 1_000_000_000n,
        parent_slot: 254170886n,
        block_height: 234724352n,
        leader: 'Ninja1spj6n9t5hVYgF3PdnYz2PLnkt7rvaw3firmjs',
        block_cu_limit: null,
      },
    ]);
  });

  it('the leader is paid 50% of all fees (before SIMD-0096)', () => {
    const { raw, decoded } = load(file);
    const fees = raw.transactions.reduce((sum, t) => sum + BigInt(t.meta.fee), 0n);
    const reward = raw.rewards.find((r) => r.rewardType === 'Fee')!;
    expect(fees).toBe(33_813_246n);
    expect(reward.pubkey).toBe(decoded.blocks[0].leader);
    expect(BigInt(reward.lamports)).toBe(fees / 2n);
    expect(fees / 2n).toBe(16_906_623n);
  });

  it('counts votes, priced and unpriced transactions, and priority fees', () => {
    const txs = load(file).decoded.transactions;
    const nonVote = txs.filter((t) => !t.is_vote);
    expect(txs).toHaveLength(602);
    expect(txs.filter((t) => t.is_vote)).toHaveLength(158);
    expect(txs.filter((t) => t.compute_unit_price > 0n)).toHaveLength(409);
    expect(nonVote.filter((t) => t.compute_unit_price > 0n)).toHaveLength(409);
    expect(nonVote.filter((t) => t.compute_unit_price === 0n)).toHaveLength(35);
    expect(nonVote.filter((t) => t.failed)).toHaveLength(305);
    expect(nonVote.reduce((sum, t) => sum + t.priority_fee!, 0n)).toBe(30_778_246n);
    expect(txs.map((t) => t.index)).toEqual([...Array(602).keys()]);
    expect(load(file).decoded.blockStats[0]).toMatchObject({ transactions: 602, votes: 158, computeBudgetAnomalies: 0 });
  });
});

describe('sava block (2025-08, after SIMD-0096 and SIMD-0170)', () => {
  const file = 'sava-block.base64.json';

  it('has no slot on record: parent_slot + 1 with a warning', () => {
    const { decoded } = load(file);
    expect(decoded.blocks[0].slot).toBe(361774429n);
    expect(decoded.warnings).toHaveLength(1);
    expect(decoded.warnings[0]).toMatchObject({ source: file, row: 1, field: 'result' });
    expect(decoded.warnings[0].message).toContain('parent_slot + 1');
  });

  it('the leader is paid 50% of base fees and 100% of priority fees', () => {
    const { raw, decoded } = load(file);
    const fees = raw.transactions.reduce((sum, t) => sum + BigInt(t.meta.fee), 0n);
    const priority = decoded.transactions.reduce((sum, t) => sum + t.priority_fee!, 0n);
    const reward = raw.rewards.find((r) => r.rewardType === 'Fee')!;
    expect(priority).toBe(30_276_413n);
    expect(fees - priority).toBe(9_075_000n);
    expect(reward.pubkey).toBe(decoded.blocks[0].leader);
    expect(BigInt(reward.lamports)).toBe((fees - priority) / 2n + priority);
    expect(BigInt(reward.lamports)).toBe(34_813_913n);
  });

  it('counts votes and priced transactions', () => {
    const txs = load(file).decoded.transactions;
    expect(txs).toHaveLength(1790);
    expect(txs.filter((t) => t.is_vote)).toHaveLength(1035);
    expect(txs.filter((t) => t.compute_unit_price > 0n)).toHaveLength(551);
    expect(txs.filter((t) => !t.is_vote && t.failed)).toHaveLength(409);
  });

  it('needs the SIMD-0170 default limit: the pre-SIMD-0170 rule breaks the fee identity', () => {
    const { text, raw } = load(file);
    const old = decodeGetBlockFile(text, file, { simd0170ActivationSlot: 10n ** 12n });
    const twin = load('sava-block.json-encoding.json').raw;
    const broken = old.transactions.filter(
      (row) => row.priority_fee! + 5000n * BigInt(chargedSignatures(twin.transactions[row.index])) !== BigInt(raw.transactions[row.index].meta.fee),
    );
    expect(broken.length).toBeGreaterThan(0);
  });
});
