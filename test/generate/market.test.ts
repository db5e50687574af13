import { describe, expect, it } from 'vitest';
import { LENS_MINT, PUPS_MINT, SOL_MINT, USDC_MINT } from '../../src/generate/constants.js';
import { randomPublicKey } from '../../src/generate/keys.js';
import { generateBlocks, generateTokens, type GeneratedBlock, type MarketOptions } from '../../src/generate/market.js';
import { Rng } from '../../src/generate/prng.js';
import { SWAP_PROGRAMS } from './swap-programs.js';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const SLOT_NS = 400_000_000n;
const VOTE = 'Vote111111111111111111111111111111111111111';

/** Independent oracle: the byte length a base58 string decodes to (BigInt arithmetic). */
function decodedLength(text: string): number {
  let n = 0n;
  for (const c of text) {
    const d = ALPHABET.indexOf(c);
    if (d < 0) return -1;
    n = n * 58n + BigInt(d);
  }
  let zeros = 0;
  while (zeros < text.length && text[zeros] === '1') zeros++;
  return zeros + (n === 0n ? 0 : Math.ceil(n.toString(16).length / 2));
}

const collect = (options: MarketOptions): GeneratedBlock[] => [...generateBlocks(options)];
const serialise = (blocks: GeneratedBlock[]): string =>
  JSON.stringify(blocks, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value));
const quantile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(p * (sorted.length - 1))];
};

describe('generateBlocks: determinism', () => {
  const options = { blocks: 40, txPerBlock: 300 };

  it('gives identical rows for the same seed', () => {
    expect(serialise(collect({ ...options, seed: 'a' }))).toBe(serialise(collect({ ...options, seed: 'a' })));
    expect(serialise(collect({ ...options, seed: 42 }))).toBe(serialise(collect({ ...options, seed: '42' })));
  });

  it('differs between seeds', () => {
    const a = collect({ ...options, seed: 'a' });
    const b = collect({ ...options, seed: 'b' });
    expect(serialise(a)).not.toBe(serialise(b));
    expect(a[0].transactions[0].signature).not.toBe(b[0].transactions[0].signature);
    expect(a[10].midPrices[0].price).not.toBe(b[10].midPrices[0].price);
  });

  it('keeps the price walks independent of the transaction count', () => {
    const small = collect({ seed: 5, blocks: 30, txPerBlock: 100 });
    const large = collect({ seed: 5, blocks: 30, txPerBlock: 600 });
    expect(small.map((b) => b.midPrices)).toEqual(large.map((b) => b.midPrices));
    expect(small.map((b) => b.block)).toEqual(large.map((b) => b.block));
  });
});

describe('generateBlocks: invariants', () => {
  const start = 1_700_000_000_000_000_000n;
  const slot0 = 250_000_000n;
  const blocks = collect({ seed: 'invariants', minutes: 3, txPerBlock: 400, start, slot0 });
  const tokens = new Map(generateTokens().map((t) => [t.mint, t]));

  it('covers the slot span with ~3% skipped slots, 400 ms per slot', () => {
    const last = blocks[blocks.length - 1].block.slot;
    expect(blocks[0].block.slot).toBe(slot0);
    expect(last < slot0 + 450n).toBe(true);
    const skipped = Number(last - slot0) + 1 - blocks.length;
    expect(skipped).toBeGreaterThan(0);
    expect(skipped / 450).toBeLessThan(0.08);
    let previous: GeneratedBlock | undefined;
    for (const { block } of blocks) {
      expect(block.timestamp).toBe(start + (block.slot - slot0) * SLOT_NS);
      expect(block.block_cu_limit).toBe(60_000_000n);
      expect(decodedLength(block.leader!)).toBe(32);
      if (previous) {
        expect(block.slot > previous.block.slot).toBe(true);
        expect(block.parent_slot).toBe(previous.block.slot);
        expect(block.block_height).toBe(previous.block.block_height! + 1n);
      }
      previous = { block, transactions: [], trades: [], midPrices: [] };
    }
  });

  it('numbers transactions 0..n-1 with unique 64-byte signatures', () => {
    const signatures = new Set<string>();
    const signers = new Set<string>();
    let count = 0;
    let misplaced = 0;
    for (const { block, transactions } of blocks) {
      transactions.forEach((tx, i) => {
        if (tx.index !== i || tx.slot !== block.slot) misplaced++;
        signatures.add(tx.signature);
        signers.add(tx.signer);
        if (count++ % 50 === 0) expect(decodedLength(tx.signature)).toBe(64);
      });
    }
    expect(misplaced).toBe(0);
    expect(signatures.size).toBe(count);
    for (const signer of signers) expect(decodedLength(signer)).toBe(32);
  });

  it('keeps compute budgets and fees consistent', () => {
    const violations: string[] = [];
    const programs = new Set<string>();
    for (const { block, transactions } of blocks) {
      let blockConsumed = 0n;
      for (const tx of transactions) {
        const limit = BigInt(tx.compute_unit_limit);
        const where = `${tx.slot}/${tx.index}`;
        const consumed = tx.compute_units_consumed; // the generator always knows it
        if (consumed === null || !(consumed > 0n && consumed <= limit)) violations.push(`consumed ${where}`);
        if (tx.compute_unit_limit > 1_400_000) violations.push(`limit ${where}`);
        if (tx.priority_fee !== (tx.compute_unit_price * limit + 999_999n) / 1_000_000n) violations.push(`fee ${where}`);
        if (tx.is_vote !== (tx.program === VOTE)) violations.push(`vote program ${where}`);
        if (tx.is_vote && tx.compute_unit_price !== 0n) violations.push(`vote price ${where}`);
        programs.add(tx.program);
        blockConsumed += consumed ?? 0n;
      }
      if (blockConsumed > block.block_cu_limit!) violations.push(`block ${block.slot}`);
    }
    expect(violations).toEqual([]);
    for (const program of programs) expect(decodedLength(program)).toBe(32);
  });

  it('orders transactions roughly by priority', () => {
    let firstHalf = 0;
    let secondHalf = 0;
    for (const { transactions } of blocks) {
      const nonVotes = transactions.filter((tx) => !tx.is_vote);
      const half = Math.floor(nonVotes.length / 2);
      nonVotes.forEach((tx, i) => {
        const logPrice = Math.log1p(Number(tx.compute_unit_price));
        if (i < half) firstHalf += logPrice / half;
        else secondHalf += logPrice / (nonVotes.length - half);
      });
    }
    expect(firstHalf).toBeGreaterThan(secondHalf * 1.2);
  });

  it('attaches every trade to a successful non-vote swap transaction of its block', () => {
    let trades = 0;
    for (const { block, transactions, trades: rows } of blocks) {
      let previous = [-1, -1];
      const fills = new Map<number, number[]>();
      for (const trade of rows) {
        trades++;
        const tx = transactions[trade.tx_index];
        expect(tx.signature).toBe(trade.signature);
        expect(tx.signer).toBe(trade.signer);
        expect(tx.is_vote || tx.failed).toBe(false);
        expect(SWAP_PROGRAMS.has(tx.program)).toBe(true);
        expect(trade.slot).toBe(block.slot);
        expect(trade.timestamp).toBe(block.timestamp);
        const order = [trade.tx_index, trade.fill_index];
        expect(order[0] > previous[0] || (order[0] === previous[0] && order[1] > previous[1])).toBe(true);
        previous = order;
        fills.set(trade.tx_index, [...(fills.get(trade.tx_index) ?? []), trade.fill_index]);
      }
      for (const indexes of fills.values()) expect([[0], [0, 1]]).toContainEqual(indexes);
    }
    expect(trades).toBeGreaterThan(blocks.length);
  });

  it('gives positive amounts in the tokens\' decimals at prices near the walk', () => {
    let far = 0;
    let trades = 0;
    for (const { trades: rows, midPrices } of blocks) {
      for (const trade of rows) {
        trades++;
        expect(trade.base_amount > 0n && trade.quote_amount > 0n).toBe(true);
        expect(trade.base_decimals).toBe(tokens.get(trade.base)!.decimals);
        expect(trade.quote_decimals).toBe(tokens.get(trade.quote)!.decimals);
        const mid = midPrices.find((m) => m.base === trade.base && m.quote === trade.quote)!.price;
        const price =
          Number(trade.quote_amount) / 10 ** trade.quote_decimals / (Number(trade.base_amount) / 10 ** trade.base_decimals);
        if (Math.abs(Math.log(price / mid)) > 0.05) far++;
      }
    }
    expect(far / trades).toBeLessThan(0.02);
    const pairs = new Set(blocks.flatMap((b) => b.trades.map((t) => `${t.base}/${t.quote}`)));
    expect([...pairs].sort()).toEqual([`${LENS_MINT}/${USDC_MINT}`, `${PUPS_MINT}/${SOL_MINT}`, `${SOL_MINT}/${USDC_MINT}`].sort());
  });
});

describe('generateBlocks: distributions at the default size', () => {
  const blocks = collect({ seed: 'distributions', minutes: 4 });
  const all = blocks.flatMap((b) => b.transactions);
  const nonVotes = all.filter((tx) => !tx.is_vote);

  it('has mainnet-like counts, vote share, zero-price and failure shares', () => {
    const perBlock = all.length / blocks.length;
    expect(perBlock).toBeGreaterThan(1000);
    expect(perBlock).toBeLessThan(1600);
    const voteShare = 1 - nonVotes.length / all.length;
    expect(voteShare).toBeGreaterThan(0.55);
    expect(voteShare).toBeLessThan(0.75);
    const zeroShare = nonVotes.filter((tx) => tx.compute_unit_price === 0n).length / nonVotes.length;
    expect(zeroShare).toBeGreaterThan(0.07);
    expect(zeroShare).toBeLessThan(0.2);
    const failedShare = nonVotes.filter((tx) => tx.failed).length / nonVotes.length;
    expect(failedShare).toBeGreaterThan(0.15);
    expect(failedShare).toBeLessThan(0.45);
  });

  it('has log-normal compute-unit prices with a heavy tail', () => {
    const prices = nonVotes.filter((tx) => tx.compute_unit_price > 0n).map((tx) => Number(tx.compute_unit_price));
    expect(quantile(prices, 0.5)).toBeGreaterThan(3_000);
    expect(quantile(prices, 0.5)).toBeLessThan(300_000);
    expect(quantile(prices, 0.99)).toBeGreaterThan(1_000_000);
  });

  it('fills blocks to plausible shares of the 60M CU limit', () => {
    const fills = blocks.map((b) => b.transactions.reduce((sum, tx) => sum + Number(tx.compute_units_consumed), 0) / 60e6);
    expect(Math.max(...fills)).toBeLessThanOrEqual(1);
    expect(quantile(fills, 0.5)).toBeGreaterThan(0.3);
    expect(quantile(fills, 0.5)).toBeLessThan(0.8);
    expect(fills.some((f) => f >= 0.9)).toBe(true);
  });
});

describe('generateBlocks: options', () => {
  it('produces exactly `blocks` blocks, or the slots of `minutes`', () => {
    expect(collect({ blocks: 7, txPerBlock: 10 })).toHaveLength(7);
    expect(collect({ blocks: 0 })).toHaveLength(0);
    const minute = collect({ minutes: 1, txPerBlock: 10, slot0: 1000n });
    expect(minute.length).toBeGreaterThan(130);
    expect(minute[minute.length - 1].block.slot < 1150n).toBe(true);
  });

  it('rejects invalid options when called', () => {
    expect(() => generateBlocks({ txPerBlock: -1 })).toThrow(RangeError);
    expect(() => generateBlocks({ blocks: 1.5 })).toThrow(RangeError);
    expect(() => generateBlocks({ minutes: Number.NaN })).toThrow(RangeError);
    expect(() => generateBlocks({ slot0: -1n })).toThrow(RangeError);
  });
});

describe('generateTokens', () => {
  it('lists SOL, USDC and the synthetic tokens with 32-byte mints', () => {
    const tokens = generateTokens();
    expect(tokens.map((t) => t.symbol)).toEqual(['SOL', 'USDC', 'LENS', 'PUPS']);
    expect(tokens.map((t) => t.decimals)).toEqual([9, 6, 6, 5]);
    for (const token of tokens) {
      expect(decodedLength(token.mint)).toBe(32);
      expect(typeof token.supply).toBe('bigint');
      expect(token.supply! > 0n && token.supply! < 2n ** 64n).toBe(true);
    }
    expect(generateTokens({ seed: 'other' })).toEqual(tokens);
  });

  it('derives the synthetic mints as documented', () => {
    expect(randomPublicKey(Rng.from('chainlens', 'mint:LENS'))).toBe(LENS_MINT);
    expect(randomPublicKey(Rng.from('chainlens', 'mint:PUPS'))).toBe(PUPS_MINT);
  });
});
