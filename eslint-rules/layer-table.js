// @ts-check
/**
 * The layer table (docs/architecture.md §Layout): each source tree's layers, top to bottom. A file may import its own
 * layer and any layer below it; an import of a layer above is an upward arrow, a lint error (`strikebook/layers`).
 * Across trees only src-shared is below: src-main and src-renderer may import it, never each other, and it imports
 * neither. A member ending in `/` is a folder, `*` the files at the tree's root not named elsewhere, anything else
 * one file without its extension, `**` the whole tree; the longest member that matches a file wins (`lake/cli` over `lake/`).
 *
 * @typedef {{ name: string, members: readonly string[], holds: string }} Layer
 * @typedef {{ tree: string, layers: readonly Layer[] }} TreeLayers
 * @type {readonly TreeLayers[]}
 */
export const LAYER_TABLE = [
  {
    tree: 'src-main',
    layers: [
      {
        name: 'entry',
        members: ['electron/', 'cli', 'serve', 'backfill-cli', 'lake/cli', 'cli-errors', 'context'],
        holds: 'the desktop shell, the CLI commands, the headless entry and the context they build',
      },
      { name: 'server', members: ['server/'], holds: 'the HTTP app: route kit, routes, gate, presenters' },
      { name: 'services', members: ['services/'], holds: 'the use cases, the workers, the lake export, the demo loader' },
      {
        name: 'adapters',
        members: ['db/', 'importers/', 'chains/', 'lake/', 'settings', 'setting-rules'],
        holds: 'the database, broker importers, chain parsers, the lake files, the stored settings',
      },
      { name: 'base', members: ['clock', 'paths', 'checkpoint'], holds: 'the clock, the data paths, the cancel checkpoint' },
    ],
  },
  {
    tree: 'src-shared',
    layers: [
      { name: 'api', members: ['api/'], holds: 'the /v1 contract: schemas, problem codes, constants re-exported for the renderer' },
      { name: 'demo', members: ['demo/'], holds: 'the seeded demo market and journal (loaded by services)' },
      { name: 'journal', members: ['journal/'], holds: 'the ledger and its queries' },
      { name: 'exposure', members: ['exposure/'], holds: 'greeks, exposure, levels, events' },
      { name: 'base', members: ['*'], holds: 'money, calendar, zone, maps, text, bounds, trading-days, nominal, ...' },
    ],
  },
  { tree: 'src-renderer', layers: [{ name: 'renderer', members: ['**'], holds: 'the React app' }] },
];

/** The trees a tree may import besides itself. */
export const TREE_BELOW = /** @type {Readonly<Record<string, readonly string[]>>} */ ({
  'src-main': ['src-shared'],
  'src-renderer': ['src-shared'],
  'src-shared': [],
});
