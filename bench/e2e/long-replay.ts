/**
 * The long-run family: a six-hour replay of the mainnet profile with the replay's default
 * retention and every method subscribed, the resident memory sampled against the simulated clock,
 * to show whether memory stays flat once the retained span and the largest window are full
 * (the target: within 10% of the first hour's after that hour). The blocks come straight from the
 * generator (a six-hour Parquet dump would be ~9 GB on disk); the replay commits them through the
 * same ingest path as a dump. Twenty minutes in quick mode.
 */
import { childArgs, isChildOf, printResult, runChild } from '../child.js';
import { statsOfSamples, type Figure } from '../harness.js';
import { REPLAY_STREAMS, replayStreamed, rssBetween } from '../ingest.js';
import type { BenchOptions } from '../options.js';

/** Memory after the first hour may grow by this much (the second hour's peak to the largest later one). */
const FLAT_WITHIN = 1.1;

interface LongReplay {
  minutes: number;
  seconds: number;
  blocks: number;
  transactions: number;
  rejected: number;
  blocks_per_s: number;
  pushed_points: number;
  peak_rss_mib: number;
  /** The largest resident memory sampled in each simulated hour (or quarter, in quick mode), MiB. */
  rss_by_period: number[];
  period_minutes: number;
}

async function replayGenerated(minutes: number): Promise<LongReplay> {
  const { generateBlocks, generateTokens } = await import('../../src/generate/market.js');
  const options = { minutes, seed: 1, profile: 'mainnet' as const };
  let transactions = 0;
  function* blocks() {
    yield { tokens: generateTokens(options) };
    for (const g of generateBlocks(options)) {
      transactions += g.transactions.length;
      yield { blocks: [g.block], transactions: g.transactions, trades: g.trades };
    }
  }
  const run = await replayStreamed(blocks()); // the replay's default retention
  const period = minutes >= 120 ? 60 : minutes / 4;
  const periods = Math.ceil(minutes / period);
  return {
    minutes, seconds: run.seconds, blocks: run.blocks, transactions, rejected: run.rejected, blocks_per_s: run.blocks_per_s,
    pushed_points: run.pushed_points, peak_rss_mib: run.peak_rss_mib, period_minutes: period,
    rss_by_period: Array.from({ length: periods }, (_, k) => Math.round(rssBetween(run.samples, k * period, (k + 1) * period) ?? 0)),
  };
}

/** The figure: one replay in a fresh process. */
export async function longReplayFigures(options: BenchOptions): Promise<Figure[]> {
  const minutes = options.quick ? 20 : 360;
  const run = await runChild<LongReplay>(import.meta.url, [String(minutes)]);
  if (run.rejected !== 0) throw new Error(`long replay: ${run.rejected} rows rejected`);
  // once the first period is over (the retained span and the hour-long windows are full by then):
  // the largest later peak over the second period's
  const [, second, ...later] = run.rss_by_period;
  const growth = second ? Math.max(second, ...later) / second : null;
  const label = minutes === 360 ? 'six-hour' : `${minutes}-minute`;
  const unit = run.period_minutes === 60 ? 'hour' : `${run.period_minutes} minutes`;
  return [{
    id: 'longrun.replay',
    family: 'longrun',
    title: `Replay of a ${label} mainnet-profile market, default retention, every method subscribed`,
    size: `${run.blocks.toLocaleString('en-US')} blocks, ${run.transactions.toLocaleString('en-US')} transactions; ${REPLAY_STREAMS.length} subscriptions (one per method)`,
    work: { unit: 'blocks', count: run.blocks },
    subjects: [{
      id: 'chainlens', label: 'chainlens engine.replay (speed Infinity, retain 15m, the default)',
      stats: statsOfSamples([run.seconds * 1000]), per_second: run.blocks_per_s, note: 'one run',
    }],
    skipped: [],
    targets: [{
      text: `flat within ${Math.round((FLAT_WITHIN - 1) * 100)}% after the first ${unit} (the largest later peak of resident memory / the second ${unit}'s)`,
      kind: 'max-ratio', required: FLAT_WITHIN, measured: growth, met: growth === null ? null : growth <= FLAT_WITHIN,
    }],
    values: {
      blocks_per_s: run.blocks_per_s,
      pushed_data_points: run.pushed_points,
      peak_rss_mib: Math.round(run.peak_rss_mib),
      ...Object.fromEntries(run.rss_by_period.map((rss, k) => [`peak_rss_mib_${unit.replace(' ', '_')}_${k + 1}`, rss])),
    },
    notes: [
      `The blocks are generated in the replaying process (src/generate, mainnet profile, seed 1) and handed to engine.replay as row objects, one block at a time, at speed Infinity with its default retention (15 minutes of transactions); each of the ${REPLAY_STREAMS.length} methods is subscribed as in the one-hour replay (windows up to an hour), the subscriber only counting what is pushed. Generation runs in the same thread, so blocks/s here is lower than a replay of files.`,
      'Resident memory is sampled once a second and binned by the simulated clock (the replay\'s block time).',
    ],
  }];
}

if (isChildOf(import.meta.url)) {
  const [minutes] = childArgs();
  printResult(await replayGenerated(Number(minutes)));
  process.exit(0);
}
