/**
 * Vitest's global setup: the real fixtures at ../shared/fixtures are what the suite checks the product against (real
 * broker exports, real CBOE chains with published figures). Without them a run would pass on self-written files
 * alone, so a missing folder fails the whole run with one line instead of skipping the cases that read it.
 */
import { existsSync } from 'node:fs';
import { BROKER_FIXTURES_SHARED, CHAIN_FIXTURES } from './paths';

export default function fixturesPresent(): void {
  const missing = [CHAIN_FIXTURES, BROKER_FIXTURES_SHARED].filter((dir) => !existsSync(dir));
  if (missing.length > 0) {
    throw new Error(`the real fixtures are missing: ${missing.join(', ')} (the suite checks the product against them; CI has them at ../shared/fixtures)`);
  }
}
