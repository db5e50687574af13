/**
 * Exact rational arithmetic over floats for the market tests: every finite float is an integer
 * multiple of 2^-1074, so sums of floats are exact as bigints at that scale, rounded once. The
 * arithmetic is the oracle's own (test/oracle/rational.ts), not the engine's.
 */
export { exactSum, f64ToScaled as scaled, scaledToF64 as unscaled } from '../oracle/rational.js';
