import { describe, expect, it } from 'vitest';
import { poolKey, programStateKey } from '../../src/generate/accounts.js';
import { PROGRAMS, SOL_MINT, USDC_MINT } from '../../src/generate/constants.js';
import { generateBlocks, type GeneratedBlock, type MarketOptions } from '../../src/generate/market.js';
import { isPublicKey } from '../../src/schema/base58.js';
import type { TransactionRow } from '../../src/schema/tables.js';
import { SWAP_PROGRAMS } from './swap-programs.js';

const collect = (options: MarketOptions): GeneratedBlock[] => [...generateBlocks(options)];
const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};
const locks = (tx: TransactionRow): string[] => tx.writable_accounts!;
const price = (tx: TransactionRow): number => Number(tx.compute_unit_price);

/** Per account, the non-vote transactions that write it (the signer not counted: every wallet writes its own). */
function writers(blocks: GeneratedBlock[]): Map<string, TransactionRow[]> {
  const out = new Map<string, TransactionRow[]>();
  for (const { transactions } of blocks) {
    for (const tx of transactions) {
      if (tx.is_vote) continue;
      for (const key of locks(tx).slice(1)) {
        let list = out.get(key);
        if (!list) out.set(key, (list = []));
        list.push(tx);
      }
    }
  }
  return out;
}

const PROFILES: [string, MarketOptions][] = [
  ['the mainnet profile', { profile: 'mainnet', seed: 'accounts', minutes: 1 }],
  ['the demo market', { seed: 'accounts', minutes: 1 }],
];

describe.each(PROFILES)('write locks: %s', (_name, options) => {
  const blocks = collect(options);
  const all = blocks.flatMap((b) => b.transactions);
  const nonVotes = all.filter((tx) => !tx.is_vote);
  const written = writers(blocks);

  it('gives every transaction distinct 32-byte keys, the signer first, and no read-only list', () => {
    const violations: string[] = [];
    let checked = 0;
    for (const tx of all) {
      const keys = tx.writable_accounts;
      const where = `${tx.slot}/${tx.index}`;
      if (!Array.isArray(keys) || keys.length === 0) {
        violations.push(`no locks ${where}`);
        continue;
      }
      if (keys[0] !== tx.signer) violations.push(`signer not first ${where}`);
      if (keys.length > 256) violations.push(`too many ${where}`);
      if (new Set(keys).size !== keys.length) violations.push(`duplicate ${where}`);
      if (tx.readonly_accounts !== null) violations.push(`read-only ${where}`);
      for (const key of keys) {
        checked++;
        if (!isPublicKey(key)) violations.push(`not a key ${where}: ${key}`);
      }
    }
    expect(violations.slice(0, 10)).toEqual([]);
    expect(checked / all.length).toBeGreaterThan(2);
  });

  it('locks a vote\'s signer and its vote account, one per validator key', () => {
    const voteAccount = new Map<string, string>();
    const violations: string[] = [];
    for (const tx of all.filter((t) => t.is_vote)) {
      const [signer, account, ...more] = locks(tx) as [string, string];
      if (account === undefined || more.length > 0 || (voteAccount.get(signer) ?? account) !== account) violations.push(`${tx.slot}/${tx.index}`);
      voteAccount.set(signer, account);
    }
    expect(violations.slice(0, 10)).toEqual([]);
    expect(voteAccount.size).toBeGreaterThan(500);
    expect(new Set(voteAccount.values()).size).toBe(voteAccount.size);
    for (const account of voteAccount.values()) expect(voteAccount.has(account)).toBe(false);
  });

  it('locks a pool of the traded pair and the signer\'s token accounts for every fill', () => {
    let fills = 0;
    const poolsUsed = new Map<string, Set<string>>();
    for (const { transactions, trades } of blocks) {
      for (const trade of trades) {
        const keys = locks(transactions[trade.tx_index]!);
        const pools = [0, 1, 2].map((k) => poolKey(trade.base, trade.quote, k)).filter((pool) => keys.includes(pool));
        expect(pools.length, `${trade.signature} ${trade.base}/${trade.quote}`).toBeGreaterThan(0);
        const pair = `${trade.base}/${trade.quote}`;
        if (!poolsUsed.has(pair)) poolsUsed.set(pair, new Set());
        for (const pool of pools) poolsUsed.get(pair)!.add(pool);
        expect(keys.length).toBeGreaterThanOrEqual(4); // the signer, a pool and two token accounts
        fills++;
      }
    }
    expect(fills).toBeGreaterThan(blocks.length);
    // The busiest pair spreads over its three pools; every pair keeps to its own few.
    expect(poolsUsed.get(`${SOL_MINT}/${USDC_MINT}`)!.size).toBe(3);
    for (const pools of poolsUsed.values()) expect(pools.size).toBeLessThanOrEqual(3);
  });

  it('locks pump.fun\'s fee account in every pump.fun transaction, and a pool and two token accounts in every swap', () => {
    const fee = programStateKey(PROGRAMS.pumpFun);
    const violations: string[] = [];
    for (const tx of nonVotes) {
      if (tx.program === PROGRAMS.pumpFun && !locks(tx).includes(fee)) violations.push(`no fee account ${tx.slot}/${tx.index}`);
      if (SWAP_PROGRAMS.has(tx.program) && locks(tx).length < 4) violations.push(`short swap ${tx.slot}/${tx.index}`);
    }
    expect(violations.slice(0, 10)).toEqual([]);
  });

  it('is heavy-tailed: in a typical block a few accounts are written by many transactions', () => {
    const topShares = blocks.map(({ transactions }) => {
      const counts = new Map<string, number>();
      let n = 0;
      for (const tx of transactions) {
        if (tx.is_vote) continue;
        n++;
        for (const key of locks(tx).slice(1)) counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      return Math.max(...counts.values()) / n;
    });
    expect(median(topShares)).toBeGreaterThan(0.05);
    // ... and a long tail written once or twice.
    const counts = [...written.values()].map((list) => list.length).sort((a, b) => b - a);
    expect(counts.length).toBeGreaterThan(10_000);
    expect(counts.filter((c) => c <= 2).length / counts.length).toBeGreaterThan(0.5);
    expect(counts[0]! / nonVotes.length).toBeGreaterThan(0.05);
    expect(counts[0]! / nonVotes.length).toBeLessThan(0.25);
  });

  it('prices the hottest pool and app-state accounts above the global market', () => {
    const globalMedian = median(nonVotes.map(price));
    const hotPool = written.get(poolKey(SOL_MINT, USDC_MINT, 0))!;
    expect(hotPool.length / nonVotes.length).toBeGreaterThan(0.02);
    expect(median(hotPool.map(price))).toBeGreaterThan(1.5 * globalMedian);
    // the hottest account that is neither a pool of SOL/USDC nor a program's fee account: the busiest app-state account
    const fixed = new Set([0, 1, 2].map((k) => poolKey(SOL_MINT, USDC_MINT, k)).concat(programStateKey(PROGRAMS.pumpFun), programStateKey(PROGRAMS.jupiter)));
    const [, hotApp] = [...written.entries()].filter(([key]) => !fixed.has(key)).sort((a, b) => b[1].length - a[1].length)[0]!;
    expect(median(hotApp.map(price))).toBeGreaterThan(2 * globalMedian);
    // the fee account every pump.fun transaction writes is hot without a premium: its market is the global one
    const pump = written.get(programStateKey(PROGRAMS.pumpFun))!;
    expect(median(pump.map(price))).toBeLessThan(2 * globalMedian);
  });
});

describe('write locks: determinism', () => {
  const options: MarketOptions = { profile: 'mainnet', seed: 'locks', blocks: 20 };
  const accounts = (blocks: GeneratedBlock[]) => blocks.map((b) => b.transactions.map((tx) => tx.writable_accounts));

  it('are the same for a seed, whatever else is asked', () => {
    const blocks = collect(options);
    expect(accounts(collect(options))).toEqual(accounts(blocks));
    expect(accounts(collect({ ...options, blocks: 10 }))).toEqual(accounts(blocks).slice(0, 10));
  });

  it('differ between seeds but for the pools, which are the pairs\' own', () => {
    const a = collect(options);
    const b = collect({ ...options, seed: 'other' });
    expect(a[0]!.transactions.find((tx) => tx.is_vote)!.writable_accounts![1]).not.toBe(b[0]!.transactions.find((tx) => tx.is_vote)!.writable_accounts![1]);
    const pool = poolKey(SOL_MINT, USDC_MINT, 0);
    expect(a.some((block) => block.transactions.some((tx) => tx.writable_accounts!.includes(pool)))).toBe(true);
    expect(b.some((block) => block.transactions.some((tx) => tx.writable_accounts!.includes(pool)))).toBe(true);
  });
});
