import type { AccountJson } from '../../src-shared/api/schemas';
import { Options } from './ui';

/** The account switcher of the journal pages: every account, or one (its id goes to the API as `accountId`). */
export function AccountSelect({ accounts, value, onChange }: { accounts: readonly AccountJson[]; value: string; onChange: (accountId: string) => void }) {
  if (accounts.length < 2 && value === '') return null;
  return (
    <label className="field-inline">
      Account
      <select value={value} onChange={(e) => onChange(e.target.value)} data-testid="account-select">
        <option value="">All accounts</option>
        <Options items={accounts} value={(a) => a.id} label={(a) => a.name} />
      </select>
    </label>
  );
}
