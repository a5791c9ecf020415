import {
  AccountsResponse,
  CampaignDetailResponse,
  CampaignParams,
  CampaignQuery,
  CampaignsQuery,
  CampaignsResponse,
  ManageQuery,
  ManageResponse,
  NoQuery,
  PositionsQuery,
  PositionsResponse,
  PerformanceQuery,
  PerformanceResponse,
  SummaryQuery,
  SummaryResponse,
  TransactionsQuery,
  TransactionsResponse,
} from '../../../src-shared/api/schemas';
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
import { bothEnds, calendarDates, dateOrDateTime, datesInOrder, problemResponses, queryRules, readSchema, journalAnswer, type V1 } from '../route-kit';

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
  v1.get(
    '/journal/performance',
    {
      schema: readSchema('journal', 'Weekly and monthly P&L around a date, or a custom range', PerformanceQuery, PerformanceResponse),
      preHandler: queryRules(bothEnds('from', 'to'), calendarDates('from', 'to'), datesInOrder('from', 'to'), dateOrDateTime('date')),
    },
    async (request) => journalAnswer(await ctx.journal.performance(request.query), presentPerformance),
  );
  v1.get(
    '/journal/accounts',
    { schema: readSchema('journal', 'The accounts that hold transactions: the ids `accountId` takes, with their transactions and first and last trade days', NoQuery, AccountsResponse) },
    async () => presentAccounts(await ctx.journal.accounts()),
  );
  v1.get(
    '/journal/summary',
    {
      schema: readSchema('journal', 'Yearly statistics and chart data', SummaryQuery, SummaryResponse),
    },
    async (request) => journalAnswer(await ctx.journal.summary(request.query.year, request.query.accountId), presentYear),
  );
  v1.get(
    '/journal/positions',
    {
      schema: readSchema('journal', 'Open positions at an instant, marked from the chain snapshots, with greeks and dealer levels', PositionsQuery, PositionsResponse),
      preHandler: queryRules(dateOrDateTime('asOf')),
    },
    async (request) => withAlerts(journalAnswer(await ctx.journal.positions(request.query), presentPositions), ctx),
  );
  v1.get(
    '/journal/manage',
    {
      schema: readSchema(
        'journal',
        'What to manage today: the open trades that hit a management rule (settings manageRules: profit target, DTE, loss stop, in the money near expiry, dividend risk, level alerts), with the figures behind each, most urgent first; trades with stale marks apart',
        ManageQuery,
        ManageResponse,
      ),
      preHandler: queryRules(dateOrDateTime('asOf')),
    },
    async (request) => journalAnswer(await ctx.journal.manage(request.query, ctx.settings.manageRules, ctx.settings.manageRules.levelAlerts ? manageAlerts(ctx, request.query.asOf) : []), presentManage),
  );
  // Campaigns: `/journal/chains` is the public route (its JSON keeps `chains`); `/journal/campaigns` its alias, named as
  // the UI and the code name them (docs/decisions.md §The middle layer, round two).
  for (const [base, alias] of [
    ['/journal/chains', ''],
    ['/journal/campaigns', ' (alias of /v1/journal/chains)'],
  ] as const) {
    v1.get(
      base,
      {
        schema: readSchema('journal', `Wheel campaigns (chains, flat to flat) with premiums, P&L, collateral and returns${alias}`, CampaignsQuery, CampaignsResponse),
        preHandler: queryRules(dateOrDateTime('asOf')),
      },
      async (request) => journalAnswer(await ctx.journal.campaigns(request.query), presentCampaigns),
    );
    v1.get(
      `${base}/:id`,
      {
        schema: {
          summary: `One campaign with its timeline of legs and its open positions${alias}`,
          tags: ['journal'],
          params: CampaignParams,
          querystring: CampaignQuery,
          response: { 200: CampaignDetailResponse, ...problemResponses },
        },
        preHandler: queryRules(dateOrDateTime('asOf')),
      },
      async (request) => presentCampaignDetail(unwrap(await ctx.journal.campaign(request.params.id, request.query.asOf))),
    );
  }
  v1.get(
    '/journal/transactions',
    {
      schema: readSchema('journal', 'Transactions, newest first, paginated (limit clamped to 100)', TransactionsQuery, TransactionsResponse),
      preHandler: queryRules(calendarDates('fromDate', 'toDate')),
    },
    async (request) => {
      const page = await ctx.journal.transactions(request.query);
      const { realizedMinor, ...rest } = page;
      return { ...rest, transactions: page.transactions.map((tx, index) => presentTransaction(tx, realizedMinor[index] ?? null)) };
    },
  );
}
