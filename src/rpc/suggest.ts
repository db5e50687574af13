/** Closest-name suggestion for an unknown method (Levenshtein distance over a small list). */

function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length];
}

/** The candidate nearest to `name`; an unprefixed name ("token") matches its prefixed form first. */
export function closest(name: string, candidates: readonly string[]): string | undefined {
  const bySuffix = candidates.find((c) => c.endsWith(`::${name}`));
  if (bySuffix) return bySuffix;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = distance(name, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}
