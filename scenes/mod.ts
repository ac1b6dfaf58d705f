/**
 * `scenes/`: see DESIGN.md for what this layer holds. Nothing is public here yet.
 *
 * @module
 */
export {};
