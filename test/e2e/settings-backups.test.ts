/**
 * Settings → Backups in Chromium against `strikebook serve --demo` (issue 29, item 7): the last backup the server took
 * (the daily one, at its start) is shown as GET /v1/backups states it; "Back up now" adds one; "Restore…" (confirmed)
 * stages it and the page says it replaces the journal at the next start. Both themes at 1440, and 390 wide.
 * Screenshots: test-results/screenshots/settings-backups-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { BackupsResponseT } from '../../src-shared/api/schemas';
import { api, goTo, screenshot } from './harness';
import { serveForSuite } from './suite';

describe('Settings: backups', () => {
  const suite = serveForSuite({ demo: true });

  it('shows the last backup, takes one, and stages a restore', async () => {
    for (const [width, theme] of [[1440, 'light'], [1440, 'dark'], [390, 'light']] as const) {
      await suite.onPage({ width, theme }, async (page) => {
        const served = suite.served();
        await goTo(page, 'Settings');
        const before = await api<BackupsResponseT>(served, '/backups');
        const last = before.last;
        if (last === null) throw new Error('the server takes its daily backup at the start');
        const shown = page.getByTestId('backup-last');
        await expect.poll(() => shown.textContent()).toContain(`${before.backups.length} backup`);
        expect(await shown.textContent()).toContain(`${last.reason === 'daily' ? 'daily' : 'asked for'}, ${(last.bytes / 1e6).toFixed(1)} MB)`);
        expect(await page.getByTestId('backup-list').locator('tbody tr').count()).toBe(before.backups.length);

        if (theme === 'light' && width === 1440) {
          await page.getByTestId('backup-now').click();
          await page.getByText(/^Backed up: strikebook-.+-manual\.db/).waitFor();
          const after = await api<BackupsResponseT>(served, '/backups');
          expect(after.backups).toHaveLength(before.backups.length + 1);
          expect(after.last?.reason).toBe('manual');
          await expect.poll(() => page.getByTestId('backup-list').locator('tbody tr').count()).toBe(after.backups.length);
          expect(await shown.textContent()).toContain('(asked for,');

          page.once('dialog', (dialog) => void dialog.accept());
          await page.getByTestId('backup-list').getByRole('button', { name: 'Restore…' }).last().click();
          await page.getByTestId('backup-pending').waitFor();
          const staged = await api<BackupsResponseT>(served, '/backups');
          expect(staged.pendingRestore, 'the oldest listed backup').toBe(after.backups.at(-1)?.name);
          expect(await page.getByTestId('backup-pending').textContent()).toContain(`${staged.pendingRestore ?? ''} replaces the journal when Strikebook next starts`);
        }
        await page.getByTestId('backup-last').scrollIntoViewIfNeeded();
        await screenshot(page, `settings-backups-${width}-${theme}`);
      });
    }
  }, 240_000);
});
