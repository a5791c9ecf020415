// @ts-check
/**
 * The import graph of the source roots, as the loop check sees it (docs/architecture.md §Layout): every relative
 * import, export-from, `import type`, `import('./x')` call and `import('./x').T` type is an edge. A type import is an
 * edge because a loop of types is a loop of meaning: the files cannot be read, moved or split one without the other.
 * A worker started by URL (`new Worker(new URL(...))`) is no edge: it is another thread, reached by messages.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.mjs', '.js'];

/** @param {string} dir @returns {string[]} */
function sourceFilesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFilesUnder(path);
    return SOURCE_EXTENSIONS.some((extension) => entry.name.endsWith(extension)) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * The file a relative specifier names, as the bundler resolves it (`./x` → x.ts, x.tsx, x/index.ts; `./x.js` → x.ts),
 * or undefined for a package or a file that is not there.
 * @param {string} fromFile @param {string} specifier @returns {string | undefined}
 */
export function resolveImport(fromFile, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(fromFile), specifier);
  const stem = base.replace(/\.(?:js|mjs)$/, '');
  const candidates = [
    base,
    ...SOURCE_EXTENSIONS.map((extension) => stem + extension),
    ...SOURCE_EXTENSIONS.map((extension) => join(base, 'index' + extension)),
  ];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

/** @param {string} file @param {string} text @returns {string[]} the files `file` imports (resolved, deduplicated) */
export function importsOf(file, text) {
  const found = ts.preProcessFile(text, true, true).importedFiles;
  const targets = new Set();
  for (const { fileName } of found) {
    const target = resolveImport(file, fileName);
    if (target !== undefined) targets.add(target);
  }
  return [...targets];
}

/**
 * @typedef {{ files: string[], edges: Map<string, string[]>, texts: Map<string, string> }} Graph
 * @param {string} root @param {readonly string[]} dirs @returns {Graph}
 */
export function buildGraph(root, dirs) {
  const files = dirs.flatMap((dir) => sourceFilesUnder(join(root, dir))).sort();
  const edges = new Map();
  const texts = new Map();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    texts.set(file, text);
    edges.set(file, importsOf(file, text));
  }
  return { files, edges, texts };
}

/**
 * The strongly connected components of more than one file, or of one file that imports itself: each is a set of
 * files that import each other round a loop (Tarjan, iterative so a deep chain cannot overflow the stack).
 * @param {Graph} graph @returns {string[][]} each loop's files, sorted; loops sorted by their first file
 */
export function importLoops(graph) {
  /** @type {Map<string, number>} */ const index = new Map();
  /** @type {Map<string, number>} */ const low = new Map();
  /** @type {Set<string>} */ const onStack = new Set();
  /** @type {string[]} */ const stack = [];
  /** @type {string[][]} */ const loops = [];
  let counter = 0;
  for (const start of graph.files) {
    if (index.has(start)) continue;
    /** @type {Array<{ file: string, next: number }>} */
    const work = [{ file: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter);
    counter += 1;
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame === undefined) break;
      const targets = (graph.edges.get(frame.file) ?? []).filter((target) => graph.edges.has(target));
      if (frame.next < targets.length) {
        const target = targets[frame.next];
        frame.next += 1;
        if (target === undefined) continue;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter);
          counter += 1;
          stack.push(target);
          onStack.add(target);
          work.push({ file: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.file, Math.min(low.get(frame.file) ?? 0, index.get(target) ?? 0));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.file, Math.min(low.get(parent.file) ?? 0, low.get(frame.file) ?? 0));
      if (low.get(frame.file) !== index.get(frame.file)) continue;
      /** @type {string[]} */
      const component = [];
      for (;;) {
        const file = stack.pop();
        if (file === undefined) break;
        onStack.delete(file);
        component.push(file);
        if (file === frame.file) break;
      }
      const selfLoop = component.length === 1 && (graph.edges.get(frame.file) ?? []).includes(frame.file);
      if (component.length > 1 || selfLoop) loops.push(component.sort());
    }
  }
  return loops.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

/**
 * One shortest round from `file` back to itself inside its loop, for the message (`a → b → c → a`).
 * @param {Graph} graph @param {string} file @param {ReadonlySet<string>} within @returns {string[]}
 */
export function shortestRound(graph, file, within) {
  /** @type {Map<string, string>} */ const cameFrom = new Map();
  const queue = [file];
  for (let head = 0; head < queue.length; head += 1) {
    const current = queue[head];
    if (current === undefined) break;
    for (const target of graph.edges.get(current) ?? []) {
      if (!within.has(target)) continue;
      if (target === file) {
        const round = [file];
        for (let step = current; step !== file; step = cameFrom.get(step) ?? file) round.unshift(step);
        round.unshift(file);
        return round;
      }
      if (cameFrom.has(target)) continue;
      cameFrom.set(target, current);
      queue.push(target);
    }
  }
  return [file, file];
}

/** @param {string} root @param {string} file */
export function shown(root, file) {
  return relative(root, file).split(sep).join('/');
}
