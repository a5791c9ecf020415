/**
 * The management rules (DESIGN §5 "Management rules and rolls", docs/journal.md §Managing open trades) on hand-built
 * trades and marks: each rule at exactly its threshold and a cent (or a day) short of it, the figures behind each, the
 * rules switched off, and the order of urgency. Every figure below is worked out by hand in the comments.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_MANAGE_RULES, evaluateTrade, legFigures, type LevelAlertFact, type ManagedLeg, type ManagedTrade, type ManageRules } from '../../../../src-shared/journal/manage';
import { asAccountId, asTicker, asTradeId } from '../../../../src-shared/ids';

const minor = (units: number) => Math.round(units * 10_000);

/** A short option leg of one contract; dte as given. */
function short(strike: number, right: 'P' | 'C', expiration: string, dte: number, markPrice: number, symbol = `KO${expiration.slice(2).replace(/-/g, '')}${right}${String(strike * 1000).padStart(8, '0')}`): ManagedLeg {
  return { symbol, isOption: true, expiration, strike, right, quantity: -1, markPrice, dte, delta: null };
}

/** A trade on KO at spot `spot`, on 2024-03-01, with a credit of `creditUnits` and a P&L so far of `totalUnits`. */
function trade(legs: ManagedLeg[], { spot = 60, creditUnits = 100, totalUnits = 0 }: { spot?: number; creditUnits?: number | null; totalUnits?: number } = {}): ManagedTrade {
  return { tradeId: asTradeId('t1'), accountId: asAccountId('acc'), underlying: asTicker('KO'), currency: 'USD', totalMinor: minor(totalUnits), maxProfitMinor: creditUnits === null ? null : minor(creditUnits), spot, asOfDate: '2024-03-01', legs };
}

const rules = (changes: Partial<ManageRules> = {}): ManageRules => ({ ...DEFAULT_MANAGE_RULES, ...changes });
const ruleNames = (t: ManagedTrade, r: ManageRules = rules(), alerts: LevelAlertFact[] = []) => evaluateTrade(t, r, alerts).map((hit) => hit.rule);

// An out-of-the-money put 49 days out: no leg rule fires on it.
const FAR = short(50, 'P', '2024-04-19', 49, 0.5);

describe('profit target: ≥ profitTargetPct % of the max profit captured', () => {
  it('a $100 credit with $50.00 made so far is exactly 50 %: it fires, value 50, threshold 50', () => {
    const [hit] = evaluateTrade(trade([FAR], { totalUnits: 50 }), rules());
    expect(hit).toMatchObject({ rule: 'profit_target', value: 50, threshold: 50, leg: null });
    expect(hit?.message).toMatch(/50\.0% of the max profit captured \(50\.00 of 100\.00 USD; target 50%\)/);
  });
  it('$49.99 is 49.99 %: nothing', () => {
    expect(ruleNames(trade([FAR], { totalUnits: 49.99 }))).toEqual([]);
  });
  it('a debit trade (no credit) is never held to it, nor to the loss stop', () => {
    expect(ruleNames(trade([FAR], { creditUnits: null, totalUnits: 500 }))).toEqual([]);
    expect(ruleNames(trade([FAR], { creditUnits: null, totalUnits: -500 }))).toEqual([]);
  });
  it('off (null): nothing at 100 %', () => {
    expect(ruleNames(trade([FAR], { totalUnits: 100 }), rules({ profitTargetPct: null }))).toEqual([]);
  });
});

describe('manage at DTE: the nearest short expiration within manageAtDte days', () => {
  it('a short put 21 days out fires at 21, value 21 and the leg named', () => {
    const leg = short(50, 'P', '2024-03-22', 21, 0.5);
    expect(evaluateTrade(trade([leg]), rules())).toEqual([
      { rule: 'dte', value: 21, threshold: 21, leg: leg.symbol, message: '21 days to the nearest expiration (2024-03-22): manage at 21 DTE (close or roll).' },
    ]);
  });
  it('22 days out: nothing; the nearer of two shorts decides', () => {
    expect(ruleNames(trade([short(50, 'P', '2024-03-23', 22, 0.5)]))).toEqual([]);
    const hits = evaluateTrade(trade([FAR, short(48, 'P', '2024-03-15', 14, 0.2)]), rules());
    expect(hits.map((h) => [h.rule, h.value])).toEqual([['dte', 14]]);
  });
  it('a long-only trade is held to its options’ expiration; shares alone are not', () => {
    const long: ManagedLeg = { ...short(65, 'C', '2024-03-15', 14, 0.4), quantity: 2 };
    expect(ruleNames(trade([long], { creditUnits: null }))).toEqual(['dte']);
    const shares: ManagedLeg = { symbol: 'KO', isOption: false, expiration: null, strike: null, right: null, quantity: 100, markPrice: 60, dte: null, delta: null };
    expect(ruleNames(trade([shares], { creditUnits: null }))).toEqual([]);
  });
});

describe('loss stop: a loss ≥ lossStopMultiple × the credit', () => {
  it('a $100 credit and −$200.00 so far is exactly 2×: it fires, value 2', () => {
    const [hit] = evaluateTrade(trade([FAR], { totalUnits: -200 }), rules());
    expect(hit).toMatchObject({ rule: 'loss_stop', value: 2, threshold: 2, leg: null });
    expect(hit?.message).toBe('A loss of 200.00 USD is 2.00× the credit of 100.00 (rule: stop at 2×).');
  });
  it('−$199.99: nothing; a multiple of 1.5 fires at −$150', () => {
    expect(ruleNames(trade([FAR], { totalUnits: -199.99 }))).toEqual([]);
    expect(ruleNames(trade([FAR], { totalUnits: -150 }), rules({ lossStopMultiple: 1.5 }))).toEqual(['loss_stop']);
  });
});

describe('in the money near expiry: a short option ITM within itmWithinDays', () => {
  it('a short 62 put 7 days out at spot 60 is 2.00 in the money: it fires (and so does DTE 7 ≤ 21), ITM first', () => {
    const leg = short(62, 'P', '2024-03-08', 7, 2.1);
    const hits = evaluateTrade(trade([leg], { totalUnits: -60 }), rules());
    expect(hits.map((h) => [h.rule, h.value, h.threshold])).toEqual([
      ['itm_near_expiry', 7, 7],
      ['dte', 7, 21],
    ]);
    expect(hits[0]?.message).toBe('The short 62 put (2024-03-08) is 2.00 in the money with 7 days to expiry (rule: within 7): assignment is near.');
  });
  it('8 days out, or out of the money (spot 62.01), or exactly at the money (spot 62): not this rule', () => {
    expect(ruleNames(trade([short(62, 'P', '2024-03-09', 8, 2.1)]), rules({ manageAtDte: null }))).toEqual([]);
    expect(ruleNames(trade([short(62, 'P', '2024-03-08', 7, 0.3)], { spot: 62.01 }), rules({ manageAtDte: null }))).toEqual([]);
    expect(ruleNames(trade([short(62, 'P', '2024-03-08', 7, 0.3)], { spot: 62 }), rules({ manageAtDte: null }))).toEqual([]);
  });
  it('a short call is in the money above its strike', () => {
    expect(ruleNames(trade([short(58, 'C', '2024-03-08', 7, 2.2)]), rules({ manageAtDte: null }))).toEqual(['itm_near_expiry']);
  });
});

describe('dividend risk: a short call ITM whose extrinsic value is below a dividend going ex before its expiration', () => {
  // Spot 60, a short 58 call marked 2.10: intrinsic 60 − 58 = 2.00, extrinsic 2.10 − 2.00 = 0.10 < the 0.485 dividend.
  const call = short(58, 'C', '2024-04-19', 49, 2.1);
  const dividend = (exDate: string, amount = 0.485) => rules({ upcomingDividends: [{ symbol: 'ko', exDate, amount }] });

  it('ex on 2024-03-14 (after today, before the 04-19 expiration): fires with extrinsic 0.10 against 0.485', () => {
    const [hit] = evaluateTrade(trade([call]), dividend('2024-03-14'));
    expect(hit).toMatchObject({ rule: 'dividend', value: 0.1, threshold: 0.485, leg: call.symbol });
    expect(hit?.message).toBe('The short 58 call (2024-04-19) has 0.10 of extrinsic value, less than the 0.485 dividend going ex on 2024-03-14: early exercise the day before is likely.');
  });
  it('not when the ex-date is today or past, after the expiration, or the dividend at most the extrinsic value', () => {
    expect(ruleNames(trade([call]), dividend('2024-03-01'))).toEqual([]);
    expect(ruleNames(trade([call]), dividend('2024-04-22'))).toEqual([]);
    expect(ruleNames(trade([call]), dividend('2024-03-14', 0.1))).toEqual([]);
    expect(ruleNames(trade([call]), dividend('2024-03-14', 0.1001))).toEqual(['dividend']);
  });
  it('not for an out-of-the-money call (exercising it loses money), a put, another symbol, or with the rule off', () => {
    expect(ruleNames(trade([short(62, 'C', '2024-04-19', 49, 0.3)]), dividend('2024-03-14'))).toEqual([]);
    expect(ruleNames(trade([short(62, 'P', '2024-04-19', 49, 2.1)]), dividend('2024-03-14'))).toEqual([]);
    expect(ruleNames(trade([call]), rules({ upcomingDividends: [{ symbol: 'PEP', exDate: '2024-03-14', amount: 1 }] }))).toEqual([]);
    expect(ruleNames(trade([call]), { ...dividend('2024-03-14'), dividendRisk: false })).toEqual([]);
  });
  it('legFigures: intrinsic, extrinsic and the distance out of the money in % of spot', () => {
    expect(legFigures(call, 60)).toEqual({ intrinsicMinor: minor(2), extrinsicMinor: minor(0.1), distancePct: ((58 - 60) / 60) * 100 });
    // A put: (spot − strike) / spot: 55 at spot 60 is 8.33 % out of the money.
    expect(legFigures(short(55, 'P', '2024-04-19', 49, 0.4), 60)?.distancePct).toBeCloseTo((5 / 60) * 100, 12);
  });
});

describe('level alerts: the position alerts of the trade’s short options', () => {
  const leg = short(55, 'P', '2024-04-19', 49, 0.4);
  const alert = (changes: Partial<LevelAlertFact> = {}): LevelAlertFact => ({
    accountId: 'acc',
    symbol: leg.symbol,
    level: 'putWall',
    alert: 'crossed',
    gapPct: 0.5,
    distancePct: 1,
    timestamp: '2024-03-01T20:00:00.000Z',
    message: 'KO put wall 54 → 55.5 crossed your short 55 put (2024-04-19): 0.9% above',
    ...changes,
  });
  it('an alert of its short option fires, with the alert’s words, its gap and distance', () => {
    expect(evaluateTrade(trade([leg]), rules(), [alert()])).toEqual([{ rule: 'level', value: 0.5, threshold: 1, leg: leg.symbol, message: alert().message }]);
  });
  it('the newest alert of each level once; another account’s or another contract’s never; off: nothing', () => {
    const older = alert({ timestamp: '2024-02-29T20:00:00.000Z', gapPct: 3 });
    const flip = alert({ level: 'gammaFlip', gapPct: -0.8 });
    expect(evaluateTrade(trade([leg]), rules(), [older, alert(), flip]).map((h) => h.value)).toEqual([0.5, -0.8]);
    expect(ruleNames(trade([leg]), rules(), [alert({ accountId: 'other' }), alert({ symbol: 'KO240419P00050000' })])).toEqual([]);
    expect(ruleNames(trade([leg]), rules({ levelAlerts: false }), [alert()])).toEqual([]);
  });
});

describe('urgency', () => {
  it('ITM near expiry, loss stop, dividend, level, DTE, profit: in that order whatever the legs', () => {
    const itmPut = short(62, 'P', '2024-03-08', 7, 2.1);
    const itmCall = short(58, 'C', '2024-03-08', 7, 2.05);
    const hits = evaluateTrade(trade([itmCall, itmPut], { totalUnits: -250, creditUnits: 100 }), rules({ upcomingDividends: [{ symbol: 'KO', exDate: '2024-03-05', amount: 0.5 }] }), [
      { accountId: 'acc', symbol: itmPut.symbol, level: 'gammaFlip', alert: 'within', gapPct: 0.2, distancePct: 1, timestamp: '2024-03-01T20:00:00Z', message: 'flip near' },
    ]);
    expect(hits.map((h) => h.rule)).toEqual(['itm_near_expiry', 'itm_near_expiry', 'loss_stop', 'dividend', 'level', 'dte']);
  });
  it('every rule off: nothing, whatever the trade', () => {
    const off = rules({ profitTargetPct: null, manageAtDte: null, lossStopMultiple: null, itmWithinDays: null, dividendRisk: false, levelAlerts: false });
    expect(ruleNames(trade([short(62, 'P', '2024-03-04', 3, 2.1)], { totalUnits: -1000 }), off)).toEqual([]);
  });
});
