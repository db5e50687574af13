/** The priority-fee family: the state behind every chain::priorityfee::* method. */
import type { ChunkObserver } from '../ingest/pipeline.js';
import type { FeeStatsKernels } from '../kernels/client.js';
import type { EngineSettings } from '../methods/context.js';
import type { Store } from '../store/store.js';
import { NO_DEMAND, type StreamDemand } from '../stream/updates.js';
import { BlockFeesEngine } from './block-fees.js';
import { FeeWindowsEngine } from './fee-windows.js';
import { LocalFeeMarkets } from './local-fees.js';
import { RecommendationsEngine, type BetweenCommits } from './recommendations.js';
import { TopTransactionsTracker } from './top-tracker.js';

export class PriorityFeeEngine {
  readonly blockFees: BlockFeesEngine;
  readonly feeWindows: FeeWindowsEngine;
  readonly recommendations: RecommendationsEngine;
  /** The live top list of chain::priorityfee::top_txs (always on: queries and streams). */
  readonly topTransactions: TopTransactionsTracker;
  /** chain::priorityfee::estimate and ::recent: computed when asked, from the store's resident transactions. */
  readonly localFees: LocalFeeMarkets;

  /**
   * `kernels` is the kernel worker (started on first use by the engine), `store` the engine's
   * store, `betweenCommits` the pipeline's queue (for history computed when asked); `demand` says
   * what is streamed.
   */
  constructor(
    settings: Readonly<EngineSettings>,
    kernels: FeeStatsKernels,
    store: () => Store | undefined,
    betweenCommits: BetweenCommits,
    demand: StreamDemand = NO_DEMAND,
  ) {
    this.blockFees = new BlockFeesEngine(demand, store);
    this.feeWindows = new FeeWindowsEngine(kernels, () => settings.minSamples, demand, store);
    this.recommendations = new RecommendationsEngine(settings, store, betweenCommits, demand);
    this.topTransactions = new TopTransactionsTracker(demand, store);
    this.localFees = new LocalFeeMarkets(store, this.blockFees, () => settings.minSamples, demand);
  }

  /** The pipeline observers of this family. */
  get observers(): ChunkObserver[] {
    return [this.blockFees, this.feeWindows, this.recommendations, this.topTransactions, this.localFees];
  }
}
