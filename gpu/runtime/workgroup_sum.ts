/**
 * The deterministic workgroup tree sum shared by the kernels that fuse a dot product into the
 * kernel producing its terms (the implicit solvers' CG): one partial sum per
 * workgroup, totalled later by one workgroup in a fixed order, so a CG iteration needs no
 * reduction dispatches and runs repeat bit for bit. WGSL: `workgroup_sum.wgsl`, prepended by the
 * owner, which sets the `SUM_WORKGROUP_SIZE` override to its kernels' workgroup size.
 *
 * @module
 */
import workgroupSumWgsl from "./workgroup_sum.wgsl" with { type: "text" };

/** WGSL of `workgroup_sum` (a prelude). */
export const WORKGROUP_SUM_WGSL: string = workgroupSumWgsl;
