/**
 * The layer table and the import-loop check (docs/architecture.md §Layout; eslint-rules/): the two lint rules catch a
 * planted upward arrow and a planted loop (type imports included) in a small project written here, and the repository
 * itself has no loop. `npm run lint` runs the same rules over the tree; this test is the proof that they can fail.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';
import strikebook from '../eslint-rules/index.js';
import { buildGraph, importLoops, shown } from '../eslint-rules/import-graph.js';
import { REPO_ROOT, tempDir } from './paths';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: 2023, sourceType: 'module' } });

/** A project of a few files: `files` by path under the root, each its text. */
function project(files: Record<string, string>): string {
  const root = tempDir('strikebook-layers-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const FAKE_ROOT = '/project';
const at = (path: string) => ({ filename: join(FAKE_ROOT, path), options: [{ root: FAKE_ROOT }] });

describe('strikebook/layers', () => {
  tester.run('layers', strikebook.rules.layers, {
    valid: [
      { code: "import { TransactionsRepository } from '../db/transactions';", ...at('src-main/services/x.ts') },
      { code: "import type { AppContext } from './context';", ...at('src-main/server/app.ts') },
      { code: "import { buildTrades } from '../../src-shared/journal/trades';", ...at('src-main/lake/rows.ts') },
      { code: "import { runExport } from './lake/cli';", ...at('src-main/cli.ts') },
      { code: "import { ledger } from '../journal/ledger';", ...at('src-shared/api/schemas.ts') },
      { code: "import { gex } from '../exposure/gex';", ...at('src-shared/journal/book.ts') },
      { code: "import { toMinor } from '../money';", ...at('src-shared/exposure/gex.ts') },
      { code: "import { parseJournal } from '../../src-shared/api/constants';", ...at('src-renderer/pages/Journal.tsx') },
      { code: "import { excerpt } from './text';", ...at('src-shared/money.ts') },
      { code: "import { loadDemo } from '../../services/demo';", ...at('src-main/server/routes/admin.ts') },
    ],
    invalid: [
      // The arrows issue 31 found: services → server, db → services, journal → api, base → journal.
      { code: "import type { AppContext } from '../server/context';", ...at('src-main/services/demo.ts'), errors: [{ message: /^upward import: src-main services may not import server \(layers top to bottom: entry → server → services → adapters → base; docs\/architecture\.md §Layout\)$/ }] },
      { code: "import { failure } from '../services/result';", ...at('src-main/db/snapshots.ts'), errors: [{ message: /src-main adapters may not import services/ }] },
      { code: "import { instantBound } from '../services/exposure/values';", ...at('src-main/lake/export.ts'), errors: [{ message: /src-main adapters may not import services/ }] },
      { code: "import { MANUAL_ACTION_SOURCE } from '../api/constants';", ...at('src-shared/journal/order.ts'), errors: [{ message: /src-shared journal may not import api/ }] },
      { code: "import type { Formula } from '../api/constants';", ...at('src-shared/exposure/gex.ts'), errors: [{ message: /src-shared exposure may not import api/ }] },
      { code: "export type { Trade } from './journal/trades';", ...at('src-shared/money.ts'), errors: [{ message: /src-shared base may not import journal/ }] },
      { code: "type T = import('../journal/model').Transaction;", ...at('src-shared/exposure/model.ts'), errors: [{ message: /src-shared exposure may not import journal/ }] },
      { code: "const m = await import('../server/app');", ...at('src-main/services/x.ts'), errors: [{ message: /src-main services may not import server/ }] },
      { code: "import { x } from '../../src-main/db/open';", ...at('src-shared/journal/x.ts'), errors: [{ message: /^src-shared may not import src-main/ }] },
      { code: "import { x } from '../../src-renderer/api/client';", ...at('src-main/services/x.ts'), errors: [{ message: /^src-main may not import src-renderer/ }] },
      { code: "export const x = 1;", ...at('src-main/stray.ts'), errors: [{ messageId: 'unplaced' }] },
    ],
  });
});

describe('strikebook/no-import-loops', () => {
  const root = project({
    // A loop of types alone (a → b → c → a, all `import type`), and d beside it importing into it.
    'src-shared/journal/a.ts': "import type { B } from './b';\nexport interface A { b: B }\n",
    'src-shared/journal/b.ts': "import type { C } from './c';\nexport interface B { c: C }\n",
    'src-shared/journal/c.ts': "import { type A } from './a';\nexport interface C { a?: A }\n",
    'src-shared/journal/d.ts': "import type { A } from './a';\nexport type D = A;\n",
    // A file importing itself through its folder's index.
    'src-shared/exposure/index.ts': "export * from './e';\n",
    'src-shared/exposure/e.ts': "import type { E as Self } from './index';\nexport interface E { next: Self | null }\n",
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const file = (path: string) => ({ filename: join(root, path), options: [{ root, dirs: ['src-shared'] }] });
  const text = (path: string) => ({ code: readFileSync(join(root, path), 'utf8'), ...file(path) });

  tester.run('no-import-loops', strikebook.rules['no-import-loops'], {
    valid: [text('src-shared/journal/d.ts')],
    invalid: [
      {
        ...text('src-shared/journal/a.ts'),
        errors: [{ line: 1, message: /^import loop: src-shared\/journal\/a\.ts → src-shared\/journal\/b\.ts → src-shared\/journal\/c\.ts → src-shared\/journal\/a\.ts \(3 files in the loop: src-shared\/journal\/a\.ts, src-shared\/journal\/b\.ts, src-shared\/journal\/c\.ts\)/ }],
      },
      { ...text('src-shared/journal/c.ts'), errors: [{ message: /^import loop: src-shared\/journal\/c\.ts → src-shared\/journal\/a\.ts → / }] },
      { ...text('src-shared/exposure/e.ts'), errors: [{ message: /^import loop: src-shared\/exposure\/e\.ts → src-shared\/exposure\/index\.ts → src-shared\/exposure\/e\.ts/ }] },
    ],
  });

  it('lists each loop once with its files, and nothing for a file beside it', () => {
    const loops = importLoops(buildGraph(root, ['src-shared'])).map((loop) => loop.map((member) => shown(root, member)));
    expect(loops).toEqual([
      ['src-shared/exposure/e.ts', 'src-shared/exposure/index.ts'],
      ['src-shared/journal/a.ts', 'src-shared/journal/b.ts', 'src-shared/journal/c.ts'],
    ]);
  });
});

describe('the repository', () => {
  it('has no import loop over src-main, src-shared and src-renderer, type imports counted', () => {
    const loops = importLoops(buildGraph(REPO_ROOT, ['src-main', 'src-shared', 'src-renderer']));
    expect(loops.map((loop) => loop.map((member) => shown(REPO_ROOT, member)))).toEqual([]);
  });
});
