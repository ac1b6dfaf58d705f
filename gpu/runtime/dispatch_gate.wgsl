// A dispatch gate (gpu/runtime/dispatch_gate.ts): the dispatches encoded inside a gated region
// are indirect, from `args`, one 3-word slot each. `gate_open` fills the slots of the region's
// direct dispatches from their shapes when the flag is nonzero and with zero workgroups
// otherwise; `gate_copy`, encoded just before each of the region's indirect dispatches, copies
// that dispatch's own arguments into its slot under the same rule, unless they are rewritten
// before every use, in which case `gate_zero` zeroes their buffer when the region does not run.

struct GateParams {
  slots: u32, // direct slots in use
  flagWord: u32, // index of the flag in `flag`
}

struct CopyParams {
  srcWord: u32, // first word of the arguments in `src`
  slot: u32, // slot to write
  flagWord: u32, // index of the flag in `copyFlag`
}

override WG: u32 = 64u;

@group(0) @binding(0) var<uniform> G: GateParams;
@group(0) @binding(1) var<storage, read> flag: array<u32>;
@group(0) @binding(2) var<storage, read> shapes: array<u32>; // x, y per slot
@group(0) @binding(3) var<storage, read_write> args: array<u32>;

@compute @workgroup_size(WG)
fn gate_open(@builtin(global_invocation_id) gid: vec3u) {
  let s = gid.x;
  if (s >= G.slots) { return; }
  let open = flag[G.flagWord] != 0u;
  args[3u * s] = select(0u, shapes[2u * s], open);
  args[3u * s + 1u] = select(0u, shapes[2u * s + 1u], open);
  args[3u * s + 2u] = 1u;
}

@group(0) @binding(0) var<uniform> C: CopyParams;
@group(0) @binding(1) var<storage, read> copyFlag: array<u32>;
@group(0) @binding(2) var<storage, read> src: array<u32>;
@group(0) @binding(3) var<storage, read_write> copyArgs: array<u32>;

@compute @workgroup_size(1)
fn gate_copy() {
  let open = copyFlag[C.flagWord] != 0u;
  copyArgs[3u * C.slot] = select(0u, src[C.srcWord], open);
  copyArgs[3u * C.slot + 1u] = select(0u, src[C.srcWord + 1u], open);
  copyArgs[3u * C.slot + 2u] = select(1u, src[C.srcWord + 2u], open);
}

// One workgroup, before a region, per arguments buffer its indirect dispatches rewrite before every
// use (`rewritten`): zero when the region does not run, so that they dispatch nothing (no copy).
@group(0) @binding(0) var<uniform> Z: GateParams;
@group(0) @binding(1) var<storage, read> zeroFlag: array<u32>;
@group(0) @binding(2) var<storage, read_write> zeroed: array<u32>;

@compute @workgroup_size(64)
fn gate_zero(@builtin(local_invocation_index) lid: u32) {
  if (zeroFlag[Z.flagWord] != 0u) { return; }
  for (var k = lid; k < arrayLength(&zeroed); k += 64u) { zeroed[k] = 0u; }
}
