/**
 * The sentence of the paper each claim tests (`claims.ts`), copied word for word from the paper
 * (a test finds every one in `shared/paper/merging-splitting.txt`), with where it stands. A claim
 * quotes what it reads; where the sentence says less than the claim measures (Fig. 9's "similar
 * levels of complex interactions", Fig. 7's "stably handle variations in mass"), the quote shows
 * the reader how far the claim goes beyond the paper's words. The validation claims (w, w2, x, x2)
 * test the harness's fluids against experiment and physics, not a sentence of the paper.
 *
 * @module
 */

/** A claim's sentence of the paper and where it stands. */
export interface ClaimQuote {
  where: string;
  quote: string;
}

/** The sentence each claim of the paper tests, by claim id. */
export const CLAIM_QUOTES: Readonly<Record<string, ClaimQuote>> = {
  "l3": {
    where: "§6.1 (Fig. 3 discussion)",
    quote:
      "Impulse-based collisions fail to prevent penetration, since they handle colliding particles in isolation using instant velocity updates.",
  },
  "j2": {
    where: "§5.2",
    quote: "We use a number between 8 and 64 in our tests, producing similar results.",
  },
  "q2": {
    where: "§6.2 (Fig. 9 discussion)",
    quote:
      "As can be seen in the figure, similar levels of complex interactions between solid and fluid simulations can be achieved using FLIP as well.",
  },
  "a": {
    where: "§6.1 (Fig. 4 discussion)",
    quote:
      "Our merging-and-splitting method produces perfect separation between the fluid and the solid systems and completely prevents penetration without introducing instabilities.",
  },
  "a2": {
    where: "§6.1 (Fig. 4 discussion)",
    quote:
      "Our merging-and-splitting method produces perfect separation between the fluid and the solid systems and completely prevents penetration without introducing instabilities.",
  },
  "b": {
    where: "§6.1 (Fig. 4 discussion)",
    quote:
      "As can be seen in the figure, penetrations cannot be avoided with weak penalty or SPH-based forces.",
  },
  "c": {
    where: "§6.1 (Fig. 4 discussion)",
    quote:
      "Impulse-based collisions cannot prevent penetration either and consistent low-velocity impacts without position correction lead to fluid particles slowly passing through the cloth layer.",
  },
  "d": {
    where: "§6.1 (Fig. 4 discussion)",
    quote:
      "As can be seen in the figure, penetrations cannot be avoided with weak penalty or SPH-based forces.",
  },
  "e": {
    where: "§6.1 (Fig. 4 discussion)",
    quote: "Stronger forces lead to fluid particles bouncing back with high velocity.",
  },
  "e2": {
    where: "Fig. 4 caption",
    quote:
      "Notice that only our merging-and-splitting approach prevents penetrations without introducing instability.",
  },
  "f": {
    where: "§3 (splitting; Fig. 2 discussion)",
    quote: "Note that any solution that satisfies Equation 10 conserves both momentum and energy.",
  },
  "g": {
    where: "§1 (summarising the §6 results)",
    quote:
      "Our tests show that our merging-and-splitting scheme completely prevents inter-penetrations without introducing instabilities.",
  },
  "h": {
    where: "§6.4 (Fig. 10 discussion)",
    quote:
      "Notice that energy conservation in this example has a relatively minor impact on the final result, causing the fluid to jump back slightly higher after impact.",
  },
  "i": {
    where: "§6.4 (Fig. 11 discussion)",
    quote:
      "However, when the limit is too small, it prevents properly resolving some collision events, failing to stop some fluid particles to pass through the cloth model (Fig. 11f).",
  },
  "j": {
    where: "§6.4 (Fig. 11 discussion)",
    quote:
      "Therefore, allowing an unlimited number of particles to merge into a single meta-particle effectively rigidifies the entire cloth, significantly impacting the simulation outcome (Fig. 11b).",
  },
  "k": {
    where: "§6.1 (Fig. 3 discussion)",
    quote:
      "Our merging-and-splitting approach completely prevents penetration and properly resolves the collisions without introducing instabilities for both cases.",
  },
  "l": {
    where: "§6.1 (Fig. 3 discussion)",
    quote:
      "As can be seen in the figure, using a weak penalty or SPH-based force fails to resolve penetration.",
  },
  "l2": {
    where: "§6.1 (Fig. 3 discussion)",
    quote:
      "As can be seen in the figure, using a weak penalty or SPH-based force fails to resolve penetration.",
  },
  "m": {
    where: "§6.1 (Fig. 3 discussion)",
    quote:
      "Increasing the stiffness of the force formulation helps, but when the force is too strong with either force-based formulation, it can make the simulation system highly unstable.",
  },
  "m2": {
    where: "§6.1 (Fig. 3 discussion)",
    quote:
      "Increasing the stiffness of the force formulation helps, but when the force is too strong with either force-based formulation, it can make the simulation system highly unstable.",
  },
  "a3": {
    where: "Fig. 4 (caption)",
    quote:
      "Notice that only our merging-and-splitting approach prevents penetrations without introducing instability.",
  },
  "k2": {
    where: "Fig. 3 (caption)",
    quote:
      "Only our merging-and-splitting approach prevents penetrations without introducing instability for both cases.",
  },
  "p4": {
    where: "§6.1 (Fig. 5 discussion)",
    quote: "Eventually, all collision handling methods lead to fracture",
  },
  "o": {
    where: "§6.1 (Fig. 5 discussion)",
    quote: "Weak forces or impulse-based collisions lead to penetrations before fracture.",
  },
  "p": {
    where: "§6.1 (Fig. 5 discussion)",
    quote: "When the collision forces are too strong, the wall crumbles into tiny pieces.",
  },
  "n": {
    where: "§6.1 (Fig. 7 discussion)",
    quote:
      "Our merging-and-splitting method can stably handle variations in mass, since meta particles allow significant energy transfer between objects during each time step without introducing instabilities, as demonstrated in Fig. 7.",
  },
  "r": {
    where: "§6.1 (Fig. 3 discussion)",
    quote:
      "Notice that the stiffness that works for the top row does not work for the bottom row showing faster impact and vice-versa.",
  },
  "s": {
    where: "§6.1 (before the Fig. 5 discussion)",
    quote:
      "Particle-based fracture simulations using peridynamics are typically handled using penalty forces [1], which require extremely small time step size",
  },
  "q": {
    where: "§6.2 (Fig. 9 discussion)",
    quote:
      "As can be seen in the figure, similar levels of complex interactions between solid and fluid simulations can be achieved using FLIP as well.",
  },
  "t": {
    where: "§6.2 (Fig. 8 discussion), Fig. 8 top",
    quote:
      "The cloth model contains only a single layer of particles. Nonetheless, no fluid particle penetrates through the cloth surface.",
  },
  "t2": {
    where: "§6.2 (Fig. 8 discussion), Fig. 8 top",
    quote:
      "The cloth model contains only a single layer of particles. Nonetheless, no fluid particle penetrates through the cloth surface.",
  },
  "p2": {
    where: "§6.1 (Fig. 5 discussion)",
    quote:
      "Eventually, all collision handling methods lead to fracture, but they differ by the amount of inter-penetration occurring prior to fracture and the visual quality of the fracture. Our merging-and-splitting scheme, in comparison, produces stable and expected results without any parameter tuning (Fig. 6).",
  },
  "p3": {
    where: "§6.1 (Fig. 5 discussion)",
    quote:
      "Eventually, all collision handling methods lead to fracture, but they differ by the amount of inter-penetration occurring prior to fracture and the visual quality of the fracture. Our merging-and-splitting scheme, in comparison, produces stable and expected results without any parameter tuning (Fig. 6).",
  },
  "u": {
    where: "§6.2 (Fig. 8 discussion), Fig. 8 middle",
    quote:
      "In the dam break example, the first impact of fluid particles lead to small fractures around the wall. These fractures form weak points that ultimately break the wall and the broken pieces are carried away by the fluid.",
  },
  "v": {
    where: "§6.2 (Fig. 8 discussion), Fig. 8 bottom",
    quote: "The next example shows a bowl breaking as it hits the water surface.",
  },
  "u2": {
    where: "§6.2 (Fig. 8 discussion), Fig. 8 middle",
    quote:
      "In the dam break example, the first impact of fluid particles lead to small fractures around the wall. These fractures form weak points that ultimately break the wall and the broken pieces are carried away by the fluid.",
  },
  "u3": {
    where: "§6.2 (Fig. 8 discussion), Fig. 8 middle",
    quote:
      "In the dam break example, the first impact of fluid particles lead to small fractures around the wall. These fractures form weak points that ultimately break the wall and the broken pieces are carried away by the fluid.",
  },
  "z": {
    where: "§3 (after Eq. 16)",
    quote:
      "We have empirically verified that the order of merging does not affect the outcome of the final particle velocities after splitting.",
  },
  "y": {
    where: "§6.3 (Table I)",
    quote:
      "Notice that particle merging and particle splitting operations take only a negligible fraction of the computation time.",
  },
  "y2": {
    where: "§6.3 (Table I)",
    quote:
      "Yet, because our implementation uses a two-stage integration scheme, our merging-and-splitting implementation effectively doubles the computation time (by introducing an additional integration step).",
  },
};

/** The claims that validate the harness rather than test a sentence of the paper. */
export const VALIDATION_CLAIMS: readonly string[] = ["w", "w2", "x", "x2"];
