import type { ExpirationsResponseT } from '../../../src-shared/api/schemas';
import { TermStructureChart } from '../../components/charts';
import { Loading, Panel } from '../../components/ui';
import { fmtCount } from '../../format';

/** At-the-money IV per expiration (/v1/expirations termStructure), the scope's expirations marked. */
export function TermStructurePanel({ expirations, inScope }: { expirations: ExpirationsResponseT | undefined; inScope: ReadonlySet<string> }) {
  const withIv = expirations?.termStructure.filter((p) => p.atmIV !== null).length ?? 0;
  return (
    <Panel
      title="IV term structure"
      id="term-structure"
      actions={<span className="muted small">ATM IV by days to expiry (√ scale){expirations ? ` · ${fmtCount(withIv, 'expiration')}` : ''}</span>}
    >
      {expirations ? (
        <TermStructureChart points={expirations.termStructure} highlight={inScope} label={`At-the-money implied volatility of ${expirations.symbol} by days to expiry`} />
      ) : (
        <Loading />
      )}
    </Panel>
  );
}
