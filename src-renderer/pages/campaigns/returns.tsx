import type { CampaignJson } from '../../../src-shared/api/schemas';
import { fmtCount, fmtPct } from '../../format';
import { annualizedShown, MIN_ANNUALIZED_DAYS } from './figures';

/** The annualized return, or "n/a" with the reason in its tooltip; `long` writes it as a sentence (the detail's card). */
export function AnnualizedText({ campaign, long = false }: { campaign: Pick<CampaignJson, 'days' | 'annualizedReturn'>; long?: boolean }) {
  if (annualizedShown(campaign)) return <>{long ? `${fmtPct(campaign.annualizedReturn, 1)} a year` : fmtPct(campaign.annualizedReturn, 1)}</>;
  const why = campaign.annualizedReturn === null ? 'no return to annualize' : `not annualized: ${fmtCount(campaign.days, 'day')} is under ${MIN_ANNUALIZED_DAYS}`;
  return (
    <span className="muted" title={why} data-testid="annualized-na">
      {long ? why : 'n/a'}
    </span>
  );
}
