/** The renderer's charts, one file per kind (docs/ui.md "Charts"). */
export * from './base';
export * from './MoneyCharts';
export * from './StrikeChart';
export * from './ProfileChart';
export * from './LevelsChart';
export * from './RollOffBars';
export * from './TermStructureChart';
export * from './HeatMap';
export * from './StatBars';
export type { HeatScaleMode } from './scales';
export * from './dealer-map';
