import type { PositionJson } from '../../../src-shared/api/journal-schemas';
import { NEW_YORK, todayIn } from '../../../src-shared/zone';
import { nowDate } from '../../clock';
import { positionKey } from '../../services/exposure/events';
import type { AppContext } from '../context';
import { presentAccounts, presentPerformance, presentTransaction, presentYear } from '../presenters/journal';
import { presentCampaignDetail, presentCampaigns, presentPositions } from '../presenters/book';
import { presentManage } from '../presenters/manage';
import type { LevelAlertFact } from '../../../src-shared/journal/manage';
import { unwrap } from '../problems';
import { bothEnds, calendarDates, dateOrDateTime, datesInOrder, queryRules, journalAnswer, type V1 } from '../route-kit';
import { serve } from '../route-table';

/** Position alerts are kept this long on Positions (docs/exposure.md §Events, "Alerts on your strikes"). */
const ALERT_DAYS = 7;

/** Each position with its recent position events (issue 18), from the exposure side's events. */
function withAlerts<P extends { positions: PositionJson[] }>(answer: P, ctx: AppContext): P {
  const nowMs = nowDate(ctx.clock).getTime();
  const alerts = ctx.exposure.eventStore.positionAlerts(new Date(nowMs - ALERT_DAYS * 86_400_000).toISOString(), todayIn(NEW_YORK, nowDate(ctx.clock)));
  if (alerts.size === 0) return answer;
  return { ...answer, positions: answer.positions.map((p) => ({ ...p, ...(alerts.has(positionKey(p)) ? { alerts: alerts.get(positionKey(p)) } : {}) })) };
}

/** Position events kept for the management rules' level rule: the newest this many of the fortnight before asOf. */
const MANAGE_ALERTS_LIMIT = 500;

/**
 * The position alerts the management rules read (docs/journal.md §Managing open trades): those quoted in the two weeks
 * up to asOf (the worker keeps those within the marks' age); asOf as the journal reads it is decided there, so a
 * wide window is read here.
 */
function manageAlerts(ctx: AppContext, asOf: string | undefined): LevelAlertFact[] {
  const nowMs = nowDate(ctx.clock).getTime();
  const parsed = asOf === undefined ? nowMs : Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(asOf) ? `${asOf}T23:59:59Z` : asOf);
  // Without an offset the instant is read in the journal zone: a day either way covers any zone.
  const toMs = (Number.isFinite(parsed) ? parsed : nowMs) + 86_400_000;
  const from = new Date(toMs - 16 * 86_400_000).toISOString();
  const facts: LevelAlertFact[] = [];
  for (const event of ctx.exposure.eventStore.positionEvents(from, new Date(toMs).toISOString(), MANAGE_ALERTS_LIMIT)) {
    if (event.eventType !== 'position') continue;
    facts.push({ accountId: event.accountId, symbol: event.symbol, level: event.level, alert: event.alert, gapPct: event.gapPct, distancePct: event.distancePct, timestamp: event.timestamp, message: event.explanation ?? '' });
  }
  return facts;
}

export function registerJournalRoutes(v1: V1, ctx: AppContext): void {
  serve(v1, 'GET /journal/performance', async (request) => journalAnswer(await ctx.journal.performance(request.query), presentPerformance), {
    preHandler: queryRules(bothEnds('from', 'to'), calendarDates('from', 'to'), datesInOrder('from', 'to'), dateOrDateTime('date')),
  });
  serve(v1, 'GET /journal/accounts', async () => presentAccounts(await ctx.journal.accounts()));
  serve(v1, 'GET /journal/summary', async (request) => journalAnswer(await ctx.journal.summary(request.query.year, request.query.accountId), presentYear));
  serve(v1, 'GET /journal/positions', async (request) => withAlerts(journalAnswer(await ctx.journal.positions(request.query), presentPositions), ctx), { preHandler: queryRules(dateOrDateTime('asOf')) });
  serve(
    v1,
    'GET /journal/manage',
    async (request) => journalAnswer(await ctx.journal.manage(request.query, ctx.settings.manageRules, ctx.settings.manageRules.levelAlerts ? manageAlerts(ctx, request.query.asOf) : []), presentManage),
    { preHandler: queryRules(dateOrDateTime('asOf')) },
  );
  // Campaigns: `/journal/chains` and its alias `/journal/campaigns` (the table says why), one handler each pair.
  for (const [list, one] of [
    ['GET /journal/chains', 'GET /journal/chains/{id}'],
    ['GET /journal/campaigns', 'GET /journal/campaigns/{id}'],
  ] as const) {
    serve(v1, list, async (request) => journalAnswer(await ctx.journal.campaigns(request.query), presentCampaigns), { preHandler: queryRules(dateOrDateTime('asOf')) });
    serve(v1, one, async (request) => presentCampaignDetail(unwrap(await ctx.journal.campaign(request.params.id, request.query.asOf))), { preHandler: queryRules(dateOrDateTime('asOf')) });
  }
  serve(
    v1,
    'GET /journal/transactions',
    async (request) => {
      const page = await ctx.journal.transactions(request.query);
      const { realizedMinor, ...rest } = page;
      return { ...rest, transactions: page.transactions.map((tx, index) => presentTransaction(tx, realizedMinor[index] ?? null)) };
    },
    { preHandler: queryRules(calendarDates('fromDate', 'toDate')) },
  );
}
