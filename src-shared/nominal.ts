/**
 * Nominal (branded) types over a primitive: `Nominal<number, 'Minor'>` is a number at run time and to every
 * reader, but the compiler will not take a plain number, or a number of another brand, where it is expected.
 * It is for figures whose units are easy to mix (money minor units vs cents, docs/conventions.md §Money). The
 * brand is a phantom property: it exists in types only, so branding costs nothing at run time.
 */
declare const species: unique symbol;

export type Nominal<T, Name extends string> = T & { readonly [species]: Name };
