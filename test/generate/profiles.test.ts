import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SOL_MINT, USDC_MINT, USDT_MINT } from '../../src/generate/constants.js';
import { generateBlocks, generateTokens, type GeneratedBlock, type MarketOptions } from '../../src/generate/market.js';
import { PROFILES, resolveMarket } from '../../src/generate/profiles.js';
import { buildUniverse, pickPair } from '../../src/generate/universe.js';
import { SWAP_PROGRAMS } from './swap-programs.js';

const QUOTES = new Set([SOL_MINT, USDC_MINT, USDT_MINT]);

const collect = (options: MarketOptions): GeneratedBlock[] => [...generateBlocks(options)];
const serialise = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));

describe('the default profile', () => {
  it('gives the same rows as before the profiles existed, and as before the write locks but for them (golden hashes)', () => {
    const blocks = collect({ seed: 'golden', blocks: 20, txPerBlock: 200 });
    const hash = createHash('sha256').update(serialise({ tokens: generateTokens(), blocks })).digest('hex');
    expect(hash).toBe('8ff8577997a6d230604e04057bda162a7301b40c6f8063c635bfc4661126809e');
    // The accounts draw from their own stream: without them, every row is what it was before.
    const withoutLocks = blocks.map((b) => ({
      ...b,
      transactions: b.transactions.map(({ writable_accounts: _w, readonly_accounts: _r, ...tx }) => tx),
    }));
    const before = createHash('sha256').update(serialise({ tokens: generateTokens(), blocks: withoutLocks })).digest('hex');
    expect(before).toBe('48313afaac69f214664d5ccda5744a81d755d932106b8933f533cbb7f66a1f7d');
    expect(serialise(collect({ seed: 3, blocks: 5, profile: 'default' }))).toBe(serialise(collect({ seed: 3, blocks: 5 })));
  });
});

describe('resolveMarket', () => {
  it('resolves the profiles and derives the sizes not given', () => {
    expect(resolveMarket({})).toEqual({ txPerBlock: 1300 });
    expect(resolveMarket({ profile: 'mainnet' })).toEqual({ txPerBlock: 1450, size: { tokens: 1500, pairs: 2000, swapsPerSecond: 300 } });
    expect(resolveMarket({ profile: 'mainnet', pairs: 400, txPerBlock: 900 })).toEqual({ txPerBlock: 900, size: { tokens: 301, pairs: 400, swapsPerSecond: 300 } });
    expect(resolveMarket({ tokens: 63 })).toEqual({ txPerBlock: 1300, size: { tokens: 63, pairs: 83, swapsPerSecond: PROFILES.default.swapsPerSecond } });
    expect(resolveMarket({ swapsPerSecond: 40 }).size).toEqual({ tokens: 3, pairs: 3, swapsPerSecond: 40 });
  });

  it('rejects sizes out of range, naming the option', () => {
    expect(() => resolveMarket({ pairs: 2 })).toThrow(/pairs/);
    expect(() => resolveMarket({ tokens: 10.5 })).toThrow(/tokens/);
    expect(() => resolveMarket({ swapsPerSecond: -1 })).toThrow(/swapsPerSecond/);
    expect(() => resolveMarket({ tokens: 100, pairs: 50 })).toThrow(/pairs must be between/);
    expect(() => resolveMarket({ tokens: 10, pairs: 30 })).toThrow(/pairs must be between/);
    expect(() => resolveMarket({ profile: 'huge' as never })).toThrow(/profile/);
    expect(() => generateBlocks({ profile: 'mainnet', pairs: 1 })).toThrow(RangeError);
  });
});

describe('the mainnet universe', () => {
  const size = resolveMarket({ profile: 'mainnet' }).size!;
  const universe = buildUniverse(1, size);

  it('has the profile\'s tokens and distinct pairs, every one against SOL, USDC or USDT', () => {
    expect(universe.tokens).toHaveLength(1500);
    expect(new Set(universe.tokens.map((t) => t.mint)).size).toBe(1500);
    expect(universe.tokens.slice(0, 3).map((t) => t.symbol)).toEqual(['SOL', 'USDC', 'USDT']);
    for (const token of universe.tokens) expect(token.supply > 0n && token.supply < 2n ** 64n).toBe(true);
    expect(universe.pairs).toHaveLength(2000);
    expect(new Set(universe.pairs.map((p) => `${p.base.mint}/${p.quote.mint}`)).size).toBe(2000);
    for (const pair of universe.pairs) {
      expect(QUOTES.has(pair.quote.mint)).toBe(true);
      expect(pair.base.mint).not.toBe(pair.quote.mint);
    }
    expect([universe.pairs[0]!.base.mint, universe.pairs[0]!.quote.mint]).toEqual([SOL_MINT, USDC_MINT]);
    const perToken = new Map<string, number>();
    for (const pair of universe.pairs.filter((p) => !QUOTES.has(p.base.mint))) perToken.set(pair.base.mint, (perToken.get(pair.base.mint) ?? 0) + 1);
    expect(perToken.size).toBe(1497);
    expect(Math.max(...perToken.values())).toBeLessThanOrEqual(3);
  });

  it('has heavy-tailed activity: a few pairs trade in most blocks, and an hour reaches most pairs', () => {
    const total = universe.weights[universe.weights.length - 1]!;
    const share = (rank: number) => (universe.weights[rank]! - (rank ? universe.weights[rank - 1]! : 0)) / total;
    const perBlock = (size.swapsPerSecond * 0.4);
    expect(share(0) * perBlock).toBeGreaterThan(5); // SOL/USDC: several trades a block
    expect(share(1999) * perBlock).toBeLessThan(0.02); // the tail: less than once a minute
    // Expected active pairs of an hour (9,000 blocks) at the profile's rate.
    const active = Array.from({ length: 2000 }, (_, k) => 1 - Math.exp(-share(k) * perBlock * 9000)).reduce((a, b) => a + b, 0);
    expect(active).toBeGreaterThan(1500);
    expect(pickPair(universe.weights, 1e-9)).toBe(0);
    expect(pickPair(universe.weights, 1 - 1e-12)).toBe(1999);
  });

  it('is the same for a seed and differs between seeds', () => {
    expect(serialise(buildUniverse(1, size))).toBe(serialise(universe));
    expect(buildUniverse(2, size).tokens[3]!.mint).not.toBe(universe.tokens[3]!.mint);
    expect(generateTokens({ profile: 'mainnet', seed: 1 }).map((t) => t.mint)).toEqual(universe.tokens.map((t) => t.mint));
  });
});

describe('generateBlocks: the mainnet profile', () => {
  const options: MarketOptions = { profile: 'mainnet', seed: 'mainnet', minutes: 1 };
  const blocks = collect(options);
  const trades = blocks.flatMap((b) => b.trades);

  it('is deterministic for a seed', () => {
    expect(serialise(collect({ ...options, minutes: 0.2 }))).toBe(serialise(blocks.slice(0, collect({ ...options, minutes: 0.2 }).length)));
    expect(serialise(collect({ ...options, seed: 'other', blocks: 3 }))).not.toBe(serialise(blocks.slice(0, 3)));
  });

  it('has ~1,450 transactions and ~120 swaps a block', () => {
    const txPerBlock = blocks.reduce((sum, b) => sum + b.transactions.length, 0) / blocks.length;
    expect(txPerBlock).toBeGreaterThan(1200);
    expect(txPerBlock).toBeLessThan(1700);
    expect(trades.length / blocks.length).toBeGreaterThan(80);
    expect(trades.length / blocks.length).toBeLessThan(170);
  });

  it('trades hundreds of pairs in a minute, SOL/USDC in nearly every block, against all three quotes', () => {
    const pairs = new Map<string, number>();
    for (const t of trades) pairs.set(`${t.base}/${t.quote}`, (pairs.get(`${t.base}/${t.quote}`) ?? 0) + 1);
    expect(pairs.size).toBeGreaterThan(500);
    const counts = [...pairs.values()].sort((a, b) => b - a);
    expect(counts[0]).toBe(pairs.get(`${SOL_MINT}/${USDC_MINT}`));
    expect(counts.slice(0, 10).reduce((a, b) => a + b, 0) / trades.length).toBeGreaterThan(0.25);
    const withSol = blocks.filter((b) => b.trades.some((t) => t.base === SOL_MINT && t.quote === USDC_MINT)).length;
    expect(withSol / blocks.length).toBeGreaterThan(0.95);
    const quotes = new Map<string, number>();
    for (const t of trades) quotes.set(t.quote, (quotes.get(t.quote) ?? 0) + 1);
    expect([...quotes.keys()].sort()).toEqual([...QUOTES].sort());
    expect(quotes.get(USDT_MINT)! / trades.length).toBeGreaterThan(0.03);
    expect(quotes.get(SOL_MINT)! / trades.length).toBeGreaterThan(0.25);
  });

  it('attaches every trade to a successful swap transaction of its block, at prices near the mids', () => {
    const tokens = new Map(generateTokens(options).map((t) => [t.mint, t]));
    let far = 0;
    for (const { block, transactions, trades: rows, midPrices } of blocks) {
      for (const trade of rows) {
        const tx = transactions[trade.tx_index]!;
        expect([tx.signature, tx.signer, tx.slot]).toEqual([trade.signature, trade.signer, block.slot]);
        expect(tx.is_vote || tx.failed).toBe(false);
        expect(SWAP_PROGRAMS.has(tx.program)).toBe(true);
        expect(trade.base_amount > 0n && trade.quote_amount > 0n).toBe(true);
        expect(trade.base_decimals).toBe(tokens.get(trade.base)!.decimals);
        expect(trade.quote_decimals).toBe(tokens.get(trade.quote)!.decimals);
        const mid = midPrices.find((m) => m.base === trade.base && m.quote === trade.quote)!.price;
        const price = Number(trade.quote_amount) / 10 ** trade.quote_decimals / (Number(trade.base_amount) / 10 ** trade.base_decimals);
        if (Math.abs(Math.log(price / mid)) > 0.05) far++;
      }
    }
    expect(far / trades.length).toBeLessThan(0.02);
  });

  it('keeps the fee-paying share of non-vote transactions of the demo market', () => {
    const nonVotes = blocks.flatMap((b) => b.transactions).filter((tx) => !tx.is_vote);
    const paying = nonVotes.filter((tx) => tx.compute_unit_price > 0n).length / nonVotes.length;
    expect(paying).toBeGreaterThan(0.8);
    expect(paying).toBeLessThan(0.93);
  });
});
