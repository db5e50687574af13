/** The priority-fee family: the state behind every chain::priorityfee::* method. */
import type { ChunkObserver } from '../ingest/pipeline.js';
import type { KernelClient } from '../kernels/client.js';
import type { EngineSettings } from '../methods/context.js';
import { BlockFeesEngine } from './block-fees.js';
import { FeeWindowsEngine } from './fee-windows.js';
import { RecommendationsEngine } from './recommendations.js';

export class PriorityFeeEngine {
  readonly blockFees: BlockFeesEngine;
  readonly feeWindows: FeeWindowsEngine;
  readonly recommendations: RecommendationsEngine;

  /** `kernels` gives the kernel worker (started on first use by the engine). */
  constructor(settings: Readonly<EngineSettings>, kernels: () => Promise<KernelClient>) {
    this.blockFees = new BlockFeesEngine(kernels);
    this.feeWindows = new FeeWindowsEngine(kernels, () => settings.minSamples);
    this.recommendations = new RecommendationsEngine(settings);
  }

  /** The pipeline observers of this family. */
  get observers(): ChunkObserver[] {
    return [this.blockFees, this.feeWindows, this.recommendations];
  }
}
