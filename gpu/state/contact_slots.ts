/**
 * How many contact (and pair, and marked) slots K each particle gets: {@link CONTACT_SLOTS}, or
 * fewer where the slots of every particle would not fit one storage binding of the device.
 *
 * @module
 */

/** Contact slots per particle K where every particle's slot fits: 16 (see {@link contactSlots}). */
export const CONTACT_SLOTS = 16;

/**
 * K, the contact (and pair, and marked) slots per particle: {@link CONTACT_SLOTS}, or fewer where
 * `count` particles' slots of 4 bytes each would not fit one storage binding of `maxBinding`
 * bytes (Table I's 6.5M-particle bowl: 5). Fewer slots may drop contacts; results record how many
 * (`gpu.contactsDropped`). Throws a `RangeError` below 4 slots, naming the binding limit.
 */
export function contactSlots(count: number, options: { maxBinding: number }): number {
  const fit = Math.floor(options.maxBinding / (4 * Math.max(1, count)));
  if (fit < 4) {
    throw new RangeError(
      `${count} particles leave ${fit} contact slots each in one storage binding of ` +
        `${options.maxBinding} bytes (at least 4 are needed); use an adapter with a larger ` +
        "maxStorageBufferBindingSize or a smaller scale",
    );
  }
  return Math.min(CONTACT_SLOTS, fit);
}

/** {@link contactSlots} for `count` particles on `device`: its largest storage binding. */
export function deviceContactSlots(device: GPUDevice, count: number): number {
  const maxBinding = Math.min(
    device.limits.maxStorageBufferBindingSize,
    device.limits.maxBufferSize,
  );
  return contactSlots(count, { maxBinding });
}
