/**
 * A seeded data set for the oracle tests, built with the tests' own PRNG (test/helpers/prng.ts),
 * not the engine's generator: three stretches of blocks (around midnight, half an hour later, and
 * across 02:00) so that every window length from 1s to 24h closes mid-stream and the long windows
 * differ from the short ones. It exercises USDC, USDT and SOL quotes, a custom stablecoin (XUSD),
 * a quote with no USD route, a pair that stops trading, per-block CU limits (some blocks without),
 * votes, zero-price and failed transactions, explicit priority fees, blocks of one transaction,
 * huge prices and amounts (above 2^53), trade-only slots (trades with their own time and no block
 * row) and trades whose time differs from their block's (which ingest rejects).
 */
import { mulberry32 } from '../helpers/prng.js';
import { base58 } from './base58.js';

export const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
export const USDT = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB';
export const SOL = 'So11111111111111111111111111111111111111112';
const VOTE_PROGRAM = 'Vote111111111111111111111111111111111111111';

export interface OracleBlockRow {
  slot: bigint;
  timestamp: bigint;
  block_cu_limit: bigint | null;
}
export interface OracleTx {
  slot: bigint;
  index: number;
  signature: string;
  signer: string;
  program: string;
  is_vote: boolean;
  failed: boolean;
  compute_unit_price: bigint;
  compute_unit_limit: number;
  compute_units_consumed: bigint;
  /** Given in the row when not null; else derived by the engine. */
  priority_fee: bigint | null;
}
export interface OracleTrade {
  signature: string;
  signer: string;
  slot: bigint;
  tx_index: number;
  fill_index: number;
  timestamp: bigint;
  base: string;
  quote: string;
  base_amount: bigint;
  quote_amount: bigint;
  base_decimals: number;
  quote_decimals: number;
  is_buy: boolean;
}
export interface OracleToken {
  mint: string;
  name: string;
  symbol: string;
  decimals: number;
  supply: bigint | null;
}

/** One ingest call's rows (whole blocks), as `engine.ingest` takes them. */
export interface OracleChunk {
  blocks: Record<string, unknown>[];
  transactions: Record<string, unknown>[];
  trades: Record<string, unknown>[];
}

export interface OracleData {
  tokens: OracleToken[];
  /** Block rows, slot ascending. */
  blocks: OracleBlockRow[];
  /** Every transaction, by (slot, index). */
  transactions: OracleTx[];
  /** The trades ingest keeps, in row order (not sorted). */
  trades: OracleTrade[];
  /** Trade rows ingest must reject (time differs from the block's). */
  rejectedTrades: OracleTrade[];
  /** Slots that have only trades (no block row, no transaction). */
  tradeOnlySlots: bigint[];
  /** The rows in ingest calls of 1 to 19 blocks each, slot order. */
  chunks: OracleChunk[];
  /** Mints of the custom stablecoin and the tokens. */
  mints: Record<'XUSD' | 'LENS' | 'PUPS' | 'GONE' | 'ORPH', string>;
  /** The pairs that trade, [base, quote]. */
  pairs: [string, string][];
}

const NS = 1_000_000_000n;
const utc = (iso: string) => BigInt(Date.parse(iso)) * 1_000_000n;

/** Builds the data set of a seed. */
export function buildOracleData(seed = 19): OracleData {
  const random = mulberry32(seed);
  const int = (below: number) => Math.floor(random() * below);
  const chance = (p: number) => random() < p;
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => int(256));
  const key = () => base58(bytes(32));
  const u64 = () => (BigInt(Math.floor(random() * 2 ** 32)) << 32n) | BigInt(Math.floor(random() * 2 ** 32));
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

  const mints = { XUSD: key(), LENS: key(), PUPS: key(), GONE: key(), ORPH: key() };
  const decimals: Record<string, number> = {
    [USDC]: 6, [USDT]: 6, [SOL]: 9, [mints.XUSD]: 6, [mints.LENS]: 5, [mints.PUPS]: 9, [mints.GONE]: 0, [mints.ORPH]: 8,
  };
  const tokens: OracleToken[] = [
    { mint: USDC, name: 'USD Coin', symbol: 'USDC', decimals: 6, supply: 9_000_000_000_000_000n },
    { mint: USDT, name: 'Tether USD', symbol: 'USDT', decimals: 6, supply: null },
    { mint: SOL, name: 'Wrapped SOL', symbol: 'SOL', decimals: 9, supply: null },
    { mint: mints.XUSD, name: 'Custom Dollar', symbol: 'XUSD', decimals: 6, supply: 5_000_000_000_000n },
    { mint: mints.LENS, name: 'Lens', symbol: 'LENS', decimals: 5, supply: 18_446_744_073_709_551_615n },
    { mint: mints.PUPS, name: 'Pups', symbol: 'PUPS', decimals: 9, supply: 1n },
    { mint: mints.GONE, name: 'Gone', symbol: 'GONE', decimals: 0, supply: 1000n },
    // ORPH has no token row: a traded mint need not be known
  ];
  // [base, quote, chance per block, mid price, stretches it trades in]
  const pairSpecs: [string, string, number, number, number[]][] = [
    [SOL, USDC, 0.45, 140, [0, 1, 2]],
    [SOL, USDT, 0.4, 141, [0, 1, 2]],
    [mints.LENS, SOL, 0.35, 0.0123, [0, 1, 2]],
    [mints.PUPS, USDT, 0.3, 0.00042, [0, 1, 2]],
    [mints.GONE, mints.XUSD, 0.3, 2.5, [0]],
    [mints.XUSD, USDC, 0.15, 0.999, [0, 2]],
    [mints.ORPH, mints.LENS, 0.2, 310, [0, 1, 2]],
  ];
  const mid = pairSpecs.map((p) => p[3]);
  const wallets = Array.from({ length: 24 }, key);
  const programs = Array.from({ length: 5 }, key);
  const stretches: [bigint, bigint, number][] = [
    [utc('2024-03-13T23:56:00Z'), utc('2024-03-14T00:04:30Z'), 1.6],
    [utc('2024-03-14T00:31:00Z'), utc('2024-03-14T00:33:00Z'), 2.0],
    [utc('2024-03-14T01:59:00Z'), utc('2024-03-14T02:03:00Z'), 1.5],
  ];
  const cuLimits = [null, null, 48_000_000n, 12_000_000n, 8_000_000n];

  const blocks: OracleBlockRow[] = [];
  const transactions: OracleTx[] = [];
  const trades: OracleTrade[] = [];
  const rejectedTrades: OracleTrade[] = [];
  const tradeOnlySlots: bigint[] = [];
  const chunks: OracleChunk[] = [];
  // mostly chunks of 4-19 blocks, some of one block
  const chunkLength = () => (chance(0.2) ? 1 : 4 + int(16));
  let chunk: OracleChunk = { blocks: [], transactions: [], trades: [] };
  let chunkBlocks = 0;
  let chunkSize = chunkLength();
  const flush = () => {
    if (chunk.blocks.length + chunk.trades.length === 0) return;
    chunks.push(chunk);
    chunk = { blocks: [], transactions: [], trades: [] };
    chunkBlocks = 0;
    chunkSize = chunkLength();
  };
  let slot = 250_000_000n;

  const drawPrice = (): bigint => {
    if (chance(0.01)) return (1n << 55n) + (u64() >> 12n);
    if (chance(0.15)) return pick([1_000n, 5_000n, 100_000n]);
    return BigInt(Math.max(1, Math.floor(Math.exp(Math.log(20_000) + 2 * normal()))));
  };
  const drawTrade = (p: number, time: bigint, tx: OracleTx, fill: number): OracleTrade => {
    const [base, quote] = pairSpecs[p]!;
    const bd = decimals[base]!;
    const qd = decimals[quote]!;
    mid[p] = mid[p]! * Math.exp(0.002 * normal());
    const outlier = chance(0.06) ? pick([3, 1 / 3]) : 1;
    const price = mid[p]! * (1 + 0.003 * normal()) * outlier;
    const baseUnits = chance(0.02) ? Number(u64() >> 2n) : Math.exp(Math.log(10 ** bd) + 2 * normal());
    const base_amount = BigInt(Math.max(1, Math.floor(baseUnits)));
    const quoteUnits = (Number(base_amount) / 10 ** bd) * price * 10 ** qd;
    const quote_amount = BigInt(Math.max(1, Math.round(Math.min(quoteUnits, 1.8e19))));
    return {
      signature: tx.signature, signer: tx.signer, slot: tx.slot, tx_index: tx.index, fill_index: fill, timestamp: time,
      base, quote, base_amount, quote_amount, base_decimals: bd, quote_decimals: qd, is_buy: chance(0.5),
    };
  };
  const tradeRow = (t: OracleTrade) => ({ ...t });

  stretches.forEach(([from, to, meanSeconds], stretch) => {
    let time = from + BigInt(int(1_000_000_000));
    while (time < to) {
      slot += BigInt(1 + (chance(0.2) ? int(3) : 0));
      // a few slots of trades only, in the middle stretch: the trades keep their own time
      if (stretch === 1 && chance(0.05)) {
        const fake: OracleTx = {
          slot, index: int(4), signature: base58(bytes(64)), signer: pick(wallets), program: pick(programs),
          is_vote: false, failed: false, compute_unit_price: 0n, compute_unit_limit: 0, compute_units_consumed: 0n, priority_fee: null,
        };
        const t = drawTrade(0, time + 123n, fake, 0);
        trades.push(t);
        chunk.trades.push(tradeRow(t));
        tradeOnlySlots.push(slot);
        flush();
        slot += 1n;
        time += 300_000_000n;
      }
      const block: OracleBlockRow = { slot, timestamp: time, block_cu_limit: pick(cuLimits) };
      blocks.push(block);
      chunk.blocks.push({ slot, timestamp: time, ...(block.block_cu_limit === null ? {} : { block_cu_limit: block.block_cu_limit }) });
      const n = chance(0.04) ? 1 : 5 + int(30);
      const txs: OracleTx[] = [];
      for (let index = 0; index < n; index++) {
        const vote = chance(0.3);
        const limit = vote ? 200_000 : chance(0.4) ? 200_000 * (1 + int(3)) : 1 + int(1_400_000);
        const price = vote || chance(0.2) ? 0n : drawPrice();
        const derived = (price * BigInt(limit) + 999_999n) / 1_000_000n;
        const tx: OracleTx = {
          slot, index, signature: base58(bytes(64)), signer: pick(wallets), program: vote ? VOTE_PROGRAM : pick(programs),
          is_vote: vote, failed: !vote && chance(0.05), compute_unit_price: price, compute_unit_limit: limit,
          compute_units_consumed: vote ? 2_100n : BigInt(Math.floor(limit * (0.05 + 0.95 * random()))),
          priority_fee: !vote && chance(0.2) ? derived + BigInt(int(3)) : null,
        };
        txs.push(tx);
        const { priority_fee, ...row } = tx;
        chunk.transactions.push(priority_fee === null ? row : { ...row, priority_fee });
      }
      transactions.push(...txs);
      const traders = txs.filter((t) => !t.is_vote && !t.failed);
      const fills = new Map<number, number>();
      const blockTrades: OracleTrade[] = [];
      pairSpecs.forEach(([, , p, , active], pair) => {
        if (!active.includes(stretch) || traders.length === 0 || !chance(p)) return;
        for (let k = 1 + (chance(0.3) ? int(4) : 0); k > 0; k--) {
          const tx = pick(traders);
          const fill = fills.get(tx.index) ?? 0;
          fills.set(tx.index, fill + 1);
          blockTrades.push(drawTrade(pair, time, tx, fill));
        }
      });
      // rows in a shuffled order: the engine orders a block's trades by (tx_index, fill_index)
      for (let i = blockTrades.length - 1; i > 0; i--) {
        const j = int(i + 1);
        [blockTrades[i], blockTrades[j]] = [blockTrades[j]!, blockTrades[i]!];
      }
      for (const t of blockTrades) {
        trades.push(t);
        chunk.trades.push(tradeRow(t));
      }
      if (blockTrades.length > 0 && chance(0.03)) {
        const wrong = { ...blockTrades[0]!, fill_index: 99, timestamp: time + 1_000_000n };
        rejectedTrades.push(wrong);
        chunk.trades.push(tradeRow(wrong));
      }
      if (++chunkBlocks >= chunkSize) flush();
      time += BigInt(Math.floor((0.25 + 1.5 * random()) * meanSeconds * 1e9)) + BigInt(int(1000));
    }
    flush();
  });
  const pairs = pairSpecs.map(([b, q]) => [b, q] as [string, string]);
  return { tokens, blocks, transactions, trades, rejectedTrades, tradeOnlySlots, chunks, mints, pairs };
}

/** The data as NDJSON files in memory, for `engine.load` (u64 and times as exact JSON integers). */
export function ndjsonFiles(data: OracleData): { name: string; bytes: Uint8Array }[] {
  const json = (row: object) =>
    JSON.stringify(row, (_, v) => (typeof v === 'bigint' ? `__big${v}` : v)).replace(/"__big(\d+)"/g, '$1');
  const file = (name: string, rows: object[]) => ({ name, bytes: new TextEncoder().encode(rows.map(json).join('\n') + '\n') });
  return [
    file('tokens.ndjson', data.tokens.map(({ supply, ...t }) => (supply === null ? t : { ...t, supply }))),
    file('blocks.ndjson', data.chunks.flatMap((c) => c.blocks)),
    file('transactions.ndjson', data.chunks.flatMap((c) => c.transactions)),
    file('trades.ndjson', data.chunks.flatMap((c) => c.trades)),
  ];
}

export const SECOND = NS;
