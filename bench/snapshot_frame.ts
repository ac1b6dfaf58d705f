/**
 * One snapshot frame as the bench records it: the particle positions now, the meta-particles where
 * any two particles are merged and, when the scene has solid bodies, their fragments, read back
 * together (both buffers copied into one staging buffer,
 * one `mapAsync`). Called at a few snapshot steps only, never per step; the runner excludes these
 * reads from `hostSyncsPerStep` (they bypass the engine's counter, which never sees them).
 *
 * Which fragments a frame carries. The GPU labels fragments only when it takes a metrics sample
 * (after every step that is a multiple of `scene.metricsEvery`), so a frame at step s carries the
 * labels of the last sample at or before s, at step ⌊s / metricsEvery⌋·metricsEvery, recorded as
 * the frame's `fragmentsStep`. At step 0 no bond has broken yet and no sample exists: the labels
 * come from the scene's bonds on the host ({@link initialFragmentLabels}), exactly what the GPU
 * would compute. A frame after step 0 but before the first sample has no `fragments`.
 *
 * @module
 */
import { isBreakableSolid, type ParticleSet } from "../core/scene/scene_builder.ts";
import {
  encodeFragments,
  encodeFrame,
  encodeGroups,
  NO_FRAGMENT_LABEL,
  type SnapshotFrame,
  type Snapshots,
} from "../core/io/snapshot_codec.ts";
import type { Engine } from "../gpu/engine.ts";

/**
 * Fragment labels at step 0, when every bond is intact: per particle of a breakable solid body the
 * smallest particle index of its component of bonds (springs between such particles), as the GPU
 * writes them (`gpu/metrics/fragments.ts`); {@link NO_FRAGMENT_LABEL} for every other particle
 * (cloth, fluid, an unbreakable projectile).
 */
export function initialFragmentLabels(particles: ParticleSet): Uint32Array {
  const n = particles.count;
  const member = (i: number) => isBreakableSolid(particles.bodies[particles.body[i]]);
  // Union-find whose roots are the smallest index of their set (hooking the larger root).
  const parent = Uint32Array.from({ length: n }, (_, i) => i);
  const find = (x: number) => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  const { i: ends0, j: ends1 } = particles.springs;
  for (let k = 0; k < ends0.length; k++) {
    if (!member(ends0[k]) || !member(ends1[k])) continue;
    const a = find(ends0[k]), b = find(ends1[k]);
    if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
  }
  const labels = new Uint32Array(n);
  for (let i = 0; i < n; i++) labels[i] = member(i) ? find(i) : NO_FRAGMENT_LABEL;
  return labels;
}

/** Copies `parts` into one staging buffer and maps it once: one host sync for all of them. */
async function readTogether(
  device: GPUDevice,
  parts: readonly { buffer: GPUBuffer; size: number }[],
): Promise<ArrayBuffer[]> {
  const total = parts.reduce((a, p) => a + p.size, 0);
  const staging = device.createBuffer({
    label: "snapshot readback",
    size: Math.max(4, total),
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const enc = device.createCommandEncoder({ label: "snapshot readback encoder" });
  let offset = 0;
  for (const p of parts) {
    enc.copyBufferToBuffer(p.buffer, 0, staging, offset, p.size);
    offset += p.size;
  }
  device.queue.submit([enc.finish()]);
  try {
    await staging.mapAsync(GPUMapMode.READ);
    const mapped = staging.getMappedRange();
    offset = 0;
    return parts.map((p) => mapped.slice(offset, offset += p.size));
  } finally {
    staging.destroy();
  }
}

/**
 * Reads the frame at the engine's current step: positions quantised over `options.domain`, every
 * `options.stride`-th particle, plus the fragments (module doc) when the scene has solid bodies.
 */
export async function readSnapshotFrame(
  engine: Engine,
  options: { domain: Snapshots["domain"]; stride: number },
): Promise<SnapshotFrame> {
  const { step, count } = engine;
  const every = engine.scene.metricsEvery;
  const sampleStep = Math.floor(step / every) * every;
  const solids = engine.particles.bodies.some((b) => b.kind === "solid");
  const fromGpu = solids && sampleStep > 0;
  const parts = [
    { buffer: engine.state.buffers.pos, size: 16 * count },
    { buffer: engine.state.buffers.dof, size: 4 * count },
  ];
  if (fromGpu) parts.push({ buffer: engine.fragmentLabels, size: 4 * count });
  const [pos, dof, gpuLabels] = await readTogether(engine.gpu.device, parts);
  const frame: SnapshotFrame = {
    step,
    time: step * engine.scene.dt,
    positions: encodeFrame(new Float32Array(pos), options),
  };
  const groups = encodeGroups(new Uint32Array(dof), { stride: options.stride });
  if (groups) Object.assign(frame, groups);
  const labels = fromGpu
    ? new Uint32Array(gpuLabels)
    : solids && step === 0
    ? initialFragmentLabels(engine.particles)
    : null;
  if (labels) {
    Object.assign(frame, encodeFragments(labels, { stride: options.stride }));
    frame.fragmentsStep = fromGpu ? sampleStep : 0;
  }
  return frame;
}
