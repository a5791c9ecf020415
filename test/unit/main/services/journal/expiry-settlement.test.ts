/**
 * Expiries of adjusted contracts (docs/journal.md §Corporate actions, §Positions): an option a corporate action adjusted
 * is out of the money when what it delivers is worth more (a put) or less (a call) than its strike × 100, not when the
 * spot is; a deliverable the spot cannot price (another company's shares, terms unknown) waits for a decision.
 */
import { describe, expect, it } from 'vitest';
import { settleExpiries } from '../../../../../src-main/services/journal/expiry-settlement';
import type { UnderlyingMarks } from '../../../../../src-shared/journal/book';
import type { OpenPosition } from '../../../../../src-shared/journal/index';
import { asAccountId, asTicker } from '../../../../../src-shared/ids';

/** A snapshot of AMD at 105.60 the day after the expiry (2024-01-19). */
const marks = {
  spotAt: () => null,
  nearestBetween: (): { marks: UnderlyingMarks; ms: number } => ({
    marks: { snapshotId: 1, quoteTime: '2024-01-22T15:00:00.000Z', spot: 105.6, rate: 0.04, contracts: 0, contract: () => null, levelsIn: () => null },
    ms: Date.parse('2024-01-22T15:00:00Z'),
  }),
};

function put(symbol: string, strike: number, deliverable?: OpenPosition['deliverable']): OpenPosition {
  return {
    accountId: asAccountId('a'), symbol, underlying: asTicker('AMD'), currency: 'USD', isOption: true, expiration: '2024-01-19', strike, right: 'P', multiplier: 100,
    campaignId: null, quantity: -1, entryGrossMinor: 10_000, entryCostsMinor: 0, openedDay: '2023-12-01',
    ...(deliverable === undefined ? {} : { deliverable }),
  };
}

describe('expiries of adjusted contracts', () => {
  it('an AMD1 150 put delivering 172.34 AMD at a spot of 105.60: worth 18,199.10 > 15,000: out of the money, expired', () => {
    const adjusted = put('AMD1240119P00150000', 150, { root: 'AMD1', shares: [{ symbol: 'AMD', quantity: 172.34 }], cashMinor: 0 });
    const { inferred, attention } = settleExpiries([adjusted], Date.parse('2024-01-23T00:00:00Z'), marks, 'America/New_York');
    expect(attention).toEqual([]);
    expect(inferred.map((i) => i.transaction.symbol)).toEqual(['AMD1240119P00150000']);
  });

  it('the standard AMD 150 put at the same spot is in the money (105.60 < 150)', () => {
    const { inferred, attention } = settleExpiries([put('AMD240119P00150000', 150)], Date.parse('2024-01-23T00:00:00Z'), marks, 'America/New_York');
    expect(inferred).toEqual([]);
    expect(attention.map((a) => a.kind)).toEqual(['in_the_money']);
  });

  it('a deliverable of unknown terms (a broker-named root) or of another company waits for a decision', () => {
    const unknown = put('AMD1240119P00150000', 150, { root: 'AMD1', shares: null, cashMinor: 0 });
    const spun = put('AMD2240119P00150000', 150, { root: 'AMD2', shares: [{ symbol: 'AMD', quantity: 100 }, { symbol: 'SPN', quantity: 25 }], cashMinor: 0 });
    const bare = put('AMD3240119P00150000', 150);
    const { inferred, attention } = settleExpiries([unknown, spun, bare], Date.parse('2024-01-23T00:00:00Z'), marks, 'America/New_York');
    expect(inferred).toEqual([]);
    expect(attention.map((a) => [a.symbol, a.kind])).toEqual([
      ['AMD1240119P00150000', 'expiry_unknown'],
      ['AMD2240119P00150000', 'expiry_unknown'],
      ['AMD3240119P00150000', 'expiry_unknown'],
    ]);
  });
});
