// @ts-check
/**
 * Strikebook's own lint rules (wired in eslint.config.js): the layer table and the import-loop check of
 * docs/architecture.md §Layout. `strikebook/layers` reads one file's imports; `strikebook/no-import-loops` builds the
 * import graph of the source trees once per lint run and reports each file that sits in a loop, at its import of the
 * next file round it. Both count `import type`: a loop of types ties files together as much as a loop of values.
 */
import { dirname, relative, resolve, sep } from 'node:path';
import { buildGraph, importLoops, resolveImport, shortestRound, shown } from './import-graph.js';
import { LAYER_TABLE, TREE_BELOW } from './layer-table.js';

const WHERE = 'docs/architecture.md §Layout';

/**
 * @typedef {{ tree: string, layer: number, name: string } | { tree: string, layer: undefined }} Place
 * @param {string} path a path relative to the root, `/`-separated, with or without extension
 * @param {typeof LAYER_TABLE} table
 * @returns {Place | undefined} undefined outside the trees
 */
export function placeOf(path, table = LAYER_TABLE) {
  const stem = path.replace(/\.(?:d\.ts|tsx?|mts|mjs|js)$/, '');
  for (const { tree, layers } of table) {
    if (!stem.startsWith(tree + '/')) continue;
    const inner = stem.slice(tree.length + 1);
    let best = { length: -1, layer: -1 };
    layers.forEach((layer, index) => {
      for (const member of layer.members) {
        const matches =
          member === '**' ? true
          : member === '*' ? !inner.includes('/')
          : member.endsWith('/') ? inner.startsWith(member)
          : inner === member;
        // `*` and `**` lose to any named member.
        const length = member === '**' ? 0 : member === '*' ? 1 : member.length + 1;
        if (matches && length > best.length) best = { length, layer: index };
      }
    });
    const layer = layers[best.layer];
    return layer === undefined ? { tree, layer: undefined } : { tree, layer: best.layer, name: layer.name };
  }
  return undefined;
}

/** @param {typeof LAYER_TABLE[number]} tree */
function order(tree) {
  return tree.layers.map((layer) => layer.name).join(' → ');
}

/**
 * The arrow from one place to another, or why it goes the wrong way (undefined when it is allowed).
 * @param {string} from root-relative file @param {string} to root-relative target
 * @param {typeof LAYER_TABLE} table
 * @returns {string | undefined}
 */
export function upwardArrow(from, to, table = LAYER_TABLE) {
  const source = placeOf(from, table);
  const target = placeOf(to, table);
  if (source === undefined || target === undefined) return undefined;
  if (source.tree !== target.tree) {
    if ((TREE_BELOW[source.tree] ?? []).includes(target.tree)) return undefined;
    return `${source.tree} may not import ${target.tree} (${WHERE}: src-main and src-renderer stand on src-shared, not on each other)`;
  }
  if (source.layer === undefined || target.layer === undefined) return undefined;
  if (target.layer >= source.layer) return undefined;
  const tree = table.find((entry) => entry.tree === source.tree);
  if (tree === undefined) return undefined;
  return `upward import: ${source.tree} ${source.name} may not import ${target.name} (layers top to bottom: ${order(tree)}; ${WHERE})`;
}

/**
 * The module specifier of an import-like node, when it is a plain string.
 * @param {any} node
 * @returns {string | undefined}
 */
function specifierOf(node) {
  const source = node.type === 'TSImportType' ? (node.source ?? node.argument?.literal ?? node.argument) : node.source;
  return source && source.type === 'Literal' && typeof source.value === 'string' ? source.value : undefined;
}

const IMPORT_NODES = ['ImportDeclaration', 'ExportNamedDeclaration', 'ExportAllDeclaration', 'ImportExpression', 'TSImportType'];

/** @param {import('eslint').Rule.RuleContext} context */
function rootOf(context) {
  const option = context.options[0];
  return option && typeof option.root === 'string' ? option.root : context.cwd;
}

/** @type {import('eslint').Rule.RuleModule} */
const layers = {
  meta: {
    type: 'problem',
    docs: { description: `Imports go down the layer table of ${WHERE}, never up` },
    schema: [{ type: 'object', properties: { root: { type: 'string' } }, additionalProperties: false }],
    messages: {
      upward: '{{why}}',
      unplaced: '{{file}} is in no layer of the table (eslint-rules/layer-table.js): give it one and name it in {{where}}',
    },
  },
  create(context) {
    const root = rootOf(context);
    const file = relative(root, context.filename).split(sep).join('/');
    const place = placeOf(file);
    if (place === undefined) return {};
    /** @type {import('eslint').Rule.RuleListener} */
    const listener = {
      Program(node) {
        if (place.layer === undefined) context.report({ node, messageId: 'unplaced', data: { file, where: WHERE } });
      },
    };
    for (const type of IMPORT_NODES) {
      listener[type] = (/** @type {any} */ node) => {
        const specifier = specifierOf(node);
        if (specifier === undefined || !specifier.startsWith('.')) return;
        const target = relative(root, resolve(dirname(context.filename), specifier)).split(sep).join('/');
        const why = upwardArrow(file, target);
        if (why !== undefined) context.report({ node, messageId: 'upward', data: { why } });
      };
    }
    return listener;
  },
};

/** @type {Map<string, { graph: ReturnType<typeof buildGraph>, loopOf: Map<string, Set<string>> }>} */
const graphs = new Map();

/**
 * The graph of `dirs` under `root`, built once per lint run; built again when the file being linted is not as the
 * graph read it (an editor's unsaved text, a fix applied), so the loops reported are those of the text in hand.
 * @param {string} root @param {readonly string[]} dirs @param {string} file @param {string} text
 */
function graphFor(root, dirs, file, text) {
  const key = root + '\0' + dirs.join('\0');
  const cached = graphs.get(key);
  const known = cached?.graph.texts.get(file);
  if (cached !== undefined && (known === undefined || known === text)) return cached;
  const graph = buildGraph(root, dirs);
  graph.texts.set(file, text);
  /** @type {Map<string, Set<string>>} */
  const loopOf = new Map();
  for (const loop of importLoops(graph)) {
    const members = new Set(loop);
    for (const member of loop) loopOf.set(member, members);
  }
  const entry = { graph, loopOf };
  graphs.set(key, entry);
  return entry;
}

/** @type {import('eslint').Rule.RuleModule} */
const noImportLoops = {
  meta: {
    type: 'problem',
    docs: { description: `No import loops over the source trees, type imports included (${WHERE})` },
    schema: [
      {
        type: 'object',
        properties: { root: { type: 'string' }, dirs: { type: 'array', items: { type: 'string' } } },
        additionalProperties: false,
      },
    ],
    messages: {
      loop: 'import loop: {{round}} ({{count}} files in the loop: {{members}}). Break it by moving what both sides need down a floor ({{where}})',
    },
  },
  create(context) {
    const root = rootOf(context);
    const option = context.options[0];
    const dirs = option && Array.isArray(option.dirs) ? option.dirs : ['src-main', 'src-shared', 'src-renderer'];
    const file = resolve(context.filename);
    if (!dirs.some((dir) => file.startsWith(resolve(root, dir) + sep))) return {};
    return {
      Program(program) {
        const { graph, loopOf } = graphFor(root, dirs, file, context.sourceCode.text);
        const members = loopOf.get(file);
        if (members === undefined) return;
        const round = shortestRound(graph, file, members);
        const next = round[1];
        /** @type {any} */
        let at = program;
        for (const statement of program.body) {
          const specifier = specifierOf(statement);
          if (specifier !== undefined && next !== undefined && resolveImport(file, specifier) === next) {
            at = statement;
            break;
          }
        }
        context.report({
          node: at,
          messageId: 'loop',
          data: {
            round: round.map((step) => shown(root, step)).join(' → '),
            count: String(members.size),
            members: [...members].map((member) => shown(root, member)).join(', '),
            where: WHERE,
          },
        });
      },
    };
  },
};

export default { meta: { name: 'strikebook' }, rules: { layers, 'no-import-loops': noImportLoops } };
