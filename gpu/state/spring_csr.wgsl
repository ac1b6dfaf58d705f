// Packed spring CSR entries (gpu/state/spring_csr.ts): word = partner | class << PARTNER_BITS;
// class 0 is the zero spring (a broken bond). PARTNER_BITS is passed by the host, defined once.
override PARTNER_BITS: u32;

struct SpringClass {
  restLength: f32,
  ks: f32,
  kd: f32,
  breakStretch: f32,
}

fn spring_partner(word: u32) -> u32 {
  return word & ((1u << PARTNER_BITS) - 1u);
}

fn spring_class(word: u32) -> u32 {
  return word >> PARTNER_BITS;
}
