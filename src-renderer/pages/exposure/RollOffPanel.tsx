import type { ExpirationsResponseT } from '../../../src-shared/api/schemas';
import { RollOffBars } from '../../components/charts';
import { Loading, Panel } from '../../components/ui';

/** Each expiration's share of the book's absolute gamma: what rolls off at each date. */
export function RollOffPanel({ expirations }: { expirations: ExpirationsResponseT | undefined }) {
  return (
    <Panel title="Gamma roll-off" id="gex-rolloff" actions={<span className="muted small">share of the book’s absolute gamma per expiration</span>}>
      {expirations ? <RollOffBars details={expirations.details} /> : <Loading />}
    </Panel>
  );
}
