/**
 * The priority-fee kernels (issue 4 item 1), a module of their own with their own memory: the
 * statistics of a sample set and the per-block records. Layouts: assembly/fees/layout.ts.
 */
export { Status } from '../status';
export { configure, reserve, millisPtr, maxPercentiles, layoutPtr, statsSlots, blockSlots } from './layout';
export { sampleStats } from './sample-stats';
export { blockColumns, blockStatsMany } from './block-columns';
