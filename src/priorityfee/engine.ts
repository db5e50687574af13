/** The priority-fee family: the state behind every chain::priorityfee::* method. */
import type { ChunkObserver } from '../ingest/pipeline.js';
import { BlockFeesEngine } from './block-fees.js';

export class PriorityFeeEngine {
  readonly blockFees = new BlockFeesEngine();

  /** The pipeline observers of this family. */
  get observers(): ChunkObserver[] {
    return [this.blockFees];
  }
}
