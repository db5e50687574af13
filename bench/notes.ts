/**
 * Why a target is missed and what would close it, written from the analysis of the committed run
 * (bench/results/latest.json). A miss without an entry here is reported as "not analysed yet".
 */
import type { Figure, Target } from './harness.js';

/** The explanation of a missed target. */
export interface Explanation {
  why: string;
  close: string;
}

interface Entry extends Explanation {
  /** The figure ids (prefixes) and, for a speedup, the baseline ids this entry explains. */
  figures: readonly string[];
  against?: readonly string[];
}

const ENTRIES: readonly Entry[] = [];

/** The explanation of `target` missed in `figure`, if one was written. */
export function explainMiss(figure: Figure, target: Target): Explanation | undefined {
  return ENTRIES.find((e) => e.figures.some((id) => figure.id.startsWith(id)) && (!e.against || (target.against !== undefined && e.against.includes(target.against))));
}
