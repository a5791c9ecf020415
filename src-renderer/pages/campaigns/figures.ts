/** A campaign's figures as the page shows them (pure: the unit tests run them without a DOM). */
import type { CampaignJson } from '../../../src-shared/api/schemas';
import { fmtMoney } from '../../format';

/**
 * Shorter campaigns are not annualized on screen (issue 18): × 365 / days turns a two-day 0.3% into 55% a year, a
 * figure no one could repeat. The API still sends the number; the page says why it leaves it out.
 */
export const MIN_ANNUALIZED_DAYS = 7;

export function annualizedShown(campaign: Pick<CampaignJson, 'days' | 'annualizedReturn'>): boolean {
  return campaign.annualizedReturn !== null && campaign.days >= MIN_ANNUALIZED_DAYS;
}

/**
 * A label of the adjusted-basis chart's price axis: to the cent. A basis moves by cents and dollars, and the journal
 * charts' compact money (whole dollars under $10k) labelled neighbouring ticks alike: "$232 $232 $232".
 */
export function basisAxisLabel(value: number, currency: string): string {
  return fmtMoney(value, currency);
}
