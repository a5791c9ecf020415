// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import regexpPlugin from 'eslint-plugin-regexp';
import strikebook from './eslint-rules/index.js';

const nodeBuiltins = [
  'assert', 'buffer', 'child_process', 'cluster', 'crypto', 'dgram', 'dns', 'events', 'fs', 'fs/promises', 'http',
  'http2', 'https', 'module', 'net', 'os', 'path', 'perf_hooks', 'process', 'querystring', 'readline', 'stream',
  'string_decoder', 'timers', 'tls', 'url', 'util', 'v8', 'vm', 'worker_threads', 'zlib',
];

/** `as X` / `<X>` of a brand, as no-restricted-syntax selectors with the message saying where the brand is made. */
function brandCasts(names, message) {
  return [
    `TSAsExpression > TSTypeReference[typeName.name=/^(${names})$/]`,
    `TSAsExpression > TSUnionType > TSTypeReference[typeName.name=/^(${names})$/]`,
    `TSTypeAssertion > TSTypeReference[typeName.name=/^(${names})$/]`,
  ].map((selector) => ({ selector, message }));
}
const moneyCasts = brandCasts('Minor|Cents|MinorFields', 'No `as Minor`/`as Cents` outside src-shared/money.ts and src-main/db: make money with toMinor, parseMoneyMinor, the branded sums, or asMinor at a hot loop\'s edge (docs/conventions.md §Money).');
const idCasts = brandCasts('Ticker|AccountId|TradeId|SnapshotId', 'No `as Ticker`/`as AccountId`/`as TradeId`/`as SnapshotId` outside src-shared/ids.ts: make one with asTicker, tickerOrNull, asAccountId, asTradeId or asSnapshotId where the value enters (docs/conventions.md §Names and ids).');

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'release/**', 'test-results/**', 'coverage/**', '.stryker-tmp/**', 'reports/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Linear-time parsing (docs/importers.md §Linear time): a pattern that backtracks superlinearly on user text can
    // hold the process for seconds on a few KB. The recommended set keeps the patterns themselves tidy.
    ...regexpPlugin.configs.recommended,
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
  },
  {
    files: ['src-*/**/*.{ts,tsx}'],
    rules: {
      'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
      'regexp/no-super-linear-move': ['error', { report: 'potential', ignoreSticky: false, ignorePartial: false }],
    },
  },
  {
    // Plain Node scripts (bin/, scripts/, bench's load client).
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: {
      globals: Object.fromEntries(
        ['process', 'Buffer', 'console', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance', 'URL', 'URLSearchParams', 'fetch', 'AbortController', 'TextDecoder', 'TextEncoder', 'structuredClone', '__dirname', 'require', 'module'].map((name) => [name, 'readonly']),
      ),
    },
  },
  {
    // The layer table and the import-loop check (docs/architecture.md §Layout; eslint-rules/): imports go down,
    // never up, and no files import each other round a loop, type imports included.
    files: ['src-*/**/*.{ts,tsx,mjs}'],
    plugins: { strikebook },
    rules: {
      'strikebook/layers': 'error',
      'strikebook/no-import-loops': 'error',
    },
  },
  {
    // The boundary (docs/architecture.md §Layout): domain code is pure. It runs in main, renderer and tests alike.
    files: ['src-shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'src-shared is pure: no electron (docs/architecture.md §Layout).' },
            ...nodeBuiltins.map((name) => ({ name, message: 'src-shared is pure: no Node built-ins (docs/architecture.md §Layout).' })),
            { name: 'react', message: 'src-shared is pure: no UI code.' },
            { name: 'react-dom', message: 'src-shared is pure: no DOM.' },
          ],
          patterns: [
            { group: ['node:*'], message: 'src-shared is pure: no Node built-ins (docs/architecture.md §Layout).' },
            { group: ['**/src-main/**', '**/src-renderer/**', '../../src-main/*', '../../src-renderer/*'], message: 'src-shared may not import adapters.' },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['window', 'document', 'process', 'Buffer', 'require', 'global', 'navigator', 'localStorage', 'fetch', 'setTimeout', 'setInterval', 'console'].map(
          (name) => ({ name, message: `src-shared is pure: no ${name} (docs/architecture.md §Layout).` }),
        ),
      ],
    },
  },
  {
    // The renderer reaches the engine only through /v1 (docs/architecture.md §Layout).
    files: ['src-renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', 'electron', 'better-sqlite3', '**/src-main/**'], message: 'The renderer talks to the engine only through /v1.' },
          ],
        },
      ],
    },
  },
  // Brands are made in one place each (docs/conventions.md §Money, §Names and ids): money in src-shared/money.ts and at
  // the database's row mapping, names and ids in src-shared/ids.ts; elsewhere a cast would hide the very mix-up the
  // brand is for. One no-restricted-syntax per file (a later entry would replace an earlier one), so the places that
  // may make one kind are listed apart.
  ...[
    { files: ['**/*.{ts,tsx}'], ignores: ['src-shared/money.ts', 'src-main/db/**', 'src-shared/ids.ts'], casts: [moneyCasts, idCasts] },
    { files: ['src-shared/money.ts', 'src-main/db/**/*.ts'], casts: [idCasts] },
    { files: ['src-shared/ids.ts'], casts: [moneyCasts] },
  ].map(({ files, ignores, casts }) => ({
    files,
    ...(ignores === undefined ? {} : { ignores }),
    rules: { 'no-restricted-syntax': ['error', ...casts.flat()] },
  })),
);
