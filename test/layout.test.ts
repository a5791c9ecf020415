/**
 * The test tree mirrors the source tree (docs/conventions.md §Tests, issue 19): a reader who opens
 * `src-shared/journal/lots.ts` finds its tests at `test/unit/shared/journal/lots*.test.ts`. Checked here rather than
 * hoped for: every folder under test/unit and test/integration has its counterpart under src-shared, src-main or
 * src-renderer, and every test file is named after a module of that folder (its first dotted part: `lots.test.ts`,
 * `lots.properties.test.ts`), after the folder itself when the folder is a module (an `index.ts`:
 * `importers/tastytrade/tastytrade.test.ts`), or is a cross-module suite listed below with its reason.
 *
 * And the source files stay short (issue 31, item 5): no file of src-main, src-shared or src-renderer is over
 * MAX_SOURCE_LINES lines, split along its seams (docs/conventions.md §Code) rather than by halves.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir } from './paths';

/** The source root each first folder of a kind mirrors. */
const LAYERS: Readonly<Record<string, string>> = { shared: 'src-shared', main: 'src-main', renderer: 'src-renderer' };
const KINDS = ['unit', 'integration'] as const;
const MODULE_EXTENSIONS = ['.ts', '.tsx', '.mjs'];

/**
 * Tests that cross modules, by their path under test/ without `.test.ts` (any `.suffix` after the first dotted part
 * is allowed too): each says what it checks, in the folder of the layer it exercises.
 */
const CROSS_MODULE_SUITES: Readonly<Record<string, string>> = {
  'unit/shared/exposure/chain-picture': 'issue 21’s chain picture on hand-made chains: expiration-stats, dex, grid, sweep and fast-exp together',
  'unit/main/electron/desktop-check': 'scripts/desktop-check.mjs, the guard of `npm start`: a script, no module of src-main',
  'unit/main/electron/shell': 'the Electron shell booted with electron mocked: app, preload, menu, csp and window-state in one life',
  'unit/main/importers/bounded': 'what a hostile file can make every parser keep, broker importers and chain parsers alike',
  'unit/main/importers/linear-time': 'every importer and chain parser timed on growing inputs',
  'unit/renderer/pages/daily-figures': 'issue 18’s renderer arithmetic over positions/book, campaigns/figures and format',
  'integration/main/chains/parsers': 'every chain format’s parser and the chain helpers, on written files',
  'integration/main/chains/real-chains': 'every real chain file against its published figures',
  'integration/main/chains/sources': 'issue 21’s sources (Schwab JSON, yfinance CSV) through the parsers, POST /v1/chains and the CLI',
  'integration/main/db/repositories': 'every repository of src-main/db on one real database',
  'integration/main/importers/broker-cases': 'issue 9’s cases, across brokers',
  'integration/main/importers/broker-variants': 'issue 17’s file variants, across brokers',
  'integration/main/importers/conformance': 'every importer of the registry through the same checks',
  'integration/main/importers/event-order': 'the order of one instant’s rows, per importer',
  'integration/main/importers/real-files': 'every real broker file against its own totals',
  'integration/main/services/exposure/cache-keys': 'the chain cache and the server’s answer cache against the stored snapshots',
  'integration/main/server/answer-messages': 'what answers say over several routes (issue 18’s request items)',
  'integration/main/server/contract': 'the OpenAPI contract of every route',
  'integration/main/server/fuzz': 'hostile input to every route',
  'integration/main/server/grammar': 'the number and date grammar of every route’s parameters',
  'integration/main/server/routing-auth': 'key, rate limit and Host check of every route as dispatched',
  'integration/main/server/hostile-memory': 'the server’s memory under hostile requests to every route and the static files',
  'integration/main/server/upload-memory': 'the peak memory of hostile uploads to both upload routes',
  'integration/main/lake/lake': 'the whole Parquet lake read back with DuckDB',
  'integration/main/lake/lake-files': 'the lake as files: export filters, killed exports, bad files read back, the CLI',
};

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

function hasModule(folder: string, name: string): boolean {
  if (MODULE_EXTENSIONS.some((extension) => existsSync(join(folder, name + extension)))) return true;
  // A folder with an index is a module named after the folder (`importers/tastytrade/tastytrade.test.ts`).
  return basename(folder) === name && MODULE_EXTENSIONS.some((extension) => existsSync(join(folder, 'index' + extension)));
}

/** Every file of test/unit and test/integration under `root` that breaks the layout, with what is wrong. */
function layoutProblems(root: string, crossModule: Readonly<Record<string, string>> = CROSS_MODULE_SUITES): string[] {
  const problems: string[] = [];
  const testRoot = join(root, 'test');
  for (const kind of KINDS) {
    for (const file of filesUnder(join(testRoot, kind))) {
      const path = relative(testRoot, file);
      const [, layer, ...rest] = path.split('/');
      const source = layer === undefined ? undefined : LAYERS[layer];
      if (source === undefined || rest.length === 0) {
        problems.push(`test/${path}: not under test/${kind}/{${Object.keys(LAYERS).join(',')}}/<the module's folder>/`);
        continue;
      }
      const folder = join(root, source, ...rest.slice(0, -1));
      const folderShown = relative(root, folder) || source;
      if (!existsSync(folder) || !statSync(folder).isDirectory()) {
        problems.push(`test/${path}: its folder has no counterpart ${folderShown}/`);
        continue;
      }
      const name = basename(file);
      if (!name.endsWith('.test.ts')) continue; // a helper beside the tests that use it
      const moduleName = name.split('.')[0] ?? name;
      if (hasModule(folder, moduleName)) continue;
      if (crossModule[join(dirname(path), moduleName)] !== undefined) continue;
      problems.push(`test/${path}: ${folderShown}/ has no module ${moduleName} (name the test after its module, or list it in CROSS_MODULE_SUITES of test/layout.test.ts with why)`);
    }
  }
  for (const entry of Object.keys(crossModule)) {
    const folder = join(testRoot, dirname(entry));
    const stem = basename(entry);
    const present = existsSync(folder) && readdirSync(folder).some((name) => name.endsWith('.test.ts') && name.split('.')[0] === stem);
    if (!present) problems.push(`CROSS_MODULE_SUITES names test/${entry}.test.ts, which does not exist (remove or rename the entry)`);
  }
  return problems.sort();
}

describe('the test tree mirrors the modules', () => {
  it('every test folder has its source folder and every test file its module (or a listed reason)', () => {
    expect(layoutProblems(REPO_ROOT)).toEqual([]);
  });

  it('names a misplaced file, a test named after no module, a file outside the layers and a stale allow-list entry', () => {
    const root = tempDir('strikebook-layout-');
    const write = (path: string): void => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), '');
    };
    for (const path of ['src-shared/journal/lots.ts', 'src-main/importers/tastytrade/index.ts', 'src-main/server/app.ts']) write(path);
    for (const path of [
      'test/unit/shared/journal/lots.test.ts',
      'test/unit/shared/journal/lots.properties.test.ts',
      'test/unit/shared/journal/helpers.ts',
      'test/integration/main/importers/tastytrade/tastytrade.variants.test.ts',
      'test/integration/main/server/contract.test.ts',
      'test/unit/journal/lots.test.ts',
      'test/unit/shared/jornal/lots.test.ts',
      'test/unit/shared/journal/wheel.test.ts',
      'test/integration/main/helpers.ts',
      'test/integration/stray.test.ts',
    ]) write(path);
    const allowed = { 'integration/main/server/contract': 'every route', 'integration/main/server/fuzz': 'gone' };
    expect(layoutProblems(root, allowed)).toEqual([
      'test/unit/journal/lots.test.ts: not under test/unit/{shared,main,renderer}/<the module\'s folder>/',
      'test/unit/shared/jornal/lots.test.ts: its folder has no counterpart src-shared/jornal/',
      'test/unit/shared/journal/wheel.test.ts: src-shared/journal/ has no module wheel (name the test after its module, or list it in CROSS_MODULE_SUITES of test/layout.test.ts with why)',
      'test/integration/stray.test.ts: not under test/integration/{shared,main,renderer}/<the module\'s folder>/',
      'CROSS_MODULE_SUITES names test/integration/main/server/fuzz.test.ts, which does not exist (remove or rename the entry)',
    ].sort());
  });
});

/** The most lines a source file may have. */
const MAX_SOURCE_LINES = 400;
const SOURCE_ROOTS = ['src-main', 'src-shared', 'src-renderer'] as const;

/**
 * Files over MAX_SOURCE_LINES being split on other branches right now. This list only shrinks, to empty: an entry
 * whose file is short again (or gone) is an error, so the entry goes with the split.
 */
const LONG_FILES_BEING_SPLIT: readonly string[] = [
  'src-shared/journal/ledger.ts',
  'src-shared/journal/trade-walk.ts',
  'src-shared/journal/trades.ts',
  'src-shared/journal/corporate-actions.ts',
  'src-shared/journal/reconciliation.ts',
  'src-main/services/journal/service.ts',
  'src-main/services/journal/ledger-index.ts',
];

/** Lines as `wc -l` counts them, plus a last line without its newline. */
function lineCount(text: string): number {
  const newlines = text.split('\n').length - 1;
  return text.length === 0 || text.endsWith('\n') ? newlines : newlines + 1;
}

/** Every source file over `max` lines not in `allowed`, and every entry of `allowed` that is no longer over it. */
function lengthProblems(root: string, allowed: readonly string[] = LONG_FILES_BEING_SPLIT, max = MAX_SOURCE_LINES): string[] {
  const problems: string[] = [];
  const long = new Set<string>();
  for (const source of SOURCE_ROOTS) {
    for (const file of filesUnder(join(root, source))) {
      const lines = lineCount(readFileSync(file, 'utf8'));
      if (lines <= max) continue;
      const path = relative(root, file);
      long.add(path);
      if (!allowed.includes(path)) problems.push(`${path}: ${lines} lines, over ${max} (split it along its seams)`);
    }
  }
  for (const path of allowed) if (!long.has(path)) problems.push(`LONG_FILES_BEING_SPLIT names ${path}, which is not over ${max} lines now (remove the entry)`);
  return problems.sort();
}

describe('the source files stay short', () => {
  it(`no file of ${SOURCE_ROOTS.join(', ')} is over ${MAX_SOURCE_LINES} lines, but those being split`, () => {
    expect(lengthProblems(REPO_ROOT)).toEqual([]);
  });

  it('names a long file, counts a last line without its newline, and names a stale allow-list entry', () => {
    const root = tempDir('strikebook-lengths-');
    const write = (path: string, lines: number, lastNewline = true): void => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), 'x\n'.repeat(lines - 1) + (lastNewline ? 'x\n' : 'x'));
    };
    write('src-shared/short.ts', 3);
    write('src-shared/journal/long.ts', 4);
    write('src-main/long-no-newline.ts', 4, false);
    write('src-main/at-the-bound.ts', 3, false);
    write('src-renderer/pages/Long.tsx', 5);
    write('src-renderer/allowed.ts', 9);
    write('test/long.test.ts', 9);
    expect(lengthProblems(root, ['src-renderer/allowed.ts', 'src-shared/short.ts', 'src-main/gone.ts'], 3)).toEqual([
      'LONG_FILES_BEING_SPLIT names src-main/gone.ts, which is not over 3 lines now (remove the entry)',
      'LONG_FILES_BEING_SPLIT names src-shared/short.ts, which is not over 3 lines now (remove the entry)',
      'src-main/long-no-newline.ts: 4 lines, over 3 (split it along its seams)',
      'src-renderer/pages/Long.tsx: 5 lines, over 3 (split it along its seams)',
      'src-shared/journal/long.ts: 4 lines, over 3 (split it along its seams)',
    ]);
  });
});
