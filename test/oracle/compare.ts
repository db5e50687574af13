/**
 * Field-for-field comparison of the engine's wire answer with the oracle's. Two Float8 fields are
 * compared to 1e-12 relative: std_dev and fee_volatility are square roots of exact variances, a
 * formula the contract does not pin to the last bit; everything else must be equal as JSON.
 */
import type { Wire } from './fees.js';

const NEAR_FIELDS = new Set(['std_dev', 'fee_volatility']);

const near = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' && Math.abs(Number(a) - Number(b)) <= 1e-12 * Math.abs(Number(b));

/** Differences between two answers, as readable lines (empty when they agree). */
export function differences(got: readonly Wire[], want: readonly Wire[], max = 8): string[] {
  const out: string[] = [];
  if (got.length !== want.length) out.push(`length ${got.length}, oracle ${want.length}`);
  for (let i = 0; i < Math.min(got.length, want.length) && out.length < max; i++) {
    const g = got[i]!;
    const w = want[i]!;
    const keys = Object.keys(w);
    if (Object.keys(g).join() !== keys.join()) out.push(`#${i} fields ${Object.keys(g).join()} != ${keys.join()}`);
    for (const k of keys) {
      if (g[k] === w[k] || (NEAR_FIELDS.has(k) && near(g[k], w[k]))) continue;
      out.push(`#${i} ${k}: engine ${JSON.stringify(g[k])}, oracle ${JSON.stringify(w[k])}`);
      if (out.length >= max) break;
    }
  }
  return out;
}
