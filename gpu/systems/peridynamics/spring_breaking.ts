/**
 * Irreversible breaking of the springs of an {@link ImplicitSprings} network past their critical
 * stretch (bond-based peridynamics; kernel and formulas in `spring_breaking.wgsl`). Encoded at the
 * end of a step on the particle positions; no host sync. The f64 reference is `updateBroken` of
 * `core/peridynamics_reference.ts`.
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
  readonly #owned: GPUBuffer[];
  readonly #broken: GPUBuffer;

  /**
   * @param device the GPU device
   * @param options.springs the network; options.pos particle positions (`array<vec4f>`);
   *   options.bondStart/bondList the ascending bond lists that collision detection reads (each bond
   *   listed once, under its lower index), whose entries get `brokenBit` when their spring breaks
   */
  constructor(
    device: GPUDevice,
    options: {
      springs: ImplicitSprings;
      pos: GPUBuffer;
      bondStart: GPUBuffer;
      bondList: GPUBuffer;
      brokenBit: number;
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
    this.#broken = storageBuffer(device, { label: `${label} broken count`, size: 16 });
    this.#owned = [params, this.#broken];
    const R = "read-only-storage" as const;
    const W = "storage" as const;
    this.#kernel = createKernel(device, {
      label: `${label} break_springs`,
      code: SPRING_BREAKING_WGSL,
      entryPoint: "break_springs",
      bindings: ["uniform", R, R, W, R, R, W, W, W],
      constants: {
        BROKEN_BIT: options.brokenBit,
        ...springCsrConstants(net.packed),
        WORDS_CHUNK: net.springCsr.wordRanges.firstLength,
      },
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
  }

  /** Breaks every spring now stretched past its critical stretch (one compute pass). */
  encode(encoder: GPUCommandEncoder): void {
    if (!this.active) return;
    const pass = encoder.beginComputePass({ label: "spring breaking" });
    dispatch(pass, this.#kernel, {
      bindGroup: this.#bind,
      invocations: this.#count,
      workgroupSize: 64,
    });
    pass.end();
  }

  /** Broken springs so far (one readback). */
  async readBroken(): Promise<number> {
    return new Uint32Array(await readBuffer(this.#device, this.#broken))[0] / 2;
  }

  /** The broken-count buffer (`atomic<u32>`: broken CSR entries, two per spring). */
  get brokenCounter(): GPUBuffer {
    return this.#broken;
  }

  /** Frees its buffers. */
  destroy(): void {
    for (const b of this.#owned) b.destroy();
  }
}
