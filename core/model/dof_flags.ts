/**
 * The flag bits of a DOF slot of an implicit spring network: active (a live DOF with a member the
 * network integrates) and fixed (a pinned member). The f64 reference classifies DOFs with them and
 * the GPU spring network writes them into its shader (`gpu/systems/spring-network/`), so both read
 * one definition.
 *
 * @module
 */

/** Flag bit of an active DOF slot: live, with a member the spring network integrates. */
export const DOF_ACTIVE = 1;
/** Flag bit of a fixed DOF slot: an active DOF with a pinned member (its velocity stays 0). */
export const DOF_FIXED = 2;
