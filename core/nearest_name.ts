/**
 * The valid name nearest to a misspelt one (`durationn` → `duration`, `velocty` → `velocity`), by
 * edit distance, for messages that say what was meant.
 *
 * @module
 */

/** Levenshtein distance between `a` and `b` (insertions, deletions, substitutions), case-blind. */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      row.push(Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost));
    }
    prev = row;
  }
  return prev[y.length];
}

/**
 * The name of `valid` nearest to `name` (the first of equals, in `valid`'s order), or undefined
 * when none is within a third of the longer name's length (at least 2 edits): `nearestName
 * ("velocty", ["velocity", "spacing"])` is `velocity`.
 */
export function nearestName(name: string, valid: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const v of valid) {
    const d = editDistance(name, v);
    if (d < bestDistance && d <= Math.max(2, Math.floor(Math.max(name.length, v.length) / 3))) {
      best = v;
      bestDistance = d;
    }
  }
  return best;
}

/** `; did you mean "duration"?` for the {@link nearestName} of `name`, or "" when none is near. */
export function didYouMean(name: string, valid: readonly string[]): string {
  const near = nearestName(name, valid);
  return near === undefined ? "" : `; did you mean ${JSON.stringify(near)}?`;
}
