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
import { asOfMs } from '../../../src-shared/date-or-instant';
import { nowDate } from '../../clock';
import type { AppContext } from '../context';
import { presentAccounts, presentPerformance, presentTransaction, presentYear } from '../presenters/journal';
import { presentCampaignDetail, presentCampaigns, presentPositions, withAlerts } from '../presenters/book';
import { presentManage } from '../presenters/manage';
import { unwrap } from '../problems';
import { bothEnds, calendarDates, dateOrDateTime, datesInOrder, problemResponses, queryRules, readSchema, journalAnswer, type V1 } from '../route-kit';

/**
 * The instant the management rules' level alerts are read up to: asOf (a date the end of that day, in the journal's
 * zone: date-or-instant.ts), default now.
 */
function manageAsOfMs(ctx: AppContext, asOf: string | undefined): number {
  const nowMs = nowDate(ctx.clock).getTime();
  const parsed = asOf === undefined ? nowMs : asOfMs(asOf, ctx.settings.timeZone);
  return Number.isFinite(parsed) ? parsed : nowMs;
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
    async (request) => withAlerts(journalAnswer(await ctx.journal.positions(request.query), presentPositions), ctx.exposure.recentPositionAlerts()),
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
    async (request) => journalAnswer(await ctx.journal.manage(request.query, ctx.settings.manageRules, ctx.settings.manageRules.levelAlerts ? ctx.exposure.manageAlerts(manageAsOfMs(ctx, request.query.asOf)) : []), presentManage),
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
