import { useCallback } from 'react';
import type { Formula } from '../../../src-shared/api/constants';
import { ProfileChart } from '../../components/charts';
import { AsyncStatus, Panel } from '../../components/ui';
import { fmtExposure } from '../../format';
import { useApi, useAsync } from '../../hooks';
import { flipWords } from './flip-words';
import type { ScopeQuery } from './scope';

/** The gamma profile: net GEX if spot were x (/gex/profile), over the page's scope. */
export function ProfilePanel({ symbol, formula, scope, snapshot, unit }: { symbol: string; formula: Formula; scope: ScopeQuery; snapshot: number | null; unit: string }) {
  const api = useApi();
  const key = JSON.stringify(scope);
  const profile = useAsync((signal) => api.call('GET /gex/profile', { query: { symbol, formula, ...scope, ...(snapshot === null ? {} : { snapshot }) } }, { signal }), [api, symbol, formula, key, snapshot]);
  const formatValue = useCallback((v: number) => fmtExposure(v, unit, false), [unit]);
  return (
    <Panel title="Gamma profile" id="gex-profile" actions={<span className="muted small">net GEX if spot were x · {unit}</span>}>
      <AsyncStatus state={profile} />
      {profile.data && (
        <>
          <ProfileChart profile={profile.data} formatValue={formatValue} />
          <p className="muted small chart-note" data-testid="profile-flip">
            Gamma flip: {flipWords(profile.data.flipStatus, profile.data.flipRoots, profile.data.stockPrice)}
            {profile.data.flipStatus === 'multiple' && ' (the arrows; the one labelled is nearest spot)'}
          </p>
        </>
      )}
    </Panel>
  );
}
