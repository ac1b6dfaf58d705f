/**
 * The flag of a broken bond in the ascending bond lists (`ParticleState.bondList`): set by the
 * system that breaks bonds (a brittle solid's spring breaking), read by collision detection (a
 * broken bond no longer excludes its pair). Partner indices stay below it.
 *
 * @module
 */

/** High bit of a `bondList` entry: the bond is broken. */
export const BOND_BROKEN_BIT = 0x80000000;
