/**
 * The /v1 JSON of the morning routine (docs/journal.md §Managing open trades, §Rolls): money in cents, prices per share
 * in currency units (4 decimals, exact: the service computes them in minor units).
 */
import type { ManageItemJson, ManageResponseT, ManageStaleJson, RollLegJson, RollsResponseT } from '../../../src-shared/api/schemas';
import { daysToExpiry } from '../../../src-shared/exposure/time';
import type { RollLegResult } from '../../../src-shared/journal/roll-candidates';
import { centsOrNull, minorToCents, minorToUnits, toMinor, type Minor } from '../../../src-shared/money';
import type { ManageItem, ManageResult, StaleItem } from '../../services/journal/manage';
import type { RollsResult } from '../../services/journal/rolls';

/** A price per share as the wire shows it: exact to 1/10,000 (a mid of two cents is not 2.0999999999999996). */
const price = (units: number): number => minorToUnits(toMinor(units));
const unitsOrNull = (minor: Minor | null): number | null => (minor === null ? null : minorToUnits(minor));

function tradeRef(item: { trade: ManageItem['trade']; accountName: string }) {
  return { tradeId: item.trade.id, accountId: item.trade.accountId, accountName: item.accountName, symbol: item.trade.underlying, strategy: item.trade.strategy, currency: item.trade.currency };
}

function presentItem(item: ManageItem): ManageItemJson {
  return {
    ...tradeRef(item),
    rules: item.hits.map((hit) => ({ rule: hit.rule, value: hit.value, threshold: hit.threshold, message: hit.message, leg: hit.leg })),
    mark: item.mark === null ? null : { price: price(item.mark.price), asOf: item.mark.quoteTime, snapshotId: item.mark.snapshotId, ageDays: item.mark.ageDays, stale: item.mark.stale },
    spot: item.spot,
    pnl: minorToCents(item.totalMinor),
    unrealizedPL: minorToCents(item.unrealizedMinor),
    maxProfit: centsOrNull(item.creditMinor),
    pctOfMaxProfit: item.pctOfMaxProfit,
    legs: item.legs.map((leg) => ({
      symbol: leg.symbol,
      isOption: leg.isOption,
      expiration: leg.expiration,
      strike: leg.strike,
      right: leg.right,
      quantity: leg.quantity,
      multiplier: leg.multiplier,
      dte: leg.dte,
      mark: price(leg.markPrice),
      delta: leg.delta,
      intrinsic: leg.figures === null ? null : minorToUnits(leg.figures.intrinsicMinor),
      extrinsic: leg.figures === null ? null : minorToUnits(leg.figures.extrinsicMinor),
      distancePct: leg.figures?.distancePct ?? null,
    })),
  };
}

function presentStale(item: StaleItem): ManageStaleJson {
  return { ...tradeRef(item), leg: item.leg, reason: item.reason, quoteTime: item.quoteTime, ageDays: item.ageDays };
}

export function presentManage(result: ManageResult): Omit<ManageResponseT, 'accounts' | 'demo' | 'building'> {
  return { asOf: result.asOf, currency: result.currency, rules: result.rules, open: result.open, items: result.items.map(presentItem), stale: result.stale.map(presentStale) };
}

function presentLeg(result: RollLegResult, quoteMs: number): RollLegJson {
  const { leg } = result;
  return {
    leg: { symbol: leg.symbol, expiration: leg.expiration, strike: leg.strike, right: leg.right, contracts: leg.contracts, multiplier: leg.multiplier, dte: daysToExpiry(leg.expiration, quoteMs) },
    root: result.root,
    closeBid: unitsOrNull(result.closeBidMinor),
    closeAsk: unitsOrNull(result.closeAskMinor),
    closeMid: unitsOrNull(result.closeMidMinor),
    closeNatural: unitsOrNull(result.closeNaturalMinor),
    expirations: result.expirations.map((e) => ({
      expiration: e.expiration,
      dte: e.dte,
      putWall: e.levels?.putWall ?? null,
      callWall: e.levels?.callWall ?? null,
      gammaFlip: e.levels?.gammaFlip ?? null,
      gammaZone: e.levels?.gammaZone ?? null,
    })),
    considered: result.considered,
    candidates: result.candidates.map((c) => ({
      expiration: c.expiration,
      symbol: c.symbol,
      strike: c.strike,
      dte: c.dte,
      bid: minorToUnits(c.bidMinor),
      ask: minorToUnits(c.askMinor),
      openMid: minorToUnits(c.openMidMinor),
      openNatural: minorToUnits(c.openNaturalMinor),
      netMid: unitsOrNull(c.netMidMinor),
      netNatural: unitsOrNull(c.netNaturalMinor),
      delta: c.delta,
      probOTM: c.probOTM,
      iv: c.iv,
      openInterest: c.openInterest,
      collateral: centsOrNull(c.collateralMinor),
      returnOnCollateral: c.returnOnCollateral,
      annualized: c.annualized,
      place: c.place,
    })),
  };
}

export function presentRolls(result: RollsResult): RollsResponseT {
  const quoteMs = Date.parse(result.snapshot.quoteTime);
  const { options } = result;
  return {
    tradeId: result.trade.id,
    symbol: result.snapshot.symbol,
    currency: result.trade.currency,
    snapshot: { id: result.snapshot.id, quoteTime: result.snapshot.quoteTime, spot: result.snapshot.spot, ageDays: result.snapshot.ageDays },
    filters: {
      maxDte: options.maxDte,
      expirations: options.expirations,
      strikes: options.strikes,
      minNet: options.minNet ?? null,
      net: options.net ?? 'mid',
      maxDelta: options.maxDelta ?? null,
      beyondWall: options.beyondWall === true,
    },
    legs: result.legs.map((leg) => presentLeg(leg, quoteMs)),
  };
}
