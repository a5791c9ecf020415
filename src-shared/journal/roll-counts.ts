/**
 * The rolls counted in their campaigns (the ledger's, ledger.ts): each roll in the campaign of its slot open on its day,
 * and per checkpoint the rolls each live campaign had by then (a replay from it counts only its own days').
 */
import type { CampaignRecord } from './campaigns';
import { firstWhere, type LedgerCheckpoints } from './checkpoints';
import type { RollRecord } from './rolls';

/**
 * After the build has matched its rolls: each checkpoint's live campaigns get the rolls of their days before it (a
 * campaign's days are [openDay, closeDay]; the campaigns of one slot never share a day), so that a replay only counts its own.
 */
export function countRolls(checkpoints: LedgerCheckpoints, campaigns: readonly CampaignRecord[], rolls: readonly RollRecord[]): void {
  const daysBySlot = new Map<string, string[]>();
  for (const roll of rolls) {
    const key = `${roll.accountId}\u0000${roll.currency}\u0000${roll.underlying}`;
    const days = daysBySlot.get(key);
    if (days) days.push(roll.day);
    else daysBySlot.set(key, [roll.day]);
  }
  const before = (days: readonly string[], day: string) => firstWhere(days.length, (i) => (days[i] ?? '') >= day);
  // A campaign that took no later trade (its expiry unknown: CampaignBook.strandExpired) stays open beside the next
  // campaign of its slot, which takes every roll from its opening day (attributeRolls): its own days end there.
  const nextOpenDay = new Map<number, string>();
  const lastOfSlot = new Map<string, number>();
  campaigns.forEach((campaign, index) => {
    const key = `${campaign.accountId}\u0000${campaign.currency}\u0000${campaign.underlying}`;
    const previous = lastOfSlot.get(key);
    if (previous !== undefined) nextOpenDay.set(previous, campaign.openDay);
    lastOfSlot.set(key, index);
  });
  for (const checkpoint of checkpoints.checkpoints) {
    checkpoint.liveRolls = Int32Array.from(checkpoints.codec.liveKeys(checkpoint), ({ index, underlying, closeDay }) => {
      const campaign = campaigns[index];
      if (campaign === undefined) return 0;
      // Under the name it had then (a rename moves a campaign to another slot); a closed campaign's days end with its close.
      const days = daysBySlot.get(`${campaign.accountId}\u0000${campaign.currency}\u0000${underlying}`) ?? [];
      const closed = closeDay !== null && closeDay < checkpoint.day ? `${closeDay}\u0000` : checkpoint.day;
      const next = nextOpenDay.get(index);
      const end = next !== undefined && next < closed ? next : closed;
      return before(days, end) - before(days, campaign.openDay);
    });
  }
}

/**
 * Each roll counts in the campaign of its slot that was open on the roll's day: the newest one, when a campaign whose
 * expiry is unknown stays open beside it (it takes no later trade).
 */
export function attributeRolls(campaigns: readonly CampaignRecord[], rolls: readonly RollRecord[]): void {
  const bySlot = new Map<string, CampaignRecord[]>();
  for (const campaign of campaigns) {
    const key = `${campaign.accountId}\u0000${campaign.currency}\u0000${campaign.underlying}`;
    const list = bySlot.get(key);
    if (list) list.push(campaign);
    else bySlot.set(key, [campaign]);
  }
  for (const roll of rolls) {
    const list = bySlot.get(`${roll.accountId}\u0000${roll.currency}\u0000${roll.underlying}`) ?? [];
    const campaign = list.findLast((c) => c.openDay <= roll.day && (c.closeDay === null || roll.day <= c.closeDay));
    if (campaign) campaign.rolls += 1;
  }
}
