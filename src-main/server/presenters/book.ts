/**
 * The /v1 JSON of positions and campaigns (docs/journal.md §Positions, §Campaigns): money rounded to cents once, here.
 * The wire keeps the campaigns' public names: the list's `chains`, the detail's `chain`, a position's `chainId`.
 */
import type { CampaignDetailResponseT, CampaignsResponseT, PositionJson, PositionsResponseT } from '../../../src-shared/api/schemas';
import { isAdjustedOption } from '../../../src-shared/exposure/roots';
import { adjustedBasis } from '../../../src-shared/journal/book';
import { describeCollateral } from '../../../src-shared/journal/collateral';
import type { PositionInstrument } from '../../../src-shared/journal/model';
import { asMinor, centsOrNull, MINOR_PER_UNIT, minorToCents } from '../../../src-shared/money';
import type { CampaignRow, CampaignDetail, CampaignsResult, PositionRow, PositionsResult, PositionTotals } from '../../services/journal/service';
import { positionKey, type PositionAlertJson } from '../../services/exposure/events';
import { presentReconciliationRow } from './reconciliation';

/** What a position and a position that needs attention both say of what is held, and where. */
function presentHolding(i: Omit<PositionInstrument, 'accountId' | 'underlying'> & { accountId: string; underlying: string }, accountName: string) {
  return {
    accountId: i.accountId,
    accountName,
    currency: i.currency,
    symbol: i.symbol,
    underlying: i.underlying,
    isOption: i.isOption,
    expiration: i.expiration,
    strike: i.strike,
    right: i.right,
    multiplier: i.multiplier,
  };
}

export function presentPosition(row: PositionRow): PositionJson {
  const p = row.position;
  // One literal, not presentHolding spread and 13 more fields: an object grown past a dozen added properties is kept as
  // a dictionary by V8, 30 times slower to build and to serialise (742 positions: 21 ms against 0.7).
  return {
    accountId: p.accountId,
    accountName: row.accountName,
    currency: p.currency,
    symbol: p.symbol,
    underlying: p.underlying,
    isOption: p.isOption,
    expiration: p.expiration,
    strike: p.strike,
    right: p.right,
    multiplier: p.multiplier,
    chainId: p.campaignId,
    adjusted: isAdjustedOption(p),
    quantity: p.quantity,
    ...(p.deliverable === undefined ? {} : { deliverable: { root: p.deliverable.root, shares: p.deliverable.shares, cash: minorToCents(asMinor(p.deliverable.cashMinor)) } }),
    averagePrice: Math.round(row.averagePrice * MINOR_PER_UNIT) / MINOR_PER_UNIT,
    costBasis: minorToCents(row.costBasisMinor),
    collateral: minorToCents(asMinor(p.collateralMinor ?? 0)),
    openedAt: p.openedDay,
    dte: row.dte,
    mark: row.mark,
    marketValue: centsOrNull(row.marketValueMinor),
    unrealizedPL: centsOrNull(row.unrealizedMinor),
    greeks: row.greeks,
    levels: row.levels,
    strikeVs: row.strikeVs,
  };
}

function presentTotals(totals: PositionTotals) {
  return {
    costBasis: minorToCents(totals.costBasisMinor),
    collateral: minorToCents(totals.collateralMinor),
    marketValue: minorToCents(totals.marketValueMinor),
    unrealizedPL: minorToCents(totals.unrealizedMinor),
    unmarked: totals.unmarked,
    unmarkedCount: totals.unmarkedCount,
    staleCount: totals.staleCount,
  };
}

export function presentPositions(result: PositionsResult): Omit<PositionsResponseT, 'accounts' | 'demo'> {
  return {
    asOf: result.asOf,
    currency: result.currency,
    levelsScope: result.levelsScope,
    positions: result.positions.map(presentPosition),
    totals: { ...presentTotals(result.totals), byAccount: result.totals.byAccount.map((a) => ({ accountId: a.accountId, accountName: a.accountName, ...presentTotals(a) })) },
    marksAsOf: result.marks,
    needsAttention: result.needsAttention.map((n) => ({
      kind: n.kind,
      reason: n.reason,
      ...presentHolding(n, n.accountName),
      quantity: n.quantity,
      sideKnown: n.sideKnown,
      firstDate: n.firstDate,
      firstTradeDate: n.firstTradeDate,
      closes: n.closes,
      ...(n.closedBy === undefined ? {} : { closedBy: n.closedBy }),
      spot: n.spot,
      quoteTime: n.quoteTime,
      lastSnapshot: n.lastSnapshot,
      ...(n.cashMinor === undefined ? {} : { cash: minorToCents(asMinor(n.cashMinor)) }),
      ...(n.reconciliation === undefined ? {} : { reconciliation: { importId: n.reconciliation.importId, ...presentReconciliationRow(n.reconciliation) } }),
    })),
    inferredExpirations: result.inferredExpirations.map((i) => ({
      accountId: i.transaction.accountId,
      accountName: i.accountName,
      symbol: i.transaction.symbol,
      quantity: i.transaction.quantity,
      tradeDate: i.transaction.tradeDate,
      spot: i.spot,
      quoteTime: i.quoteTime,
    })),
  };
}

export function presentCampaign(row: CampaignRow): CampaignsResponseT['chains'][number] {
  const c = row.record;
  return {
    id: c.id,
    accountId: c.accountId,
    accountName: row.accountName,
    underlying: c.underlying,
    currency: c.currency,
    status: row.status,
    openedAt: c.openDay,
    closedAt: c.closeDay,
    days: row.days,
    premiums: minorToCents(c.premiumsMinor),
    netOptionCash: minorToCents(c.netOptionCashMinor),
    realizedPL: minorToCents(c.realizedMinor),
    dividends: minorToCents(c.dividendsMinor),
    fees: minorToCents(c.feesMinor),
    commissions: minorToCents(c.commissionsMinor),
    pnl: minorToCents(c.plMinor),
    unrealizedPL: centsOrNull(row.unrealizedMinor),
    sharesHeld: row.sharesHeld,
    adjustedCostBasis: row.adjustedCostBasis === null ? null : Math.round(row.adjustedCostBasis * MINOR_PER_UNIT) / MINOR_PER_UNIT,
    collateralPeak: minorToCents(c.collateralPeakMinor),
    collateralRule: describeCollateral(c.collateralBasis),
    returnOnCollateral: row.returnOnCollateral,
    annualizedReturn: row.annualizedReturn,
    rolls: c.rolls,
    assignments: c.assignments,
    legs: row.legs,
  };
}

export function presentCampaigns(result: CampaignsResult): Omit<CampaignsResponseT, 'accounts' | 'demo'> {
  return { asOf: result.asOf, currency: result.currency, chains: result.campaigns.map(presentCampaign), pagination: result.pagination };
}

export function presentCampaignDetail(detail: CampaignDetail): CampaignDetailResponseT {
  return {
    asOf: detail.asOf,
    chain: presentCampaign(detail.campaign),
    timeline: detail.timeline.map((step) => ({
      transactionId: step.txId,
      date: step.day,
      type: step.type,
      symbol: step.symbol,
      quantity: step.quantity,
      cash: minorToCents(step.cashMinor),
      realizedPL: minorToCents(step.realizedMinor),
      sharesHeld: step.sharesHeld,
      adjustedCostBasis: step.sharesHeld > 0 ? Math.round(adjustedBasis(step.shareCostMinor, step.netOptionCashMinor, step.sharesHeld) * MINOR_PER_UNIT) / MINOR_PER_UNIT : null,
      netOptionCash: minorToCents(step.netOptionCashMinor),
      collateral: minorToCents(step.collateralMinor),
    })),
    positions: detail.positions.map(presentPosition),
  };
}

/** Each position with its recent position alerts (issue 18), by the position's key (account and option symbol). */
export function withAlerts<P extends { positions: PositionJson[] }>(answer: P, alerts: ReadonlyMap<string, PositionAlertJson[]>): P {
  if (alerts.size === 0) return answer;
  return { ...answer, positions: answer.positions.map((p) => ({ ...p, ...(alerts.has(positionKey(p)) ? { alerts: alerts.get(positionKey(p)) } : {}) })) };
}
