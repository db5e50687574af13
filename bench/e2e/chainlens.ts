/**
 * The chainlens subject of the end-to-end figures, as a user runs it: a fresh process, createEngine,
 * load the dump's folder, then the public calls: (a) chain::priorityfee::block, 1,000 blocks a call,
 * paged back with `at`; (b) chain::priorityfee::fee 1m; (c) chain::market::ohlcv 1m of every token
 * (chain::market::token) against each quote (USDC, USDT, SOL), the pairs without trades answering
 * nothing; (d) chain::priorityfee::recommendation 1m; (e) chain::market::volume and vwap 5m of the
 * 10 most active pairs.
 *
 * `node chainlens.js --child <folder> <answers.json> [first]`: with `first`, only the first answer
 * (d) after the load (the start-up figure).
 */
import { childArgs, isChildOf, printResult } from '../child.js';
import { SOL_MINT, USDC_MINT, USDT_MINT } from '../../src/generate/constants.js';
import { MIN_SAMPLES, mostActive, subjectRun, writeAnswers, type Answers, type Row } from './answers.js';
import { importChainlens } from '../engine-entry.js';

const MAX_LIMIT = 1000;
/** The quotes of the generated markets (DESIGN.md 3: USDC > USDT > SOL). */
const QUOTES = [USDC_MINT, USDT_MINT, SOL_MINT];

type Call = (method: string, params: Record<string, unknown>) => Promise<Row[]>;

/** Every block's BlockFees, newest first, 1,000 a call, each page before the oldest of the last. */
async function allBlocks(call: Call): Promise<Row[]> {
  const out: Row[] = [];
  let at: string | undefined;
  for (;;) {
    const page = await call('chain::priorityfee::block', at === undefined ? { limit: MAX_LIMIT } : { limit: MAX_LIMIT, at });
    out.push(...page);
    if (page.length < MAX_LIMIT) return out;
    at = String(page[page.length - 1]!.timestamp);
  }
}

/** The answers from an engine holding the dump; `mints` are the known tokens. */
export async function chainlensAnswers(call: Call, mints: readonly string[], steps: Record<string, number>): Promise<Answers> {
  let at = process.hrtime.bigint();
  const step = (name: string) => {
    steps[name] = Number(process.hrtime.bigint() - at) / 1e6;
    at = process.hrtime.bigint();
  };
  const blocks = await allBlocks(call);
  step('blocks_ms');
  const windows = await call('chain::priorityfee::fee', { window: '1m', limit: MAX_LIMIT });
  step('windows_ms');
  const candles: Row[] = [];
  for (const quote of QUOTES) {
    for (const base of mints) if (base !== quote) candles.push(...(await call('chain::market::ohlcv', { base, quote, window: '1m', limit: 5000 })));
  }
  step('candles_ms');
  const recommendation = await call('chain::priorityfee::recommendation', { window: '1m', limit: 1 });
  step('recommendation_ms');
  const top: Row[] = [];
  for (const pair of mostActive(candles)) {
    const [volume] = await call('chain::market::volume', { ...pair, window: '5m', limit: 1 });
    const [vwap] = await call('chain::market::vwap', { ...pair, window: '5m', limit: 1 });
    top.push({ ...volume!, ...Object.fromEntries(Object.entries(vwap!).map(([k, v]) => [`vwap.${k}`, v])) });
  }
  step('top_ms');
  return { blocks, windows, candles, recommendation, top };
}

async function run(folder: string, out: string, firstOnly: boolean): Promise<void> {
  const steps: Record<string, number> = {};
  const started = process.hrtime.bigint();
  const { createEngine } = await importChainlens();
  const engine = await createEngine({ minSamples: MIN_SAMPLES });
  const report = await engine.load(folder);
  steps.load_ms = Number(process.hrtime.bigint() - started) / 1e6;
  const call = async (method: string, params: Record<string, unknown>) => (await engine.call(method, params)) as unknown as Row[];
  if (firstOnly) {
    const [first] = await call('chain::priorityfee::recommendation', { window: '1m', limit: 1 });
    if (!first) throw new Error('chainlens: no first answer');
    printResult({ ...subjectRun(steps), blocks: report.blocks, rejected: report.rejected });
    await engine.close();
    return;
  }
  const mints = (await call('chain::market::token', {})).map((t) => String(t.mint));
  const answers = await chainlensAnswers(call, mints, steps);
  const result = { ...subjectRun(steps), blocks: report.blocks, rejected: report.rejected };
  await writeAnswers(out, answers);
  await engine.close();
  printResult(result);
}

if (isChildOf(import.meta.url)) {
  const [folder, out, mode] = childArgs();
  await run(folder!, out!, mode === 'first');
  process.exit(0);
}
