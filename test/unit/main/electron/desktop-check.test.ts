/**
 * `npm start` where Electron cannot run (issue 8): scripts/desktop-check.mjs says what is missing before anything
 * starts and exits non-zero. Checked on fake checkouts (the script's logic, not Electron itself).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir } from '../../../paths';

const SCRIPT = join(REPO_ROOT, 'scripts', 'desktop-check.mjs');
const dirs: string[] = [];

/** A checkout with package.json `engines.node` and an electron package, with or without its binary. */
function fakeCheckout(options: { engines: string; electron: boolean; pathTxt?: string; binary?: boolean }): string {
  const root = tempDir('strikebook-checkout-');
  dirs.push(root);
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'strikebook', engines: { node: options.engines } }));
  if (options.electron) {
    const electron = join(root, 'node_modules', 'electron');
    mkdirSync(join(electron, 'dist'), { recursive: true });
    writeFileSync(join(electron, 'package.json'), JSON.stringify({ name: 'electron', version: '45.4.1' }));
    if (options.pathTxt !== undefined) writeFileSync(join(electron, 'path.txt'), options.pathTxt);
    if (options.binary) writeFileSync(join(electron, 'dist', options.pathTxt ?? 'electron'), '#!/bin/sh\n');
  }
  return root;
}

function check(root: string, env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, [SCRIPT, '--root', root], { encoding: 'utf8', env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: '', ...env } });
  return { status: result.status, stderr: result.stderr, stdout: result.stdout };
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('npm start without a usable Electron', () => {
  it('runs desktop-check before anything else in `npm start`', () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start?.startsWith('node scripts/desktop-check.mjs && ')).toBe(true);
  });

  it('names the missing binary, how to get it and `npm run serve`, and exits 1', () => {
    for (const root of [fakeCheckout({ engines: '>=1.0.0', electron: true }), fakeCheckout({ engines: '>=1.0.0', electron: true, pathTxt: 'electron' })]) {
      const result = check(root);
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/Electron 45\.4\.1 binary is missing/);
      expect(result.stderr).toMatch(/node node_modules\/electron\/install\.js/);
      expect(result.stderr).toMatch(/npm run serve/);
      expect(result.stderr.match(/cannot start here/g)?.length, 'one message').toBe(1);
    }
  });

  it('passes silently when the binary is there (or where ELECTRON_OVERRIDE_DIST_PATH points)', () => {
    const ready = check(fakeCheckout({ engines: '>=1.0.0', electron: true, pathTxt: 'electron', binary: true }));
    expect(ready).toEqual({ status: 0, stderr: '', stdout: '' });
    const elsewhere = tempDir('electron-dist-');
    dirs.push(elsewhere);
    writeFileSync(join(elsewhere, 'electron'), '#!/bin/sh\n');
    expect(check(fakeCheckout({ engines: '>=1.0.0', electron: true, pathTxt: 'electron' }), { ELECTRON_OVERRIDE_DIST_PATH: elsewhere }).status).toBe(0);
  });

  it('refuses a Node older than `engines` says, and a checkout without electron, in the same one message', () => {
    const result = check(fakeCheckout({ engines: '>=99.0.0', electron: false }));
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`Node ${process.version.replace(/\./g, '\\.')} is older than the desktop tooling needs .*>= 99\\.0\\.0`));
    expect(result.stderr).toMatch(/Electron is not installed.*npm install/);
    expect(result.stderr).toMatch(/npm run serve/);
  });

  it("states in `engines` a Node at least as new as every desktop tool's own engines require", () => {
    const lowerBound = (range: string | undefined): number[] => (/>=\s*(\d+)\.(\d+)\.(\d+)/.exec(range ?? '')?.slice(1).map(Number) ?? [0, 0, 0]);
    const atLeast = (a: number[], b: number[]) => {
      for (let i = 0; i < 3; i += 1) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
      return true;
    };
    const ours = lowerBound((JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node);
    for (const tool of ['electron', 'electron-vite', 'electron-builder', '@electron/rebuild', '@electron/get']) {
      const engines = (JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', tool, 'package.json'), 'utf8')) as { engines?: { node?: string } }).engines?.node;
      // Alternatives ("^20.19.0 || >=22.12.0"): the newest lower bound is the one that holds for every later Node.
      const bounds = (engines ?? '').split('||').map((part) => lowerBound(part.replace(/\^/, '>=')));
      const needed = bounds.reduce((max, bound) => (atLeast(bound, max) ? bound : max), [0, 0, 0]);
      expect(atLeast(ours, needed), `${tool} needs Node ${engines}; package.json says ${ours.join('.')}`).toBe(true);
    }
  });
});
