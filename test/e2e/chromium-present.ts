/**
 * Global setup of the browser tests: without Chromium not one of them can run, and a skipped browser test hides what it
 * would have caught (CI installs chromium). So a missing Chromium fails the run with one line, as missing fixtures do.
 */
import { existsSync } from 'node:fs';

export default function chromiumPresent(): void {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(path)) throw new Error(`no Chromium at ${path}: the browser tests need it (apt-get install -y chromium, or set CHROMIUM_PATH)`);
}
