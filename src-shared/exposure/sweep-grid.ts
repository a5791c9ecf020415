/** The profile sweep's grid (docs/exposure.md, "GEX levels"): 201 points evenly on [0.8S, 1.2S]. */
export const SWEEP_POINTS = 201;
export const SWEEP_LOW = 0.8;
export const SWEEP_HIGH = 1.2;
