/**
 * Irreversible breaking of the springs of an {@link ImplicitSprings} network past their critical
 * stretch (bond-based peridynamics with Silling & Askari's (2005) compression term, s0(x) = s00 −
 * α·s_min(x); kernels and formulas in `spring_breaking.wgsl`). Encoded at the end of a step on the
 * particle positions, two passes; no host sync. The f64 reference is `updateBroken` (with
 * `pointCriticalStretch`) of `core/reference/peridynamics_reference.ts`.
 *
 * @module
 */
import type { ImplicitSprings } from "../spring-network/implicit_springs.ts";
import { SPRING_CSR_WGSL, SPRING_WORDS_WGSL, springCsrConstants } from "../../state/spring_csr.ts";
import {
  bindKernel,
  createKernel,
  dispatch,
  type Kernel,
  readBuffer,
  storageBuffer,
} from "../../runtime/kernel.ts";
import { defineStruct, type StructLayout } from "../../runtime/struct_layout.ts";
import springBreakingWgsl from "./spring_breaking.wgsl" with { type: "text" };

/** WGSL of the breaking kernel (after the packed-spring decoding and word accessor it uses). */
export const SPRING_BREAKING_WGSL: string = [
  SPRING_CSR_WGSL,
  SPRING_WORDS_WGSL,
  springBreakingWgsl,
].join("\n");

/** Layout of `BreakParams` in `spring_breaking.wgsl`. */
export const BREAK_PARAMS: StructLayout = defineStruct("BreakParams", [
  ["count", "u32"],
  ["first", "u32"],
]);

/**
 * Silling & Askari's (2005) compression factor α of s0(x) = s00 − α·s_min(x), the value of their
 * examples and of LAMMPS's PERI package (the peridynamics system's default).
 */
export const SILLING_ASKARI_ALPHA = 0.25;

/** Breaks the springs of one network; counts broken CSR entries (two per spring). */
export class SpringBreaking {
  /** Whether any spring can break (otherwise {@link SpringBreaking.encode} encodes nothing). */
  readonly active: boolean;
  /** Breakable springs (each counted once). */
  readonly breakable: number;
  readonly #device: GPUDevice;
  readonly #count: number;
  readonly #kernel: Kernel;
  readonly #bind: GPUBindGroup;
  readonly #stretchKernel: Kernel;
  readonly #stretchBind: GPUBindGroup;
  readonly #owned: GPUBuffer[];
  readonly #broken: GPUBuffer;

  /**
   * @param device the GPU device
   * @param options.springs the network; options.pos particle positions (`array<vec4f>`);
   *   options.bondStart/bondList the ascending bond lists that collision detection reads (each bond
   *   listed once, under its lower index), whose entries get `brokenBit` when their spring breaks;
   *   options.compression Silling & Askari's α ≥ 0 (0: a spring breaks past its s00 alone)
   */
  constructor(
    device: GPUDevice,
    options: {
      springs: ImplicitSprings;
      pos: GPUBuffer;
      bondStart: GPUBuffer;
      bondList: GPUBuffer;
      brokenBit: number;
      compression: number;
      label?: string;
    },
  ) {
    const label = options.label ?? "spring breaking";
    const net = options.springs;
    this.#device = device;
    this.#count = net.slotCount;
    this.breakable = net.packed.breakable;
    this.active = this.breakable > 0;
    const params = device.createBuffer({
      label: `${label} params`,
      size: 16,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(
      params,
      0,
      BREAK_PARAMS.pack({ count: this.#count, first: net.firstParticle }),
    );
    const alpha = options.compression;
    if (!(alpha >= 0) || !Number.isFinite(alpha)) {
      throw new RangeError(
        `${label}: options.compression must be a finite number >= 0 (Silling & Askari use ` +
          `${SILLING_ASKARI_ALPHA}), got ${alpha}`,
      );
    }
    // the fracture state: the broken count (u32), then s0(x) per slot (f32)
    this.#broken = storageBuffer(device, {
      label: `${label} fracture state`,
      size: Math.ceil((1 + this.#count) / 4) * 16,
    });
    this.#owned = [params, this.#broken];
    const R = "read-only-storage" as const;
    const W = "storage" as const;
    const constants = {
      ALPHA: alpha,
      ...springCsrConstants(net.packed),
      WORDS_CHUNK: net.springCsr.wordRanges.firstLength,
    };
    this.#kernel = createKernel(device, {
      label: `${label} break_springs`,
      code: SPRING_BREAKING_WGSL,
      entryPoint: "break_springs",
      bindings: ["uniform", R, R, W, R, R, W, W, W],
      constants: { ...constants, BROKEN_BIT: options.brokenBit },
    });
    this.#stretchKernel = createKernel(device, {
      label: `${label} critical_stretch`,
      code: SPRING_BREAKING_WGSL,
      entryPoint: "critical_stretch",
      bindings: ["uniform", R, R, W, R, [8, W], [9, W]], // the words as break_springs declares them
      constants,
    });
    const csr = net.springCsr;
    this.#bind = bindKernel(device, this.#kernel, [
      params,
      options.pos,
      csr.start,
      csr.wordRanges.first,
      csr.classes,
      options.bondStart,
      options.bondList,
      this.#broken,
      csr.wordRanges.second,
    ]);
    this.#stretchBind = bindKernel(device, this.#stretchKernel, [
      params,
      options.pos,
      csr.start,
      csr.wordRanges.first,
      csr.classes,
      csr.wordRanges.second,
      this.#broken,
    ]);
  }

  /**
   * Breaks every spring now stretched past its critical stretch (one compute pass, two dispatches:
   * every particle's s0(x), then the springs).
   */
  encode(encoder: GPUCommandEncoder): void {
    if (!this.active) return;
    const pass = encoder.beginComputePass({ label: "spring breaking" });
    for (
      const [kernel, bindGroup] of [[this.#stretchKernel, this.#stretchBind], [
        this.#kernel,
        this.#bind,
      ]] as const
    ) {
      dispatch(pass, kernel, { bindGroup, invocations: this.#count, workgroupSize: 64 });
    }
    pass.end();
  }

  /** Broken springs so far (one readback). */
  async readBroken(): Promise<number> {
    return new Uint32Array(await readBuffer(this.#device, this.#broken))[0] / 2;
  }

  /**
   * The fracture-state buffer: its first word (`atomic<u32>`) the broken CSR entries (two per
   * spring), then each slot's s0(x) (f32).
   */
  get brokenCounter(): GPUBuffer {
    return this.#broken;
  }

  /** Frees its buffers. */
  destroy(): void {
    for (const b of this.#owned) b.destroy();
  }
}
