/**
 * A dividend paid after the shares were called away (DESIGN §5; docs/journal.md §Campaigns), over HTTP: hand-written
 * rows — a put assigned, the covered call called away, a new put sold on a later day, then dividends paid — land on the
 * campaign that held the shares, or on the account when none held them within 60 days: never on the put-only campaign.
 * Figures by hand in the comments.
 */
import { describe, expect, it } from 'vitest';
import type { AccountsResponseT, CampaignsResponseT, SummaryResponseT } from '../../../../../src-shared/api/schemas';
import { useTestApp } from '../../../../helper';

const JOURNAL = [
  'date,account,type,symbol,quantity,price,commission,fees,amount,currency',
  '2024-03-01T15:00:00Z,Wheel,SELL_TO_OPEN,XYZ240315P00050000,1,2.00,0,0,200,USD',
  '2024-03-15T21:00:00Z,Wheel,ASSIGNMENT,XYZ240315P00050000,1,0,0,0,0,USD',
  '2024-03-15T21:00:00Z,Wheel,BUY,XYZ,100,50,0,0,-5000,USD',
  '2024-03-18T14:00:00Z,Wheel,SELL_TO_OPEN,XYZ240419C00052000,1,1.50,0,0,150,USD',
  '2024-04-19T21:00:00Z,Wheel,ASSIGNMENT,XYZ240419C00052000,1,0,0,0,0,USD',
  '2024-04-19T21:00:00Z,Wheel,SELL,XYZ,100,52,0,0,5200,USD',
  // Flat at the close of 19 April; a put-only campaign opens on 22 April.
  '2024-04-22T14:00:00Z,Wheel,SELL_TO_OPEN,XYZ240517P00048000,1,1.00,0,0,100,USD',
  // 12 days after the shares left: the wheel held them on the ex-date.
  '2024-05-01T13:00:00Z,Wheel,DIVIDEND,XYZ,0,0,0,0,25,USD',
  // 73 days after: no campaign of the journal held them then.
  '2024-07-01T13:00:00Z,Wheel,DIVIDEND,XYZ,0,0,0,0,30,USD',
].join('\n');

describe('dividends after the shares were called away', () => {
  const t = useTestApp();

  it('the wheel’s campaign gets the dividend of its shares; the later one is the account’s; the put-only campaign none', async () => {
    const imported = await t.request({ method: 'POST', url: '/v1/imports?broker=generic', headers: { 'content-type': 'text/csv' }, payload: JOURNAL });
    expect(imported.statusCode, imported.body).toBe(201);
    const chains = (await t.get<CampaignsResponseT>('/v1/journal/chains')).body.chains;
    expect(chains.map((c) => [c.openedAt, c.closedAt, c.sharesHeld, c.dividends, c.pnl])).toEqual([
      // The put: 100 of premium, open; no shares, no dividend.
      ['2024-04-22', null, 0, 0, 0],
      // The wheel: 200 + 150 + (52 − 50) × 100 = 550, and the 25 dividend.
      ['2024-03-01', '2024-04-19', 0, 25, 575],
    ]);
    const [account] = (await t.get<AccountsResponseT>('/v1/journal/accounts')).body.accounts;
    expect(account?.dividendsOutsideCampaigns).toEqual([{ currency: 'USD', amount: 30 }]);
    // The summary counts both: 25 + 30.
    expect((await t.get<SummaryResponseT>('/v1/journal/summary?year=2024')).body.stats.dividends).toBe(55);
  });
});
