// The elastic energy of one particle's bonds (a prelude shared by gpu/metrics/metrics.wgsl and
// gpu/metrics/step_budget.wgsl, defined once; host: gpu/metrics/bond_energy.ts). The including
// module declares q_pos, q_bondStart, q_bondList, q_bondClass, q_springClasses and the
// BROKEN_BIT override (gpu/state/bond_flags.ts BOND_BROKEN_BIT).
//
// Over particle i's bond list (each bond listed once, under its lower index, so each is counted
// once): x = Σ ½ ks (|x_j − x_i| − L)² over its intact bonds, y = its broken bonds (entries that
// carry BROKEN_BIT, gpu/systems/peridynamics/spring_breaking.wgsl).
fn bond_energy(i: u32) -> vec2f {
  let x = q_pos[i].xyz;
  var e = vec2f(0.0);
  for (var k = q_bondStart[i]; k < q_bondStart[i + 1u]; k++) {
    let w = q_bondList[k];
    if ((w & BROKEN_BIT) != 0u) {
      e.y += 1.0;
      continue;
    }
    let sc = q_springClasses[q_bondClass[k]];
    let d = length(q_pos[w].xyz - x) - sc.restLength;
    e.x += 0.5 * sc.ks * d * d;
  }
  return e;
}
