/** The import graph of the source trees (import-graph.js). */
export interface Graph {
  files: string[];
  edges: Map<string, string[]>;
  texts: Map<string, string>;
}
export function resolveImport(fromFile: string, specifier: string): string | undefined;
export function importsOf(file: string, text: string): string[];
export function buildGraph(root: string, dirs: readonly string[]): Graph;
export function importLoops(graph: Graph): string[][];
export function shortestRound(graph: Graph, file: string, within: ReadonlySet<string>): string[];
export function shown(root: string, file: string): string;
