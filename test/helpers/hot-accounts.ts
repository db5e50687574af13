/** The accounts that the most non-vote transactions of generated blocks write-lock, busiest first. */
import type { GeneratedBlock } from '../../src/generate/market.js';

export function hotAccounts(blocks: Iterable<GeneratedBlock>, count: number): string[] {
  const locks = new Map<string, number>();
  for (const { transactions } of blocks) {
    for (const tx of transactions) {
      if (!tx.is_vote) for (const key of tx.writable_accounts ?? []) locks.set(key, (locks.get(key) ?? 0) + 1);
    }
  }
  return [...locks].sort((a, b) => b[1] - a[1]).slice(0, count).map(([key]) => key);
}
