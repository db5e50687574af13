/**
 * Trades seen from the signer's balance sheet (DESIGN.md 3).
 *
 * A transaction's trade is the fee payer's net change per mint between `meta.pre/postTokenBalances`
 * (entries whose owner is the signer, summed per mint) and, for SOL, its lamports:
 *
 *   SOL = (post - pre) of account 0 + fee
 *       + (post - pre) lamports of every token account the signer owns
 *       + (post - pre) of Jito tip accounts (configurable) in the transaction.
 *
 * Counting the lamports of the signer's own token accounts does two things at once: wSOL held in
 * a token account merges with native SOL (its lamports are the wrapped amount plus rent), and the
 * rent the signer moves into a token account it opens (or gets back from one it closes) cancels out
 * instead of looking like SOL spent. Tips are added back (assumed paid by the signer, as bundles do)
 * because they pay the block producer, not the counterparty.
 *
 * Exactly one mint spent and one received make one fill (fill_index 0). SOL only becomes a leg when
 * exactly one other mint moved, in the opposite direction; when two other mints moved (one in, one
 * out), the SOL change is what is left of rent, tips and protocol fees paid in SOL, and is ignored.
 * Anything else (one-sided changes, round trips that return the mint they started with, three or
 * more mints) makes no trade. Failed transactions make no trade.
 *
 * What this sees: the net effect of any swap the signer makes, whatever the route (a multi-hop
 * route collapses to its first input and last output) and whatever the program, including programs
 * nobody has written a decoder for. Amounts are what the signer actually paid and got, so a DEX or
 * aggregator fee taken in the traded tokens is inside the price (Jupiter's own summaries report the
 * output before its platform fee).
 *
 * What it cannot see: trades a program makes on a user's behalf when the user does not sign (limit
 * orders, DCA and keepers: the keeper signs and its balances do not move, the user's do, and the
 * user is not the signer); the legs of arbitrage that starts and ends in the same mint (only the
 * profit shows, one-sided, so no trade); transactions whose signer gets or pays a third mint (an
 * airdrop, a fee in a third token) in the same transaction; SOL paid to programs besides the
 * counterparty (protocol fees in SOL, non-Jito tips) which stays inside a SOL leg; old blocks
 * whose token balances have no `owner`; and a token transfer paid for with a SOL transfer in one
 * transaction is indistinguishable from a swap.
 */
import type { TradeRow } from '../../schema/tables.js';
import type { TransactionMeta } from './meta.js';
import { USDC_MINT, USDT_MINT, WSOL_MINT } from './programs.js';
import type { TransactionView } from './transaction-view.js';

/** Mints most quote-like first: USDC, USDT, SOL. Mints not listed rank after them. */
export const DEFAULT_QUOTE_ORDER: readonly string[] = [USDC_MINT, USDT_MINT, WSOL_MINT];

/** Settings of trade derivation. */
export interface TradeRules {
  readonly quoteOrder: readonly string[];
  readonly tipAccounts: ReadonlySet<string>;
}

/** Where a transaction sits, for the trade row. */
export interface TradePlace {
  readonly slot: bigint;
  readonly txIndex: number;
  readonly timestamp: bigint;
  readonly signature: string;
}

/** The signer's net change of one mint (raw units) and its decimals. */
export interface MintChange {
  readonly mint: string;
  readonly delta: bigint;
  readonly decimals: number;
}

/** The signer's net change of SOL (lamports, as described above) and of every other mint that moved. */
export function signerChanges(view: TransactionView, meta: TransactionMeta, tipAccounts: ReadonlySet<string>): {
  sol: bigint;
  tokens: MintChange[];
} {
  const signer = view.accountKeys[0];
  const lamports = (i: number) => (meta.postBalances[i] ?? 0n) - (meta.preBalances[i] ?? 0n);
  let sol = lamports(0) + meta.fee;
  for (let i = 1; i < view.accountKeys.length; i++) if (tipAccounts.has(view.accountKeys[i])) sol += lamports(i);

  const owned = new Set<number>();
  const deltas = new Map<string, { delta: bigint; decimals: number }>();
  const add = (balances: TransactionMeta['postTokenBalances'], sign: bigint) => {
    for (const b of balances) {
      if (b.owner !== signer) continue;
      owned.add(b.accountIndex);
      if (b.mint === WSOL_MINT) continue;
      const entry = deltas.get(b.mint) ?? { delta: 0n, decimals: b.decimals };
      entry.delta += sign * b.amount;
      deltas.set(b.mint, entry);
    }
  };
  add(meta.preTokenBalances, -1n);
  add(meta.postTokenBalances, 1n);
  for (const i of owned) if (i !== 0) sol += lamports(i);

  const tokens: MintChange[] = [];
  for (const [mint, { delta, decimals }] of deltas) if (delta !== 0n) tokens.push({ mint, delta, decimals });
  return { sol, tokens };
}

/** The transaction's single fill, or null when it is not a plain two-mint trade (see the module comment). */
export function deriveTrade(
  view: TransactionView,
  meta: TransactionMeta,
  place: TradePlace,
  rules: TradeRules,
): TradeRow | null {
  if (meta.failed || view.accountKeys.length === 0) return null;
  const { sol, tokens } = signerChanges(view, meta, rules.tipAccounts);
  let legs: MintChange[];
  if (tokens.length === 2) legs = tokens;
  else if (tokens.length === 1 && sol !== 0n) legs = [tokens[0], { mint: WSOL_MINT, delta: sol, decimals: 9 }];
  else return null;
  const [a, b] = legs;
  if (a.delta > 0n === b.delta > 0n) return null;

  const [quote, base] = moreQuoteLike(a.mint, b.mint, rules.quoteOrder) ? [a, b] : [b, a];
  return {
    signature: place.signature,
    signer: view.accountKeys[0],
    slot: place.slot,
    tx_index: place.txIndex,
    fill_index: 0,
    timestamp: place.timestamp,
    base: base.mint,
    quote: quote.mint,
    base_amount: abs(base.delta),
    quote_amount: abs(quote.delta),
    base_decimals: base.decimals,
    quote_decimals: quote.decimals,
    is_buy: base.delta > 0n,
  };
}

/** Whether `x` ranks before `y` as a quote. Two unlisted mints compare by text, so a pair always gets the same quote. */
function moreQuoteLike(x: string, y: string, order: readonly string[]): boolean {
  const i = order.indexOf(x);
  const j = order.indexOf(y);
  if (i >= 0 || j >= 0) return i >= 0 && (j < 0 || i < j);
  return x < y;
}

function abs(v: bigint): bigint {
  return v < 0n ? -v : v;
}
