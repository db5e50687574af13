/** The demo's tour: one call of every method, with its first data points. */
import type { Engine } from '../engine.js';
import { METHODS } from '../methods/index.js';

const SHOWN_FIELDS = 14;

/** A data point on one line, long records cut after their first fields. */
function brief(point: Record<string, unknown>): string {
  const entries = Object.entries(point);
  const shown = Object.fromEntries(entries.slice(0, SHOWN_FIELDS));
  const more = entries.length - SHOWN_FIELDS;
  return JSON.stringify(shown) + (more > 0 ? ` ... (+${more} fields)` : '');
}

/** Calls every method once over the engine's data and prints what came back. */
export async function tour(engine: Engine, print: (line: string) => void): Promise<void> {
  const [trade] = (await engine.call('chain::market::trades', { limit: 1 })) as { base?: string; quote?: string; signer?: string }[];
  const pair = trade ? { base: trade.base, quote: trade.quote } : {};
  // a local fee market to price: the newest trade's signer (a fee payer is always write-locked)
  const accounts = trade?.signer ? [trade.signer] : [];
  for (const method of METHODS) {
    const params: Record<string, unknown> = {};
    for (const [name, spec] of Object.entries(method.params)) {
      if (spec.kind === 'window') params[name] = spec.values.includes('1m') ? '1m' : spec.values[0];
      if (spec.kind === 'limit') params[name] = Math.min(spec.max, 3);
      if (spec.kind === 'mint' && name !== 'mint') Object.assign(params, pair);
      if (spec.kind === 'keys' && accounts.length >= spec.min) params[name] = accounts;
    }
    const result = (await engine.call(method.name, params)) as Record<string, unknown>[];
    print(`${method.name} ${JSON.stringify(params)} -> ${result.length} data point${result.length === 1 ? '' : 's'}`);
    for (const point of result.slice(0, 2)) print(`  ${brief(point)}`);
  }
}
