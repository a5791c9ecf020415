import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BROKER_IDS, BROKER_LABELS } from '../../../../src-shared/api/constants';
import { importerList } from '../../../../src-main/importers/registry';
import { REPO_ROOT } from '../../../paths';

describe('the broker registry', () => {
  it('lists the brokers the API accepts (BROKER_IDS), in that order', () => {
    expect(importerList().map((entry) => entry.id)).toEqual([...BROKER_IDS]);
  });

  it('names them with the wire labels; the Import page takes the list from the API (GET /v1/import-formats), not a copy', () => {
    expect(importerList().map(({ id, label }) => ({ id, label }))).toEqual(BROKER_IDS.map((id) => ({ id, label: BROKER_LABELS[id] })));
    const page = readFileSync(join(REPO_ROOT, 'src-renderer', 'pages', 'Import.tsx'), 'utf8');
    expect(page).not.toMatch(/\bBROKER_(IDS|LABELS)\b/);
    expect(page).toMatch(/api\.call\('GET \/import-formats'/);
  });
});
