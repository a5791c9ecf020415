/** The renderer's charts, one file per kind (docs/ui.md "Charts"). */
export * from './StrikeChart';
