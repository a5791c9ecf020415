#!/usr/bin/env node
// `npm run serve -- [args]`: builds what the headless mode serves (the Node bundle; the web UI when it is
// missing), then runs `strikebook serve [args]` in this process's place.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const step = (args) => {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
step(['scripts/build-node.mjs']);
if (!existsSync(`${root}out/renderer/index.html`)) {
  console.error('Building the web UI (once; `npm run build:web` rebuilds it)...');
  step(['node_modules/vite/bin/vite.js', 'build', '--config', 'vite.web.config.ts', '--logLevel', 'warn']);
}
await import('../bin/strikebook.mjs').catch((error) => {
  console.error(error);
  process.exit(1);
});
