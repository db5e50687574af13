// Real mainnet blocks of test/fixtures/real (sources, licences and the figures quoted here:
// test/fixtures/real/PROVENANCE.md, more-blocks/PROVENANCE.md, parsed-blocks/PROVENANCE.md).
// blocks/: 254170887 (helius-labs/photon, Apache-2.0) and the 2025 "sava" block (sava-software/sava, Apache-2.0);
// more-blocks/: 100356971 (2021, no computeUnitsConsumed), 285000037 (2024, before SIMD-0170), 332254855 and
// 332254908 (2025); parsed-blocks/: 110130000 and 110360000 (2021) and 355825332 (2025), in jsonParsed.
// Every expectation is computed here from the raw entries (raw-blocks.ts) or quoted from the provenance files;
// meta.fee, the leader's Fee reward and the signatures are the independent oracles.
import { describe, expect, it } from 'vitest';
import { decodeGetBlockFile } from '../../../src/ingest/solana/get-block.js';
import {
  chargedSignatures, computeBudgetRequests, computeBudgetTags, feeReward, hasPrecompile, isSimpleVote, loadBlock, preSimd0170Limit, totalFees,
  wireSignatureCount, type RawEntry,
} from './raw-blocks.js';

/** First mainnet slot of SIMD-0170 (quoted from parsed-blocks/PROVENANCE.md, not from the decoder). */
const SIMD0170_SLOT = 327_456_000n;

interface Case {
  name: string;
  /** Path under the fixtures without the encoding suffix. */
  base: string;
  encodings: string[];
  /** The encoding the raw instructions are read from (json or jsonParsed). */
  twin: string;
  slot: bigint;
  count: number;
  votes: number;
}

const CASES: Case[] = [
  { name: 'block 254170887 (2024-03)', base: 'blocks/block-254170887', encodings: ['json-encoding', 'base64'], twin: 'json-encoding', slot: 254170887n, count: 602, votes: 158 },
  { name: 'sava block (2025-08)', base: 'blocks/sava-block', encodings: ['json-encoding', 'base64'], twin: 'json-encoding', slot: 361774429n, count: 1790, votes: 1035 },
  { name: 'block 100356971 (2021-10)', base: 'more-blocks/block-100356971', encodings: ['json-encoding', 'base64'], twin: 'json-encoding', slot: 100356971n, count: 1127, votes: 917 },
  { name: 'block 285000037 (2024-08)', base: 'more-blocks/block-285000037', encodings: ['json-encoding', 'base64'], twin: 'json-encoding', slot: 285000037n, count: 557, votes: 62 },
  { name: 'block 332254855 (2025-04)', base: 'more-blocks/block-332254855', encodings: ['json-encoding', 'base64'], twin: 'json-encoding', slot: 332254855n, count: 1445, votes: 1085 },
  { name: 'block 332254908 (2025-04)', base: 'more-blocks/block-332254908', encodings: ['json-encoding', 'base64'], twin: 'json-encoding', slot: 332254908n, count: 1862, votes: 1380 },
  { name: 'block 110130000 (2021-12)', base: 'parsed-blocks/block-110130000', encodings: ['json-encoding', 'jsonparsed'], twin: 'jsonparsed', slot: 110130000n, count: 3439, votes: 2677 },
  { name: 'block 110360000 (2021-12)', base: 'parsed-blocks/block-110360000', encodings: ['jsonparsed'], twin: 'jsonparsed', slot: 110360000n, count: 4435, votes: 3272 },
  { name: 'block 355825332 (2025-07)', base: 'parsed-blocks/block-355825332', encodings: ['jsonparsed', 'base64'], twin: 'jsonparsed', slot: 355825332n, count: 1648, votes: 1038 },
];

const file = (base: string, encoding: string) => `${base}.${encoding}.json`;
const twinOf = (c: Case) => loadBlock(file(c.base, c.twin)).raw;

/** The fee from the entry's own compute budget under the pre-SIMD-0170 rule (computed here, not by the decoder). */
function preSimd0170Fee(entry: RawEntry): bigint {
  const price = computeBudgetRequests(entry).price ?? 0n;
  return 5000n * BigInt(chargedSignatures(entry)) + (price * BigInt(preSimd0170Limit(entry)) + 999_999n) / 1_000_000n;
}

describe.each(CASES)('$name', (c) => {
  it.each(c.encodings)('fee identity holds for every transaction (%s)', (encoding) => {
    const { raw, decoded } = loadBlock(file(c.base, encoding));
    const twin = twinOf(c);
    expect(decoded.rejections).toEqual([]);
    expect(decoded.blocks.map((b) => b.slot)).toEqual([c.slot]);
    expect(decoded.transactions).toHaveLength(c.count);
    expect(decoded.transactions.map((t) => t.index)).toEqual([...Array(c.count).keys()]);
    let holds = 0;
    for (const row of decoded.transactions) {
      const entry = raw.transactions[row.index];
      const signatures = chargedSignatures(twin.transactions[row.index]);
      if (encoding === 'base64') expect(wireSignatureCount(entry.transaction[0])).toBe(twin.transactions[row.index].transaction.signatures.length);
      if (row.priority_fee! + 5000n * BigInt(signatures) === BigInt(entry.meta.fee)) holds++;
    }
    expect(holds).toBe(c.count);
  });

  it('consumed compute units are meta.computeUnitsConsumed, null where the block predates it', () => {
    const twin = twinOf(c);
    const { decoded } = loadBlock(file(c.base, c.twin));
    const expected = twin.transactions.map((t) => (t.meta.computeUnitsConsumed === undefined ? null : BigInt(t.meta.computeUnitsConsumed)));
    expect(decoded.transactions.map((t) => t.compute_units_consumed)).toEqual(expected);
    const unknown = expected.filter((v) => v === null).length;
    expect(decoded.warnings.filter((w) => w.message.includes('computeUnitsConsumed'))).toHaveLength(unknown > 0 ? 1 : 0);
  });

  it('votes are the simple vote transactions, failures those with meta.err', () => {
    const twin = twinOf(c);
    const rows = loadBlock(file(c.base, c.twin)).decoded.transactions;
    expect(rows.map((t) => t.is_vote)).toEqual(twin.transactions.map(isSimpleVote));
    expect(rows.map((t) => t.failed)).toEqual(twin.transactions.map((t) => t.meta.err !== null && t.meta.err !== undefined));
    expect(rows.filter((t) => t.is_vote)).toHaveLength(c.votes);
  });

});

describe.each(CASES.filter((c) => c.encodings.length > 1))('$name', (c) => {
  it('every encoding decodes to identical rows', () => {
    const [first, ...others] = c.encodings.map((encoding) => loadBlock(file(c.base, encoding)).decoded);
    for (const other of others) {
      expect(other.blocks).toEqual(first.blocks);
      expect(other.transactions).toEqual(first.transactions);
      expect(other.trades).toEqual(first.trades);
      expect(other.tokens).toEqual(first.tokens);
    }
  });

});

describe.each(CASES.filter((c) => c.slot < SIMD0170_SLOT))('$name', (c) => {
  it('before SIMD-0170: every limit, price and fee follows the old default-limit rule', () => {
    const twin = twinOf(c);
    for (const row of loadBlock(file(c.base, c.twin)).decoded.transactions) {
      const entry = twin.transactions[row.index];
      expect(row.compute_unit_limit).toBe(preSimd0170Limit(entry));
      expect(row.compute_unit_price).toBe(computeBudgetRequests(entry).price ?? 0n);
      expect(preSimd0170Fee(entry)).toBe(BigInt(entry.meta.fee));
    }
  });
});

describe('block 254170887', () => {
  const path = 'blocks/block-254170887.base64.json';

  it('takes the slot from the file name and the leader from the Fee reward', () => {
    const { decoded } = loadBlock(path);
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
    const { raw, decoded } = loadBlock(path);
    const fees = totalFees(raw);
    const reward = feeReward(raw);
    expect(fees).toBe(33_813_246n);
    expect(reward.pubkey).toBe(decoded.blocks[0].leader);
    expect(reward.lamports).toBe(fees / 2n);
    expect(fees / 2n).toBe(16_906_623n);
  });

  it('counts votes, priced and unpriced transactions, and priority fees', () => {
    const txs = loadBlock(path).decoded.transactions;
    const nonVote = txs.filter((t) => !t.is_vote);
    expect(txs.filter((t) => t.compute_unit_price > 0n)).toHaveLength(409);
    expect(nonVote.filter((t) => t.compute_unit_price > 0n)).toHaveLength(409);
    expect(nonVote.filter((t) => t.compute_unit_price === 0n)).toHaveLength(35);
    expect(nonVote.filter((t) => t.failed)).toHaveLength(305);
    expect(nonVote.reduce((sum, t) => sum + t.priority_fee!, 0n)).toBe(30_778_246n);
    expect(loadBlock(path).decoded.blockStats[0]).toMatchObject({ transactions: 602, votes: 158, computeBudgetAnomalies: 0 });
  });
});

/** The leader's Fee reward after SIMD-0096: 50% of base fees and 100% of priority fees. */
function expectSimd0096Reward(path: string, base: bigint, priority: bigint, reward: bigint) {
  const { raw, decoded } = loadBlock(path);
  const priorityFees = decoded.transactions.reduce((sum, t) => sum + t.priority_fee!, 0n);
  expect(priorityFees).toBe(priority);
  expect(totalFees(raw) - priorityFees).toBe(base);
  expect(feeReward(raw)).toEqual({ pubkey: decoded.blocks[0].leader, lamports: base / 2n + priority });
  expect(base / 2n + priority).toBe(reward);
}

/** Before SIMD-0096 the leader gets 50% of all fees (and priority fees are 0 in 2021). */
function expectHalfOfFeesReward(path: string, fees: bigint, reward: bigint) {
  const { raw, decoded } = loadBlock(path);
  expect(totalFees(raw)).toBe(fees);
  expect(feeReward(raw)).toEqual({ pubkey: decoded.blocks[0].leader, lamports: fees / 2n });
  expect(fees / 2n).toBe(reward);
}

/**
 * What the pre-SIMD-0170 rule would change: transactions whose fee it gets wrong, and the lamports it
 * is off by, net and in absolute value.
 */
function oldRuleMisses(twinPath: string) {
  const { raw } = loadBlock(twinPath);
  const misses = raw.transactions.map((entry) => preSimd0170Fee(entry) - BigInt(entry.meta.fee)).filter((d) => d !== 0n);
  return { count: misses.length, net: misses.reduce((a, b) => a + b, 0n), absolute: misses.reduce((a, b) => a + (b < 0n ? -b : b), 0n) };
}

/** Non-vote transactions without SetComputeUnitLimit, and those of them that set a price. */
function defaultLimitCounts(twinPath: string) {
  const nonVote = loadBlock(twinPath).raw.transactions.filter((t) => !isSimpleVote(t));
  const defaults = nonVote.filter((t) => computeBudgetRequests(t).limit === undefined);
  return { defaults: defaults.length, priced: defaults.filter((t) => (computeBudgetRequests(t).price ?? 0n) > 0n).length };
}

describe('sava block (2025-08, after SIMD-0096 and SIMD-0170)', () => {
  const path = 'blocks/sava-block.base64.json';

  it('has no slot on record: parent_slot + 1 with a warning', () => {
    const { decoded } = loadBlock(path);
    expect(decoded.blocks[0].slot).toBe(361774429n);
    expect(decoded.warnings).toHaveLength(1);
    expect(decoded.warnings[0]).toMatchObject({ source: path, row: 1, field: 'result' });
    expect(decoded.warnings[0].message).toContain('parent_slot + 1');
  });

  it('the leader is paid 50% of base fees and 100% of priority fees', () => {
    expectSimd0096Reward(path, 9_075_000n, 30_276_413n, 34_813_913n);
  });

  it('counts priced and failed transactions', () => {
    const txs = loadBlock(path).decoded.transactions;
    expect(txs.filter((t) => t.compute_unit_price > 0n)).toHaveLength(551);
    expect(txs.filter((t) => !t.is_vote && t.failed)).toHaveLength(409);
  });

  it('needs the SIMD-0170 default limit: the pre-SIMD-0170 rule breaks the fee identity', () => {
    const { text, raw } = loadBlock(path);
    const old = decodeGetBlockFile(text, path, { simd0170ActivationSlot: 10n ** 12n });
    const twin = loadBlock('blocks/sava-block.json-encoding.json').raw;
    const broken = old.transactions.filter(
      (row) => row.priority_fee! + 5000n * BigInt(chargedSignatures(twin.transactions[row.index])) !== BigInt(raw.transactions[row.index].meta.fee),
    );
    expect(broken.length).toBeGreaterThan(0);
    expect(oldRuleMisses('blocks/sava-block.json-encoding.json').count).toBeGreaterThan(0);
  });
});

describe('block 100356971 (2021-10: before compute budgets and computeUnitsConsumed)', () => {
  const path = 'more-blocks/block-100356971.json-encoding.json';

  it('has no ComputeBudget instruction, no computeUnitsConsumed and no rewards: every fee is 5000 per signature', () => {
    const { raw, decoded } = loadBlock(path);
    expect(raw.transactions.every((t) => !('computeUnitsConsumed' in t.meta))).toBe(true);
    expect(decoded.transactions.every((t) => t.compute_units_consumed === null)).toBe(true);
    expect(raw.rewards ?? []).toEqual([]);
    expect(decoded.blocks[0]).toMatchObject({ slot: 100356971n, parent_slot: 100356970n, block_height: 89923086n, leader: null, timestamp: 1633690951n * 1_000_000_000n });
    expect(decoded.transactions.every((t) => t.priority_fee === 0n && t.compute_unit_price === 0n)).toBe(true);
    expect(totalFees(raw)).toBe(5000n * BigInt(raw.transactions.reduce((n, t) => n + chargedSignatures(t), 0)));
  });
});

describe('block 285000037 (2024-08, before SIMD-0170)', () => {
  const path = 'more-blocks/block-285000037.json-encoding.json';

  it('84 non-vote transactions use the default limit, 65 of them with a price; 2 ask for more than 1,400,000', () => {
    expect(defaultLimitCounts(path)).toEqual({ defaults: 84, priced: 65 });
    const { raw, decoded } = loadBlock(path);
    const greedy = raw.transactions.map((t, i) => [computeBudgetRequests(t).limit ?? 0, decoded.transactions[i].compute_unit_limit]).filter(([asked]) => asked > 1_400_000);
    expect(greedy).toEqual([[expect.any(Number), 1_400_000], [expect.any(Number), 1_400_000]]);
    expect(raw.transactions.filter((t) => t.version === 0)).toHaveLength(273);
    expect(decoded.blocks[0]).toMatchObject({ parent_slot: 285000036n, block_height: 264042638n, timestamp: 1724267459n * 1_000_000_000n });
  });

  it('the slot picks the old rule: decoding it with the SIMD-0170 rule breaks the fee identity', () => {
    const { text, raw } = loadBlock(path);
    const simd0170 = decodeGetBlockFile(text, path, { simd0170ActivationSlot: 0 });
    const broken = simd0170.transactions.filter((row) => row.priority_fee! + 5000n * BigInt(chargedSignatures(raw.transactions[row.index])) !== BigInt(raw.transactions[row.index].meta.fee));
    expect(broken.length).toBeGreaterThan(0);
    expect(broken.every((row) => computeBudgetRequests(raw.transactions[row.index]).limit === undefined)).toBe(true);
  });
});

describe('blocks 332254855 and 332254908 (2025-04, after SIMD-0096 and SIMD-0170)', () => {
  it('332254855: the leader is paid 50% of base fees and 100% of priority fees', () => {
    expectSimd0096Reward('more-blocks/block-332254855.base64.json', 7_290_000n, 10_778_306n, 14_423_306n);
  });

  it('332254908: the leader is paid 50% of base fees and 100% of priority fees', () => {
    expectSimd0096Reward('more-blocks/block-332254908.base64.json', 9_590_000n, 20_916_160n, 25_711_160n);
  });

  it('use the default limit in 12 and 123 non-vote transactions; the old rule would be off by 65,383 lamports in 332254855', () => {
    expect(defaultLimitCounts('more-blocks/block-332254855.json-encoding.json').defaults).toBe(12);
    expect(defaultLimitCounts('more-blocks/block-332254908.json-encoding.json').defaults).toBe(123);
    expect(oldRuleMisses('more-blocks/block-332254855.json-encoding.json').net).toBe(65_383n);
    expect(oldRuleMisses('more-blocks/block-332254908.json-encoding.json').count).toBeGreaterThan(0);
  });

  it('carry precompile signatures, SetLoadedAccountsDataSizeLimit (332254855) and RequestHeapFrame (332254908)', () => {
    const [early, late] = ['332254855', '332254908'].map((slot) => loadBlock(`more-blocks/block-${slot}.json-encoding.json`).raw.transactions);
    expect(early.some(hasPrecompile) && late.some(hasPrecompile)).toBe(true);
    expect(early.some((t) => computeBudgetTags(t).includes(4))).toBe(true);
    expect(late.some((t) => computeBudgetTags(t).includes(1))).toBe(true);
  });
});

describe('block 355825332 (2025-07, jsonParsed and base64)', () => {
  const path = 'parsed-blocks/block-355825332.jsonparsed.json';

  it('the leader is paid 50% of base fees and 100% of priority fees', () => {
    expectSimd0096Reward(path, 8_725_000n, 11_243_331n, 15_605_831n);
  });

  it('371 transactions pay a price, 23 of them with the default limit; 3 precompile, 70 failed, 490 v0', () => {
    const { raw, decoded } = loadBlock(path);
    expect(decoded.transactions.filter((t) => t.compute_unit_price > 0n)).toHaveLength(371);
    expect(defaultLimitCounts(path).priced).toBe(23);
    expect(raw.transactions.filter(hasPrecompile)).toHaveLength(3);
    expect(decoded.transactions.filter((t) => t.failed)).toHaveLength(70);
    expect(raw.transactions.filter((t) => t.version === 0)).toHaveLength(490);
  });

  it('the old default rule would miss 11 fees by 24,422 lamports in total', () => {
    expect(oldRuleMisses(path)).toMatchObject({ count: 11, absolute: 24_422n });
  });
});

describe('blocks 110130000 and 110360000 (2021-12, jsonParsed, before SIMD-0096)', () => {
  it('110130000: the leader is paid 50% of all fees; 254 failed, 2 with secp256k1 signatures', () => {
    const path = 'parsed-blocks/block-110130000.jsonparsed.json';
    expectHalfOfFeesReward(path, 17_420_000n, 8_710_000n);
    const { raw, decoded } = loadBlock(path);
    expect(decoded.transactions.filter((t) => t.failed)).toHaveLength(254);
    expect(raw.transactions.filter(hasPrecompile)).toHaveLength(2);
  });

  it('110360000: the leader is paid 50% of all fees; 717 failed, 3 with secp256k1 signatures', () => {
    const path = 'parsed-blocks/block-110360000.jsonparsed.json';
    expectHalfOfFeesReward(path, 22_260_000n, 11_130_000n);
    const { raw, decoded } = loadBlock(path);
    expect(decoded.transactions.filter((t) => t.failed)).toHaveLength(717);
    expect(raw.transactions.filter(hasPrecompile)).toHaveLength(3);
  });

  it('have no ComputeBudget instruction: every priority fee is 0', () => {
    for (const slot of ['110130000', '110360000']) {
      expect(loadBlock(`parsed-blocks/block-${slot}.jsonparsed.json`).decoded.transactions.every((t) => t.priority_fee === 0n), slot).toBe(true);
    }
  });
});
