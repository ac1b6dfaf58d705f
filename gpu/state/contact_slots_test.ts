import assert from "node:assert/strict";
import { CONTACT_SLOTS, contactSlots } from "./contact_slots.ts";

Deno.test("contactSlots: 16 per particle, fewer where they would not fit one binding", () => {
  const maxBinding = 128 * 2 ** 20;
  assert.equal(contactSlots(2161, { maxBinding }), CONTACT_SLOTS);
  // Table I's bowl: 6,512,570 particles leave 5 slots of 4 bytes in 128 MiB
  assert.equal(contactSlots(6512570, { maxBinding }), 5);
  assert.equal(contactSlots(2 ** 21, { maxBinding }), CONTACT_SLOTS);
  assert.equal(contactSlots(2 ** 21 + 1, { maxBinding }), 15);
  assert.throws(
    () => contactSlots(10_000_000, { maxBinding }),
    /10000000 particles leave 3 contact slots each in one storage binding of 134217728 bytes/,
  );
});
