import type { CampaignJson } from '../../../src-shared/api/schemas';
import { fmtCount, fmtPct } from '../../format';

/**
 * Shorter campaigns are not annualized on screen (issue 18): × 365 / days turns a two-day 0.3% into 55% a year, a
 * figure no one could repeat. The API still sends the number; the page says why it leaves it out.
 */
export const MIN_ANNUALIZED_DAYS = 7;

export function annualizedShown(campaign: Pick<CampaignJson, 'days' | 'annualizedReturn'>): boolean {
  return campaign.annualizedReturn !== null && campaign.days >= MIN_ANNUALIZED_DAYS;
}

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
