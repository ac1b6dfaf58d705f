// Mirror images at the walls of a box (the ghost particles of Randles & Libersky 1996): a particle
// j near a wall also enters a neighbour sum through its reflection across that wall, so a particle
// at a wall reads the neighbours it would have beyond it. Prelude concatenated in front of the
// kernels that use it (gpu/state/wall_mirrors.ts); f64 reference: forEachMirrorImage (core/). One
// plane per axis, the nearer, so the box must be at least 2h wide; at an edge or a corner every
// non-empty subset of the near walls' axes gives an image.

// The walls within h of a point: bit a of mask set where axis a has one, plane[a] its coordinate.
struct WallMirrors {
  mask: u32,
  plane: vec3f,
}

// The walls of the box [lo, hi] within h of x. Branch-free: the lower wall where it is within h,
// else the upper one (a loop over the axes indexing the vectors cost llvmpipe a third more time in
// a fluid's neighbour sums).
fn wallMirrors(x: vec3f, lo: vec3f, hi: vec3f, h: f32) -> WallMirrors {
  let low = x - lo < vec3f(h);
  let near = low | (hi - x < vec3f(h));
  let bits = select(vec3u(0u), vec3u(1u, 2u, 4u), near);
  return WallMirrors(bits.x | bits.y | bits.z, select(hi, lo, low));
}

// Which axes the image set `sub` reflects (bit a: axis a; sub = 0: none, the point itself). The
// image sets of a point are the sub ≤ mask with (sub & ~mask) == 0.
fn mirrorFlips(sub: u32) -> vec3<bool> {
  return vec3<bool>((sub & 1u) != 0u, (sub & 2u) != 0u, (sub & 4u) != 0u);
}
