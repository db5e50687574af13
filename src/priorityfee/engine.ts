/** The priority-fee family: the state behind every chain::priorityfee::* method. */
import type { ChunkObserver } from '../ingest/pipeline.js';
import type { EngineSettings } from '../methods/context.js';
import { BlockFeesEngine } from './block-fees.js';
import { FeeWindowsEngine } from './fee-windows.js';
import { RecommendationsEngine } from './recommendations.js';

export class PriorityFeeEngine {
  readonly blockFees = new BlockFeesEngine();
  readonly feeWindows: FeeWindowsEngine;
  readonly recommendations: RecommendationsEngine;

  constructor(settings: Readonly<EngineSettings>) {
    this.feeWindows = new FeeWindowsEngine(() => settings.minSamples);
    this.recommendations = new RecommendationsEngine(settings);
  }

  /** The pipeline observers of this family. */
  get observers(): ChunkObserver[] {
    return [this.blockFees, this.feeWindows, this.recommendations];
  }
}
