/**
 * Data-point ids as docs/semantics.md (Encoding) defines them: cyrb53 (two 32-bit multiply-xorshift
 * hashes over the UTF-16 code units, seeds 0xdeadbeef and 0x41c6ce57, folded to 53 bits) of the
 * record key, its parts written as decimal or plain strings and joined with '|'. Written from that
 * definition; the engine's ids.ts is not imported.
 */

/** The id of a data point from its key parts. */
export function pointId(...key: (string | number | bigint)[]): number {
  const text = key.map((part) => (typeof part === 'string' ? part : part.toString())).join('|');
  let a = 0xdeadbeef;
  let b = 0x41c6ce57;
  for (const unit of Array.from({ length: text.length }, (_, i) => text.charCodeAt(i))) {
    a = Math.imul(a ^ unit, 0x9e3779b1);
    b = Math.imul(b ^ unit, 0x5f356495);
  }
  a = Math.imul(a ^ (a >>> 16), 0x85ebca6b) ^ Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
  b = Math.imul(b ^ (b >>> 16), 0x85ebca6b) ^ Math.imul(a ^ (a >>> 13), 0xc2b2ae35);
  return (b & 0x1fffff) * 2 ** 32 + (a >>> 0);
}

/** The key of each family's points (docs/semantics.md): method name first. */
export const ids = {
  token: (mint: string) => pointId('chain::market::token', mint),
  blockFees: (slot: bigint) => pointId('chain::priorityfee::block', slot),
  fee: (window: string, start: bigint) => pointId('chain::priorityfee::fee', window, start),
  recommendation: (window: string, slot: bigint) => pointId('chain::priorityfee::recommendation', window, slot),
  topTx: (window: string, signature: string) => pointId('chain::priorityfee::top_txs', window, signature),
  blockTrades: (base: string, quote: string, slot: bigint) => pointId('chain::market::block', base, quote, slot),
  candle: (base: string, quote: string, window: string, start: bigint) => pointId('chain::market::ohlcv', base, quote, window, start),
  trailing: (method: 'volume' | 'vwap' | 'twap', base: string, quote: string, window: string, slot: bigint) =>
    pointId(`chain::market::${method}`, base, quote, window, slot),
  trade: (signature: string, fillIndex: number) => pointId('chain::market::trades', signature, fillIndex),
  ingestion: (slot: bigint) => pointId('chain::market::ingestion', slot),
};
