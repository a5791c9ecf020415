import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/**
 * The shared real-world fixtures, required: without them the run fails in one line (test/fixtures-present.ts).
 * STRIKEBOOK_FIXTURES points elsewhere (a copy of the project run from another folder: Stryker's sandboxes).
 */
export const SHARED_FIXTURES = process.env.STRIKEBOOK_FIXTURES ?? resolve(REPO_ROOT, '..', 'shared', 'fixtures');
export const CHAIN_FIXTURES = join(SHARED_FIXTURES, 'chains');
export const BROKER_FIXTURES_SHARED = join(SHARED_FIXTURES, 'brokers');
/** The self-written broker fixtures of the repository (test/fixtures/brokers). */
export const BROKER_FIXTURES_LOCAL = join(REPO_ROOT, 'test', 'fixtures', 'brokers');
export const TEST_PORT = 7717;
export const HOST = `127.0.0.1:${TEST_PORT}`;

export function tempDir(prefix = 'strikebook-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}


/** A stand-in for the built renderer (`uiDir` of the server): `index.html` and the given files under it. */
export function tempUiDir(files: Record<string, string>): string {
  const dir = tempDir('strikebook-ui-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
