/** Time arithmetic shared by the windowed methods (DESIGN.md 5): tumbling windows aligned to the epoch. */

/** Start of the window of length `w` holding time t: floor(t / w) * w, for negative t too. */
export const windowStart = (t: bigint, w: bigint): bigint => {
  const r = t % w;
  return r < 0n ? t - r - w : t - r;
};
