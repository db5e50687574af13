// Jupiter fixtures: jup-ag/instruction-parser, src/tests/snapshot/ (ISC): 10 getTransaction responses
// (jsonParsed) and Jupiter's own decoding of each (swap-result-N.json, _results/*.json).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TradeRow } from '../../../src/schema/tables.js';
import { decodeGetBlockFile } from '../../../src/ingest/solana/get-block.js';
import type { TokenBalance, TransactionMeta } from '../../../src/ingest/solana/meta.js';
import { JITO_TIP_ACCOUNTS, USDC_MINT, WSOL_MINT } from '../../../src/ingest/solana/programs.js';
import { DEFAULT_QUOTE_ORDER, deriveTrade, type TradeRules } from '../../../src/ingest/solana/trades.js';
import type { TransactionView } from '../../../src/ingest/solana/transaction-view.js';
import { REAL_DATA } from '../../helpers/real-data.js';

const JUPITER = `${REAL_DATA}transactions/jupiter/`;

interface SwapEvent { inputMint: string; inputAmount: string; outputMint: string; outputAmount: string }
interface FeeEvent { mint: string; amount: string }

/** Jupiter's swap and fee events for one transaction, from its swap-result-N.json files. */
function jupiterEvents(signature: string) {
  const swaps: SwapEvent[] = [];
  const fees: FeeEvent[] = [];
  const files = readdirSync(JUPITER + signature).filter((f) => f.startsWith('swap-result-')).sort();
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) {
    const result = JSON.parse(readFileSync(`${JUPITER}${signature}/${file}`, 'utf8'));
    for (const e of result.parsedEvents) (e.name === 'ParsedSwapEvent' ? swaps : fees).push(e.data);
  }
  expect(swaps.length).toBeGreaterThan(0);
  return { swaps, fees };
}

function jupiterSummary(signature: string) {
  const { swaps, fees } = jupiterEvents(signature);
  const out = swaps.at(-1)!;
  const platformFee = fees.filter((f) => f.mint === out.outputMint).reduce((sum, f) => sum + BigInt(f.amount), 0n);
  return {
    inMint: swaps[0].inputMint,
    inAmount: BigInt(swaps[0].inputAmount),
    outMint: out.outputMint,
    outAmount: BigInt(out.outputAmount),
    platformFee,
  };
}

function decodeJupiterTransaction(signature: string) {
  const { result } = JSON.parse(readFileSync(`${JUPITER}${signature}/tx-${signature}.json`, 'utf8'));
  const block = { slot: result.slot, block: { blockTime: result.blockTime, parentSlot: result.slot - 1, transactions: [result] } };
  const decoded = decodeGetBlockFile(JSON.stringify(block), `tx-${signature}.json`);
  expect(decoded.rejections).toEqual([]);
  return { decoded, result };
}

function spentAndReceived(trade: TradeRow) {
  const base = { mint: trade.base, amount: trade.base_amount };
  const quote = { mint: trade.quote, amount: trade.quote_amount };
  return trade.is_buy ? { spent: quote, received: base } : { spent: base, received: quote };
}

const PLAIN_SWAPS = [
  '2kai9Wa4rc433U3Js87MqerFxqYpMkk1tvfEafzg2Z46W3TL1XfZQE2KJCGHMXqS5Jk5toTnXJaNH5d9yMPsbCZL', // SOL -> USDC, 3 hops, 400,000-lamport Jito tip
  '2m6e4MBQ2wKiFhtc8d479C6SUKkqEiBzemwxSQVaSdr4zGHdoefxWz28u2rnCtUu7SfcgwWpEBDr3L5NZnEqffnv', // pump token -> SOL, platform fee in SOL
  '3LF4ABXfbETvFbQ7nr7WU8pZvQ3H4gFBRZnLb1gJMSKzHZZNMXbJA4VUsrsAMa9cgBJgJDv7aeNnbRDC39C2oi1X', // token -> USDT
  '4riUkys7tZH6TSTgetiDoee6gG7HrzPqJniXoLm6CDnQ2cmkqdzVAtMjtbTYiVUz8vmhpE7tKkSJa2b2TrkPeuBr', // SOL -> USDC, platform fee in USDC
  '5SPdWfQrAf8xky2CU9nycbc7MYEcJvmuKYwG2vUJ5BEfzSFK38RTvkqMHA5TuZV5fpaw65LoKVfGfKWmVTi71DHr', // SOL -> USDC
  '5pcpYhqJyyHHxVaa9mvchML6Njro5Chxv7EFjHPSwxVpdyGAt6uVhd1xUBmXe7ztiuhS1iHFgXm67nwr7mem5itu', // SOL -> BONK -> USDC -> token, platform fee
];

// Jupiter reports swaps here; the signer's balance sheet shows no two-sided trade, by design:
const NOT_TRADES = {
  // round trips that start and end in the same mint: only the one-sided profit or loss shows
  '2BppD7ZqzcCpJ4WbvSbm6AAH7ZS1dZxAgjwNWWCPxuk7ahxSwdRHVBKRLjtb4uQYJR1BfNxcehW6qcYTGKki1TgP': 'SOL -> USDC -> mSOL -> SOL arbitrage',
  '5Rt3HkbvPRtQZ2FKxi8mAbsrTSLUQmb5SaphqD32pntbC3hgxZV9PayGL6pZGMSVXWBrrCAaw8uhDSR6R8J5bkgy': 'SOL -> BONK -> SOL in two Jupiter instructions',
  GCeRpjvfNXZB6BJFQChjpKycdKpRwQGS1BSwUvLjVpJj6NgdzzQACAWt89ZEfEXjeRSqzhDX8CHtzpMUnfJ7VMJ: 'USDC -> ... -> USDC arbitrage',
  // a limit order filled by a keeper: the keeper signs, the user whose tokens move does not
  '5SnGKXqNQ6zYGfNHQwHWwRtbxnYHUHLbANXgpvCLuXD1LA5paStRBcuXwu2T5eM9xsVWFQTzeUNwPWx6UAQhUb2t': 'Jupiter limit order filled by a keeper',
};

// Jupiter's trade summary (_results/<signature>.json) comes with four fixtures only: upstream has no
// summary for these (the plain swaps among them are still checked against our trades below)
const WITHOUT_SUMMARY = new Set([
  '2kai9Wa4rc433U3Js87MqerFxqYpMkk1tvfEafzg2Z46W3TL1XfZQE2KJCGHMXqS5Jk5toTnXJaNH5d9yMPsbCZL',
  '5Rt3HkbvPRtQZ2FKxi8mAbsrTSLUQmb5SaphqD32pntbC3hgxZV9PayGL6pZGMSVXWBrrCAaw8uhDSR6R8J5bkgy',
  '5SPdWfQrAf8xky2CU9nycbc7MYEcJvmuKYwG2vUJ5BEfzSFK38RTvkqMHA5TuZV5fpaw65LoKVfGfKWmVTi71DHr',
  '5SnGKXqNQ6zYGfNHQwHWwRtbxnYHUHLbANXgpvCLuXD1LA5paStRBcuXwu2T5eM9xsVWFQTzeUNwPWx6UAQhUb2t',
  '5pcpYhqJyyHHxVaa9mvchML6Njro5Chxv7EFjHPSwxVpdyGAt6uVhd1xUBmXe7ztiuhS1iHFgXm67nwr7mem5itu',
  'GCeRpjvfNXZB6BJFQChjpKycdKpRwQGS1BSwUvLjVpJj6NgdzzQACAWt89ZEfEXjeRSqzhDX8CHtzpMUnfJ7VMJ',
]);

describe('trades against Jupiter fixtures', () => {
  it('covers every fixture', () => {
    const all = readdirSync(JUPITER).filter((d) => d !== '_results').sort();
    expect([...PLAIN_SWAPS, ...Object.keys(NOT_TRADES)].sort()).toEqual(all);
  });

  it("Jupiter's trade summaries agree with its first and last swap events; every fixture without one is listed", () => {
    const all = readdirSync(JUPITER).filter((d) => d !== '_results').sort();
    let checked = 0;
    for (const signature of all) {
      const summaryFile = `${JUPITER}_results/${signature}.json`;
      if (!existsSync(summaryFile)) {
        expect(WITHOUT_SUMMARY.has(signature), signature).toBe(true);
        continue;
      }
      expect(WITHOUT_SUMMARY.has(signature), signature).toBe(false);
      const { swaps } = jupiterEvents(signature);
      const s = JSON.parse(readFileSync(summaryFile, 'utf8'));
      expect([s.inMint, String(s.inAmount), s.outMint, String(s.outAmount)]).toEqual([
        swaps[0].inputMint, swaps[0].inputAmount, swaps.at(-1)!.outputMint, swaps.at(-1)!.outputAmount,
      ]);
      checked++;
    }
    expect(checked).toBe(4);
    expect(checked + WITHOUT_SUMMARY.size).toBe(all.length);
  });

  it.each(PLAIN_SWAPS)('plain swap %s: signer net in/out match Jupiter (output net of its platform fee)', (signature) => {
    const { decoded } = decodeJupiterTransaction(signature);
    const jupiter = jupiterSummary(signature);
    expect(decoded.trades).toHaveLength(1);
    const { spent, received } = spentAndReceived(decoded.trades[0]);
    expect(spent).toEqual({ mint: jupiter.inMint, amount: jupiter.inAmount });
    // Jupiter's summary is the last hop's output before its platform fee; the signer gets the rest
    expect(received).toEqual({ mint: jupiter.outMint, amount: jupiter.outAmount - jupiter.platformFee });
    expect(decoded.trades[0]).toMatchObject({ fill_index: 0, tx_index: 0, signature });
  });

  it.each(Object.entries(NOT_TRADES))('%s makes no trade (%s)', (signature) => {
    expect(decodeJupiterTransaction(signature).decoded.trades).toEqual([]);
  });

  it('the fee identity holds on every fixture (all before SIMD-0170)', () => {
    for (const signature of [...PLAIN_SWAPS, ...Object.keys(NOT_TRADES)]) {
      const { decoded, result } = decodeJupiterTransaction(signature);
      const [row] = decoded.transactions;
      expect(row.priority_fee! + 5000n * BigInt(result.transaction.signatures.length)).toBe(BigInt(result.meta.fee));
    }
  });

  it('a Jupiter SOL -> USDC sell has SOL as base and USDC as quote', () => {
    const { decoded } = decodeJupiterTransaction(PLAIN_SWAPS[4]);
    expect(decoded.trades[0]).toMatchObject({ base: WSOL_MINT, quote: USDC_MINT, base_decimals: 9, quote_decimals: 6, is_buy: false });
    expect(decoded.tokens.map((t) => t.mint)).toContain(WSOL_MINT);
  });
});

// Synthetic balance sheets for the rules the fixtures do not isolate.
const SIGNER = 'Signer1111111111111111111111111111111111111';
const TOKEN_A = 'TokenA1111111111111111111111111111111111111';
const TOKEN_B = 'TokenB1111111111111111111111111111111111111';
const RULES: TradeRules = { quoteOrder: DEFAULT_QUOTE_ORDER, tipAccounts: JITO_TIP_ACCOUNTS };
const PLACE = { slot: 1n, txIndex: 3, timestamp: 5n, signature: 'sig' };
const RENT = 2_039_280n;

function sheet(
  keys: string[],
  lamports: [bigint, bigint][],
  tokens: { index: number; mint: string; pre?: bigint; post?: bigint; decimals?: number; owner?: string }[],
  extra: Partial<TransactionMeta> = {},
): [TransactionView, TransactionMeta] {
  const balance = (t: (typeof tokens)[number], amount: bigint): TokenBalance => ({
    accountIndex: t.index, mint: t.mint, owner: t.owner ?? SIGNER, amount, decimals: t.decimals ?? 6,
  });
  const view: TransactionView = { signatures: ['sig'], accountKeys: keys, writable: keys.map(() => true), instructions: [] };
  const meta: TransactionMeta = {
    failed: false,
    fee: 5000n,
    preBalances: lamports.map((l) => l[0]),
    postBalances: lamports.map((l) => l[1]),
    preTokenBalances: tokens.filter((t) => t.pre !== undefined).map((t) => balance(t, t.pre!)),
    postTokenBalances: tokens.filter((t) => t.post !== undefined).map((t) => balance(t, t.post!)),
    computeUnitsConsumed: 0n,
    loadedAddresses: undefined,
    ...extra,
  };
  return [view, meta];
}

describe('trade rules', () => {
  it('rent for a token account the signer opens is not part of the price', () => {
    // pays 1 SOL + rent + fee, receives 500 A into a new account holding the rent
    const [view, meta] = sheet(
      [SIGNER, 'NewAta', 'Pool'],
      [[10_000_000_000n, 10_000_000_000n - 1_000_000_000n - RENT - 5000n], [0n, RENT], [0n, 1_000_000_000n]],
      [{ index: 1, mint: TOKEN_A, post: 500n }],
    );
    expect(deriveTrade(view, meta, PLACE, RULES)).toMatchObject({
      base: TOKEN_A, quote: WSOL_MINT, base_amount: 500n, quote_amount: 1_000_000_000n, is_buy: true, base_decimals: 6, quote_decimals: 9,
    });
  });

  it('wrapped SOL and native SOL are one leg; closing the wSOL account returns its rent', () => {
    // sells 100 A; 300,000,000 lamports arrive as wSOL in the signer's wSOL account, which is then
    // closed into account 0 (wrapped amount + rent)
    const wrapped = 300_000_000n;
    const [view, meta] = sheet(
      [SIGNER, 'TmpWsol', 'AccountA'],
      [[1_000_000_000n, 1_000_000_000n - 5000n + RENT + wrapped], [RENT, 0n], [RENT, RENT]],
      [
        { index: 1, mint: WSOL_MINT, pre: 0n, decimals: 9 },
        { index: 2, mint: TOKEN_A, pre: 100n, post: 0n },
      ],
    );
    expect(deriveTrade(view, meta, PLACE, RULES)).toMatchObject({
      base: TOKEN_A, quote: WSOL_MINT, base_amount: 100n, quote_amount: wrapped, is_buy: false,
    });
  });

  it('wSOL kept wrapped counts like native SOL', () => {
    // buys 100 A with 50,000,000 from a wSOL account that stays open
    const [view, meta] = sheet(
      [SIGNER, 'Wsol', 'AccountA'],
      [[1_000_000_000n, 1_000_000_000n - 5000n], [RENT + 80_000_000n, RENT + 30_000_000n], [RENT, RENT]],
      [
        { index: 1, mint: WSOL_MINT, pre: 80_000_000n, post: 30_000_000n, decimals: 9 },
        { index: 2, mint: TOKEN_A, pre: 0n, post: 100n },
      ],
    );
    expect(deriveTrade(view, meta, PLACE, RULES)).toMatchObject({
      base: TOKEN_A, quote: WSOL_MINT, base_amount: 100n, quote_amount: 50_000_000n, is_buy: true,
    });
  });

  it('a Jito tip is not part of the price', () => {
    const tip = [...JITO_TIP_ACCOUNTS][0];
    const [view, meta] = sheet(
      [SIGNER, 'AccountA', tip],
      [[5_000_000n, 5_000_000n - 5000n - 1_000_000n - 10_000n], [RENT, RENT], [1n, 10_001n]],
      [{ index: 1, mint: TOKEN_A, pre: 0n, post: 42n }],
    );
    expect(deriveTrade(view, meta, PLACE, RULES)).toMatchObject({ quote_amount: 1_000_000n, base_amount: 42n });
  });

  it('token for token ignores what is left of SOL (rent, tips, fees)', () => {
    const [view, meta] = sheet(
      [SIGNER, 'AccountA', 'AccountUsdc'],
      [[5_000_000n, 5_000_000n - 5000n - 7_777n], [RENT, RENT], [RENT, RENT]],
      [
        { index: 1, mint: TOKEN_A, pre: 1000n, post: 0n, decimals: 2 },
        { index: 2, mint: USDC_MINT, pre: 0n, post: 25n },
      ],
    );
    expect(deriveTrade(view, meta, PLACE, RULES)).toMatchObject({
      base: TOKEN_A, quote: USDC_MINT, base_amount: 1000n, quote_amount: 25n, base_decimals: 2, is_buy: false, tx_index: 3, fill_index: 0,
    });
  });

  it('sums several accounts of one mint, ignores accounts the signer does not own', () => {
    const [view, meta] = sheet(
      [SIGNER, 'A1', 'A2', 'Other'],
      [[5_000_000n, 5_000_000n - 5000n + 900n], [RENT, RENT], [RENT, RENT], [RENT, RENT]],
      [
        { index: 1, mint: TOKEN_A, pre: 10n, post: 0n },
        { index: 2, mint: TOKEN_A, pre: 5n, post: 3n },
        { index: 3, mint: TOKEN_B, pre: 0n, post: 99n, owner: 'SomeoneElse' },
      ],
    );
    expect(deriveTrade(view, meta, PLACE, RULES)).toMatchObject({ base: TOKEN_A, base_amount: 12n, quote_amount: 900n, is_buy: false });
  });

  it('makes no trade for one-sided changes, three mints, or failed transactions', () => {
    const keys = [SIGNER, 'A', 'B'];
    const lamports: [bigint, bigint][] = [[5_000_000n, 4_000_000n], [RENT, RENT], [RENT, RENT]];
    const receiveOnly = sheet(keys, [[5_000_000n, 5_000_000n - 5000n], [RENT, RENT], [RENT, RENT]], [{ index: 1, mint: TOKEN_A, pre: 0n, post: 5n }]);
    const sameSide = sheet(keys, [[5_000_000n, 6_000_000n], [RENT, RENT], [RENT, RENT]], [{ index: 1, mint: TOKEN_A, pre: 0n, post: 5n }]);
    const threeMints = sheet(keys, lamports, [
      { index: 1, mint: TOKEN_A, pre: 0n, post: 5n },
      { index: 2, mint: TOKEN_B, pre: 0n, post: 5n },
    ]);
    const failed = sheet(keys, lamports, [{ index: 1, mint: TOKEN_A, pre: 0n, post: 5n }], { failed: true });
    for (const [view, meta] of [receiveOnly, sameSide, threeMints, failed]) expect(deriveTrade(view, meta, PLACE, RULES)).toBeNull();
  });

  it('two mints outside the quote list get the same quote whichever way they trade', () => {
    const keys = [SIGNER, 'A', 'B'];
    const lamports: [bigint, bigint][] = [[5_000_000n, 4_995_000n], [RENT, RENT], [RENT, RENT]];
    const aForB = sheet(keys, lamports, [{ index: 1, mint: TOKEN_A, pre: 7n, post: 0n }, { index: 2, mint: TOKEN_B, pre: 0n, post: 3n }]);
    const bForA = sheet(keys, lamports, [{ index: 1, mint: TOKEN_A, pre: 0n, post: 7n }, { index: 2, mint: TOKEN_B, pre: 3n, post: 0n }]);
    const sell = deriveTrade(...aForB, PLACE, RULES)!;
    const buy = deriveTrade(...bForA, PLACE, RULES)!;
    expect([sell.base, sell.quote, sell.is_buy]).toEqual([TOKEN_B, TOKEN_A, true]);
    expect([buy.base, buy.quote, buy.is_buy]).toEqual([TOKEN_B, TOKEN_A, false]);
  });

  it('follows a configured quote order', () => {
    const [view, meta] = sheet(
      [SIGNER, 'A', 'U'],
      [[5_000_000n, 4_995_000n], [RENT, RENT], [RENT, RENT]],
      [{ index: 1, mint: TOKEN_A, pre: 7n, post: 0n }, { index: 2, mint: USDC_MINT, pre: 0n, post: 3n }],
    );
    const trade = deriveTrade(view, meta, PLACE, { ...RULES, quoteOrder: [TOKEN_A, USDC_MINT] })!;
    expect([trade.base, trade.quote, trade.is_buy]).toEqual([USDC_MINT, TOKEN_A, true]);
  });
});
