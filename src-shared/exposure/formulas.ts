/**
 * The formulas dealer gamma is scaled by (docs/exposure.md): the domain's own words, here so that the exposure code
 * imports no part of the /v1 contract; api/constants.ts re-exports them for the schemas and the renderer. No imports.
 */

/** `formula` of /gex: how dealer gamma is scaled at spot S (docs/exposure.md). */
export const FORMULAS = ['nominal', 'per_1dollar', 'per_1pct'] as const;
export type Formula = (typeof FORMULAS)[number];
/** `formula` when none is given. */
export const DEFAULT_FORMULA: Formula = 'nominal';
