#!/usr/bin/env node
// `npm run build:node`: bundles the Node side into out/node with esbuild, so that `strikebook serve` starts without
// a TypeScript loader (faster start, ~50 MB less memory): cli.mjs (CLI, server, engines) and journal-worker.mjs,
// the journal's worker thread, which cli.mjs starts from beside itself (src-main/services/journal/client.ts).
// Packages stay external (better-sqlite3 is native; the rest resolve from node_modules).
// `--outdir <dir>` builds elsewhere (tests), leaving out/node alone.
import { build } from 'esbuild';
import { resolve } from 'node:path';

const outdirIndex = process.argv.indexOf('--outdir');
const outdir = outdirIndex === -1 ? new URL('../out/node', import.meta.url).pathname : resolve(process.argv[outdirIndex + 1] ?? '');

await build({
  entryPoints: {
    cli: new URL('../src-main/cli.ts', import.meta.url).pathname,
    'journal-worker': new URL('../src-main/services/journal/worker.ts', import.meta.url).pathname,
    // The exposure worker (chain files, history points), started the same way (services/exposure/worker-client.ts).
    'exposure-worker': new URL('../src-main/services/exposure/worker.ts', import.meta.url).pathname,
    // Research exports (the Parquet lake), a thread per export (services/exports.ts).
    'lake-worker': new URL('../src-main/services/lake-worker.ts', import.meta.url).pathname,
    // Backups of the journal (VACUUM INTO), a thread per backup (services/backups.ts).
    'backup-worker': new URL('../src-main/services/backup-worker.ts', import.meta.url).pathname,
  },
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
