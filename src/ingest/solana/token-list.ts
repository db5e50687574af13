/** Token names and symbols from a token list in the solana-labs `tokenlist.json` format. */
import type { TokenRow } from '../../schema/tables.js';
import { parseJsonExact } from '../exact-json.js';
import { isObject } from './field-error.js';

/** The chain id of mainnet-beta in solana-labs token lists (102 testnet, 103 devnet). */
export const MAINNET_CHAIN_ID = 101;

/** A mint's display name and symbol. */
export interface TokenName {
  readonly name: string;
  readonly symbol: string;
}

/**
 * Reads `{tokens: [{chainId, address, symbol, name, decimals}]}` text into TokenRows of one chain
 * (mainnet by default), sorted by mint. Entries without an address or valid decimals are skipped;
 * the first entry of a mint wins. supply is null: lists do not carry it.
 */
export function readTokenList(text: string, chainId: number = MAINNET_CHAIN_ID): TokenRow[] {
  const doc = parseJsonExact(text);
  const tokens = isObject(doc) ? doc.tokens : undefined;
  if (!Array.isArray(tokens)) throw new Error('token list: expected {tokens: [...]}');
  const rows = new Map<string, TokenRow>();
  for (const t of tokens) {
    if (!isObject(t) || t.chainId !== chainId || typeof t.address !== 'string' || rows.has(t.address)) continue;
    const decimals = t.decimals;
    if (typeof decimals !== 'number' || !Number.isInteger(decimals) || decimals < 0 || decimals > 255) continue;
    rows.set(t.address, {
      mint: t.address,
      name: typeof t.name === 'string' ? t.name : '',
      symbol: typeof t.symbol === 'string' ? t.symbol : '',
      decimals,
      supply: null,
    });
  }
  return [...rows.values()].sort((a, b) => (a.mint < b.mint ? -1 : a.mint > b.mint ? 1 : 0));
}

/** The mint -> {name, symbol} map that `decodeGetBlockFile` takes as `tokenNames`. */
export function tokenNames(rows: readonly TokenRow[]): Map<string, TokenName> {
  return new Map(rows.map((r) => [r.mint, { name: r.name, symbol: r.symbol }]));
}
