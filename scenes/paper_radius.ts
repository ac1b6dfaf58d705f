/**
 * The particle radius of a `paper`-scale scene: the one at which the scene's lattices hold Table
 * I's particle count. A lattice holds ⌊extent/2r⌋ samples per axis, so the radius from volume /
 * count alone undercounts by up to one layer per axis (5.6 % for the dam-break wall, whose 0.06 m
 * thickness is 16.7 spacings); this searches the radius instead.
 *
 * @module
 */

/**
 * The radius r in [0.8·guess, 1.25·guess] at which `count(r)` is closest to `target` (the larger r
 * on a tie). `count` must not increase with r (finer lattices hold more samples), as a box
 * lattice's ∏⌊extent/2r⌋ does; bisection finds the crossing, then the closer side wins.
 */
export function radiusForCount(
  target: number,
  options: { count: (r: number) => number; guess: number },
): number {
  const { count, guess } = options;
  if (!(target >= 1) || !(guess > 0)) {
    throw new RangeError(
      `radiusForCount: target must be >= 1 and guess > 0, got ${target}, ${guess}`,
    );
  }
  let lo = 0.8 * guess, hi = 1.25 * guess; // count(lo) >= target > count(hi) within the bracket
  if (count(lo) < target || count(hi) >= target) {
    throw new RangeError(
      `radiusForCount: ${target} samples are not between r = ${lo} and ${hi} (${count(lo)}, ${
        count(hi)
      }); give a closer guess`,
    );
  }
  for (let k = 0; k < 60; k++) {
    const mid = (lo + hi) / 2;
    if (count(mid) >= target) lo = mid;
    else hi = mid;
  }
  return Math.abs(count(hi) - target) <= Math.abs(count(lo) - target) ? hi : lo;
}

/** Samples of a box lattice of spacing 2r along `size` (m per axis): ∏ max(1, ⌊size/2r⌋). */
export function boxLatticeCount(size: readonly number[], r: number): number {
  return size.reduce((n, e) => n * Math.max(1, Math.floor(e / (2 * r) + 1e-9)), 1);
}
