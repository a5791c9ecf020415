#!/usr/bin/env node
// The `strikebook` command. Runs the bundle from `npm run build:node` when it is newer than every source
// file, else the TypeScript sources through tsx's loader (a fresh clone needs no build step).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = `${root}out/node/cli.mjs`;

function newestSourceMs(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMs(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

const fresh =
  existsSync(bundle) &&
  statSync(bundle).mtimeMs >= Math.max(newestSourceMs(`${root}src-main`), newestSourceMs(`${root}src-shared`));
if (fresh) {
  await import(new URL('../out/node/cli.mjs', import.meta.url).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src-main/cli.ts');
}
