/**
 * The paper's figure captions (Truong et al. 2021, "Particle Merging-and-Splitting"), quoted from
 * the text extracted from its PDF (`../shared/paper/merging-splitting.txt`, outside the repository,
 * so a clone needs it not): the words are the paper's; only the extraction's doubled mathematics is
 * written once (`20×20\times` as 20×, `α=0𝛼0\alpha=0` as α = 0, `nminsubscript𝑛n_{\min}` as
 * n_min). The docs task writes each beside our frames on its findings page.
 *
 * @module
 */

/** Caption of each paper figure the findings pages show, by figure number. */
export const PAPER_CAPTIONS: Readonly<Record<number, string>> = {
  3: "Comparison of different methods for handling solid-solid collisions: cross-section views of " +
    "simulations including a soft elastic cloth hit by a solid ball in free fall. The bottom row " +
    "shows the same simulation with the solid ball falling from a higher initial position (i.e. " +
    "faster impact). All particles have identical mass and weak/medium/strong penalty and " +
    "SPH-based forces differ by an order of magnitude. Only our merging-and-splitting approach " +
    "prevents penetrations without introducing instability for both cases.",
  4: "Comparison of different methods for handling solid-fluid collisions: cross-section views of " +
    "simulations including a soft elastic cloth hit by a fluid beam. Each column shows the same " +
    "simulation at two different time steps. All particles have identical mass and weak/strong " +
    "penalty and SPH-based force stiffness parameters differ by an order of magnitude. Notice " +
    "that only our merging-and-splitting approach prevents penetrations without introducing " +
    "instability.",
  5: "Comparison of different methods for collision handling in fracture simulation: a solid " +
    "brittle wall is hit by a dense ball with 20× heavier particles. The bottom row shows the " +
    "same simulation from a different view at a later time step. Notice that only our " +
    "merging-and-splitting approach can produce a stable fracture simulation with pleasing result.",
  6: "Frames from our simulation with high impact collision between a ball and a brittle wall " +
    "using peridynamics with merging-and-splitting.",
  7: "Different mass ratios: cross-section views of simulations including a soft elastic cloth hit " +
    "by a solid ball made up of the same or heavier particles using our merging-and-splitting " +
    "method.",
  8: "Example frames from our simulation tests for coupling peridynamics and SPH using " +
    "merging-and-splitting.",
  9: "Frames from our simulation system coupling FLIP with (top) mass-spring system and (bottom) " +
    "peridynamics.",
  10: "Cross-section view of a simple solid-fluid coupling test, including a column of fluid " +
    "falling onto an elastic cloth model, demonstrating the impact of different energy " +
    "conservation parameters: (a) no energy preservation with α = 0 and β = 0, (b) full energy " +
    "preservation for merging using α = 1 and no energy preservation with velocity " +
    "synchronization using β = 0, and (c) full energy preservation with α = 1 and β = 1.",
  11:
    "A block of fluid falling with gravity onto a soft elastic cloth: (a) the initial conditions " +
    "before the collision and (b-f) the simulation state a few seconds after the collision, " +
    "comparing different parameters for n_min, and n_max that limit the number of particles in a " +
    "meta-particle. Cloth particles having the same color are merged into the same " +
    "meta-particle. Notice that (b) using an unlimited number of particles in a meta-particle " +
    "with n_min = n_max = ∞ leads to rigidification and (f) using too small limits causes leaks.",
};
