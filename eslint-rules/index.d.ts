import type { Rule } from 'eslint';

/** Strikebook's lint rules (index.js): the layer table and the import-loop check of docs/architecture.md §Layout. */
declare const plugin: {
  meta: { name: string };
  rules: { layers: Rule.RuleModule; 'no-import-loops': Rule.RuleModule };
};
export default plugin;
export function placeOf(path: string): { tree: string; layer: number | undefined; name?: string } | undefined;
export function upwardArrow(from: string, to: string): string | undefined;
