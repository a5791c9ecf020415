/** The scope's key numbers: spot, total GEX, the flip in words, the walls, the expirations, total DEX, the expected move. */
import type { ExpirationsResponseT, GexResponseT } from '../../../src-shared/api/schemas';
import { Badge, Stat } from '../../components/ui';
import { fmtCount, fmtExposure, fmtInt, fmtMoney, fmtPct, fmtPrice } from '../../format';
import { flipWords } from './flip-words';
import { FIGURE_WORDS as W } from './figure-words';

export type ExpirationDetail = ExpirationsResponseT['details'][number];

/** DEX is a count of shares whatever the formula (docs/exposure.md, "Delta exposure"). */
export const DEX_UNIT = 'shares of delta';

/** `±$31.60`, or — without a straddle. */
export function fmtMove(detail: ExpirationDetail | undefined): string {
  return detail?.expectedMove == null ? '—' : `±${fmtMoney(detail.expectedMove)}`;
}

/** `±0.67%`, or —. */
export function fmtMovePct(detail: ExpirationDetail | undefined): string {
  return detail?.expectedMovePct == null ? '—' : `±${fmtPct(detail.expectedMovePct, 2)}`;
}

export function KeyNumbers({ gex, nearest }: { gex: GexResponseT; nearest: ExpirationDetail | undefined }) {
  const unit = gex.meta.unit;
  const exps = gex.meta.expirations;
  return (
    <div className="stats-grid stats-grid-8 key-numbers" data-testid="gex-key-numbers">
      <Stat label="Spot" value={fmtPrice(gex.stockPrice)} sub={fmtCount(gex.meta.contracts, 'contract')} />
      <Stat
        label="Total GEX"
        title={W.totalGex.long}
        explain={W.totalGex.short}
        testId="total-gex"
        value={<span className={gex.totalGEX >= 0 ? 'pos' : 'neg'}>{fmtExposure(gex.totalGEX, unit)}</span>}
        sub={
          gex.emptyScope !== null ? (
            // An empty scope has no zone: "positive gamma" over no contract misled (issue 18).
            <Badge tone="warn" title={gex.emptyScope}>
              no contract in scope
            </Badge>
          ) : (
            <Badge tone={gex.gammaZone === 'positive' ? 'pos' : 'neg'} title={gex.gammaZone === 'positive' ? 'Dealers long gamma: they dampen moves' : 'Dealers short gamma: they amplify moves'}>
              {gex.gammaZone} gamma
            </Badge>
          )
        }
      />
      <Stat
        label={gex.flipStatus === 'multiple' ? 'Gamma flip (nearest spot)' : 'Gamma flip'}
        value={fmtPrice(gex.gammaInflection)}
        sub={<span data-testid="flip-words">{flipWords(gex.flipStatus, gex.flipRoots, gex.stockPrice)}</span>}
        title={W.gammaFlip.long}
        explain={W.gammaFlip.short}
        testId="gamma-flip"
      />
      <Stat label="Call wall" tone="tone-pos" value={gex.callWall ? fmtPrice(gex.callWall.strike) : '—'} sub={gex.callWall ? fmtExposure(gex.callWall.gex, unit) : 'no calls'} title={W.callWall.long} explain={W.callWall.short} testId="call-wall" />
      <Stat label="Put wall" tone="tone-neg" value={gex.putWall ? fmtPrice(gex.putWall.strike) : '—'} sub={gex.putWall ? fmtExposure(gex.putWall.gex, unit) : 'no puts'} title={W.putWall.long} explain={W.putWall.short} testId="put-wall" />
      <Stat label="Expirations" value={fmtInt(exps.length)} sub={exps.length <= 2 ? exps.join(', ') || 'none in scope' : `${exps[0] ?? ''} … ${exps[exps.length - 1] ?? ''}`} />
      <Stat
        label="Total DEX"
        value={<span className={gex.totalDEX >= 0 ? 'pos' : 'neg'}>{fmtExposure(gex.totalDEX, DEX_UNIT)}</span>}
        sub={`${fmtExposure(gex.totalDEXNotional, 'USD')} notional`}
        title={W.totalDex.long}
        explain={W.totalDex.short}
        testId="total-dex"
      />
      <Stat
        label="Expected move"
        value={fmtMove(nearest)}
        sub={nearest ? `${fmtMovePct(nearest)} to ${nearest.expiration} · max pain ${fmtPrice(nearest.maxPain)}` : 'no expiration in scope'}
        title={W.expectedMove.long}
        explain={W.expectedMove.short}
        testId="expected-move"
      />
    </div>
  );
}
