/**
 * A system's part of every DOF, as bindings into the coupling's part buffers
 * (`gpu/coupling/coupling.ts`): defined here, in the state layer, so that systems and the
 * coupling share it without importing each other.
 *
 * @module
 */

/** What a system reads and writes of its part of every DOF. */
export interface PartSlice {
  /** `array<f32>` per DOF: the mass the system integrates the DOF with (0: not its DOF). */
  mass: GPUBufferBinding;
  /** `array<vec4f>` per DOF: the handler's forces on the system's part (xyz). */
  force: GPUBufferBinding;
  /** Output `array<vec4f>` per DOF: the velocity the system produced (xyz). */
  vel: GPUBufferBinding;
}
