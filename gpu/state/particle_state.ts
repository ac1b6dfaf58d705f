/**
 * The particle state every system and handler of a scene shares (gpu/README.md): one structure
 * of arrays over all bodies, the DOF (meta-particle) map, the per-particle handler forces and
 * the velocities a step ends with (a handler's statistics are its own:
 * `handler_statistics.ts`), plus the kernels that no plug-in owns: the identity DOF map
 * (no meta-particles), per-particle velocities from the DOFs, and the end-of-step write-back
 * (Eqs. 6–7).
 *
 * @module
 */
import type { ParticleSet } from "../../core/scene/scene_builder.ts";
import {
  type BoundEntry,
  createBoundKernel,
  dispatch,
  type Kernel,
  readBuffer,
  storageBuffer,
} from "../runtime/kernel.ts";
import { defineStruct, type StructLayout } from "../runtime/struct_layout.ts";
import { packSprings, springClass, springPartner } from "./spring_csr.ts";
import particleStateWgsl from "./particle_state.wgsl" with { type: "text" };

/** WGSL of the shared state kernels. */
export const PARTICLE_STATE_WGSL: string = particleStateWgsl;

/** Layout of `StateParams` in `particle_state.wgsl`. */
export const STATE_PARAMS: StructLayout = defineStruct("StateParams", [["count", "u32"]]);

/**
 * Body-kind bits of the `kind` buffer (`array<u32>`), read by the metrics: which particles belong
 * to a sheet, a fluid, and which are pinned. Passed to WGSL as `override` constants.
 */
export const KIND_BITS = { sheet: 1, fluid: 2, pinned: 4 } as const;

/** Names of the shared buffers (see the field docs of {@link ParticleState}). */
export type StateBufferName =
  | "pos"
  | "vel"
  | "rest"
  | "mass"
  | "body"
  | "system"
  | "kind"
  | "pinned"
  | "selfCollision"
  | "bondStart"
  | "bondList"
  | "bondClass"
  | "springClasses"
  | "dof"
  | "memberStart"
  | "memberList"
  | "offset"
  | "dofX"
  | "dofV"
  | "dofM"
  | "velOut"
  | "velTmp"
  | "handlerForce"
  | "boundaryDensity"
  | "fluidPressure"
  | "syncEnergy";

/** The state's pipelines, each with its bind group. */
type StateKernels = Record<
  "identityValues" | "velocities" | "writeBack" | "writeBackDofs",
  { kernel: Kernel; bind: GPUBindGroup }
>;

/**
 * The per-particle arrays of a particle set as the GPU holds them: positions (w: radius) and
 * velocities as vec4, each particle's system (by its body) and pinning, and its kind bits.
 */
function particleArrays(p: ParticleSet, systemOf: readonly number[]): {
  pos: Float32Array;
  vel: Float32Array;
  kind: Uint32Array;
  system: Uint32Array;
  pinned: Uint32Array;
} {
  const n = p.count;
  const pos = new Float32Array(4 * n);
  const vel = new Float32Array(4 * n);
  const kind = new Uint32Array(n);
  const system = new Uint32Array(n);
  const pinned = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) {
      pos[4 * i + a] = p.x[3 * i + a];
      vel[4 * i + a] = p.v[3 * i + a];
    }
    pos[4 * i + 3] = p.radius[i];
    const b = p.body[i];
    system[i] = systemOf[b];
    pinned[i] = p.pinned[i];
    kind[i] = (p.bodies[b].kind === "cloth" ? KIND_BITS.sheet : 0) |
      (p.bodies[b].kind === "fluid" ? KIND_BITS.fluid : 0) | (pinned[i] ? KIND_BITS.pinned : 0);
  }
  return { pos, vel, kind, system, pinned };
}

/**
 * Creates the state's buffers (see {@link ParticleState}) from the particles, their systems and
 * the bodies' self-collision, the bonded partners among them.
 */
function createStateBuffers(
  device: GPUDevice,
  options: {
    particles: ParticleSet;
    systemOf: readonly number[];
    selfCollision: readonly boolean[];
  },
): Record<StateBufferName, GPUBuffer> {
  const p = options.particles;
  const n = p.count;
  const { pos, vel, kind, system, pinned } = particleArrays(p, options.systemOf);
  // bonded partners (springs are never collisions, §5.1): each bond once, under its lower index,
  // partners ascending (4 bytes per bond: Table I's solids fit one binding)
  const bonds = packSprings(p.springs, {
    particleCount: n,
    ends: "lower",
    name: "particles.springs",
  });
  const bondList = new Uint32Array(Math.max(1, bonds.words.length));
  const bondClass = new Uint32Array(Math.max(1, bonds.words.length));
  bonds.words.forEach((w, e) => {
    bondList[e] = springPartner(w, bonds.partnerBits);
    bondClass[e] = springClass(w, bonds.partnerBits);
  });
  const b = {} as Record<StateBufferName, GPUBuffer>;
  const B = (
    label: StateBufferName,
    bytes: number,
    data?: ArrayBufferView,
  ) => (b[label] = storageBuffer(device, { label, size: bytes, data }));
  B("pos", 16 * n, pos);
  B("vel", 16 * n, vel);
  B("rest", 16 * n, pos);
  B("mass", 4 * n, Float32Array.from(p.mass));
  B("body", 4 * n, p.body);
  B("system", 4 * n, system);
  B("kind", 4 * n, kind);
  B("pinned", 4 * n, pinned);
  B(
    "selfCollision",
    4 * options.selfCollision.length,
    Uint32Array.from(options.selfCollision, Number),
  );
  B("bondStart", 4 * (n + 1), bonds.start);
  B("bondList", bondList.byteLength, bondList);
  B("bondClass", bondClass.byteLength, bondClass);
  B("springClasses", bonds.classes.byteLength, bonds.classes);
  // the identity DOF map (every particle its own DOF, offset 0): a merging handler rewrites it
  const iota = (count: number) => Uint32Array.from({ length: count }, (_, i) => i);
  B("dof", 4 * n, iota(n));
  // the members of each DOF, then from word N at the same places the partner each joined its
  // group through (NONE: none), for a merging handler that merges along colliding pairs
  const members = new Uint32Array(2 * n).fill(0xffffffff);
  members.set(iota(n));
  B("memberList", 8 * n, members);
  B("memberStart", 4 * (n + 1), iota(n + 1));
  for (const name of ["dofM", "syncEnergy", "boundaryDensity"] as const) B(name, 4 * n);
  B("fluidPressure", 8 * n);
  for (const name of ["offset", "dofX", "dofV", "velOut", "velTmp", "handlerForce"] as const) {
    B(name, 16 * n);
  }
  return b;
}

/**
 * The shared GPU buffers of one scene, built from its {@link ParticleSet}. Buffers (N particles,
 * all `storage`, labelled by name):
 * - `pos`/`vel` `array<vec4f>` (w: radius / 0), `rest` the initial positions, `mass` `array<f32>`,
 *   `body` body index, `system` index of the system that integrates the particle (the engine's
 *   order of systems), `kind` {@link KIND_BITS}, `pinned` 1 when fixed;
 * - `selfCollision` per body (1: its particles collide with each other), `bondStart`/`bondList`
 *   the bonded partners (springs) in CSR form, each bond once under its lower index, partners
 *   ascending (bonded pairs never collide; `BOND_BROKEN_BIT` once broken), `bondClass` the
 *   parameter class of each entry in `springClasses` (`array<SpringClass>`,
 *   gpu/state/spring_csr.ts: rest length, ks, kd, critical stretch) for the metrics;
 * - the DOF map: `dof`, `memberStart` (N + 1), `memberList` (2N: the members, then the partner
 *   each joined its group through), `offset`, `dofX`, `dofV`, `dofM`;
 * - `handlerForce` per-particle force of the handler (cleared each stage), `velOut` the particle
 *   velocities a stage ends with, `velTmp` scratch of its size, `syncEnergy` ΔĒk per DOF (Eq. 19,
 *   written by the coupling);
 * - the channel of boundary-particle coupling between a fluid system and a handler (the
 *   `encodeBeforeForces` hook of gpu/handlers/handler.ts): `boundaryDensity` `array<f32>` the
 *   boundary particles' term Σ_b Ψ_b W_ib of each fluid particle's density, written by such a
 *   handler before the systems' forces and added by a fluid system to its density sum (zero when
 *   no handler writes it); `fluidPressure` `array<vec2f>` (p_i/ρ_i², ρ_i) of each fluid particle,
 *   written by a fluid system's density pass (other particles keep (0, 0)), read by such a
 *   handler's forces. The particle methods that fill and read it cite their paper.
 */
export class ParticleState {
  /** Particles N. */
  readonly count: number;
  /** The buffers, by name. */
  readonly buffers: Readonly<Record<StateBufferName, GPUBuffer>>;
  readonly #device: GPUDevice;
  readonly #params: GPUBuffer;
  readonly #k: StateKernels;

  /**
   * @param device the GPU device
   * @param options.particles the scene's particles; options.systemOf the system index of each body
   *   (by body index); options.selfCollision per body
   */
  constructor(
    device: GPUDevice,
    options: {
      particles: ParticleSet;
      systemOf: readonly number[];
      selfCollision: readonly boolean[];
    },
  ) {
    this.#device = device;
    const n = this.count = options.particles.count;
    this.buffers = createStateBuffers(device, options);
    this.#params = device.createBuffer({
      label: "particle state params",
      size: 16,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(this.#params, 0, STATE_PARAMS.pack({ count: n }));
    this.#k = this.#createKernels(this.buffers);
  }

  /**
   * The pipelines of the DOF map's identity, the DOF velocities and the write-back, each bound to
   * the state's buffers.
   */
  #createKernels(b: Readonly<Record<StateBufferName, GPUBuffer>>): StateKernels {
    const device = this.#device;
    const R = "read-only-storage" as const;
    const W = "storage" as const;
    // each entry point binds only the buffers it uses (`[binding, kind, buffer]`, binding 0 the
    // uniform): at most 8 storage buffers, WebGPU's guaranteed limit per stage
    const mk = (entryPoint: string, bindings: BoundEntry[]) =>
      createBoundKernel(device, {
        label: `particle state ${entryPoint}`,
        code: PARTICLE_STATE_WGSL,
        entryPoint,
        entries: [[0, "uniform", this.#params], ...bindings],
      });
    const dense = (kinds: (typeof R | typeof W)[], buffers: GPUBuffer[]) =>
      kinds.map((kind, k): [number, typeof R | typeof W, GPUBuffer] => [k + 1, kind, buffers[k]]);
    return {
      identityValues: mk("identity_dof_values", [
        [1, R, b.pos],
        [2, R, b.vel],
        [3, R, b.mass],
        [8, W, b.dofX],
        [9, W, b.dofV],
        [10, W, b.dofM],
      ]),
      velocities: mk("dof_velocities", dense([R, R, W], [b.dof, b.dofV, b.velOut])),
      writeBack: mk(
        "write_back",
        dense([R, R, R, R, W, W], [
          b.dof,
          b.offset,
          b.dofX,
          b.velOut,
          b.pos,
          b.vel,
        ]),
      ),
      writeBackDofs: mk("write_back_dofs", [
        [1, R, b.dof],
        [2, R, b.offset],
        [3, R, b.dofX],
        [5, W, b.pos],
        [6, W, b.vel],
        [7, R, b.dofV],
        [8, W, b.velOut],
      ]),
    };
  }

  #run(
    pass: GPUComputePassEncoder,
    k: keyof StateKernels,
  ): void {
    const { kernel, bind } = this.#k[k];
    dispatch(pass, kernel, { bindGroup: bind, invocations: this.count, workgroupSize: 64 });
  }

  /**
   * Every particle its own DOF (no meta-particles), into `pass`: the DOF values (one dispatch);
   * the map is the identity the buffers start with, which only a merging handler rewrites.
   */
  encodeIdentityDofs(pass: GPUComputePassEncoder): void {
    this.#run(pass, "identityValues");
  }

  /** `velOut[i] = dofV[dof[i]]`: the end of a stage without a split, into `pass`. */
  encodeDofVelocities(pass: GPUComputePassEncoder): void {
    this.#run(pass, "velocities");
  }

  /** Particles take their DOF's position plus offset (Eqs. 6–7) and `velOut`, into `pass`. */
  encodeWriteBack(pass: GPUComputePassEncoder): void {
    this.#run(pass, "writeBack");
  }

  /**
   * {@link encodeDofVelocities} then {@link encodeWriteBack} as one dispatch (the same values),
   * where nothing works on `velOut` between them.
   */
  encodeDofWriteBack(pass: GPUComputePassEncoder): void {
    this.#run(pass, "writeBackDofs");
  }

  /** Positions (and velocities) now, `vec4f` per particle: one readback each. */
  async read(
    options: { velocities?: boolean } = {},
  ): Promise<{ pos: Float32Array; vel: Float32Array }> {
    const size = 16 * this.count;
    const pos = new Float32Array(await readBuffer(this.#device, this.buffers.pos, { size }));
    const vel = options.velocities === false
      ? new Float32Array(0)
      : new Float32Array(await readBuffer(this.#device, this.buffers.vel, { size }));
    return { pos, vel };
  }

  /** SHA-256 (hex) of the positions and velocities: equal on equal state, bit for bit. */
  async hash(): Promise<string> {
    const { pos, vel } = await this.read();
    const bytes = new Uint8Array(pos.byteLength + vel.byteLength);
    bytes.set(new Uint8Array(pos.buffer), 0);
    bytes.set(new Uint8Array(vel.buffer), pos.byteLength);
    const digest = await crypto.subtle.digest("SHA-256", bytes);
    return [...new Uint8Array(digest)].map((x) => x.toString(16).padStart(2, "0")).join("");
  }

  /** Frees every buffer. */
  destroy(): void {
    for (const buf of Object.values(this.buffers)) buf.destroy();
    this.#params.destroy();
  }
}
