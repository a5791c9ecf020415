import {
  CampaignDetailResponse,
  CampaignParams,
  CampaignQuery,
  CampaignsQuery,
  CampaignsResponse,
  PositionsQuery,
  PositionsResponse,
  PerformanceQuery,
  PerformanceResponse,
  SummaryQuery,
  SummaryResponse,
  TransactionsQuery,
  TransactionsResponse,
} from '../../../src-shared/api/schemas';
import type { AppContext } from '../context';
import { presentPerformance, presentTransaction, presentYear } from '../presenters/journal';
import { presentChainDetail, presentChains, presentPositions } from '../presenters/book';
import { unwrap } from '../problems';
import { bothEnds, calendarDates, dateOrDateTime, datesInOrder, problemResponses, queryRules, type V1 } from '../route-kit';

export function registerJournalRoutes(v1: V1, ctx: AppContext): void {
  v1.get(
    '/journal/performance',
    {
      schema: {
        summary: 'Weekly and monthly P&L around a date, or a custom range',
        tags: ['journal'],
        querystring: PerformanceQuery,
        response: { 200: PerformanceResponse, ...problemResponses },
      },
      preHandler: queryRules(bothEnds('from', 'to'), calendarDates('from', 'to'), datesInOrder('from', 'to'), dateOrDateTime('date')),
    },
    async (request) => {
      const { accounts, demo, ...result } = unwrap(await ctx.journal.performance(request.query));
      return { ...presentPerformance(result), accounts, demo };
    },
  );
  v1.get(
    '/journal/summary',
    {
      schema: { summary: 'Yearly statistics and chart data', tags: ['journal'], querystring: SummaryQuery, response: { 200: SummaryResponse, ...problemResponses } },
    },
    async (request) => {
      const { accounts, demo, ...result } = unwrap(await ctx.journal.summary(request.query.year, request.query.accountId));
      return { ...presentYear(result), accounts, demo };
    },
  );
  v1.get(
    '/journal/positions',
    {
      schema: {
        summary: 'Open positions at an instant, marked from the chain snapshots, with greeks and dealer levels',
        tags: ['journal'],
        querystring: PositionsQuery,
        response: { 200: PositionsResponse, ...problemResponses },
      },
      preHandler: queryRules(dateOrDateTime('asOf')),
    },
    async (request) => {
      const { accounts, demo, ...result } = unwrap(await ctx.journal.positions(request.query));
      return { ...presentPositions(result), accounts, demo };
    },
  );
  v1.get(
    '/journal/chains',
    {
      schema: {
        summary: 'Wheel campaigns (chains, flat to flat) with premiums, P&L, collateral and returns',
        tags: ['journal'],
        querystring: CampaignsQuery,
        response: { 200: CampaignsResponse, ...problemResponses },
      },
      preHandler: queryRules(dateOrDateTime('asOf')),
    },
    async (request) => {
      const { accounts, demo, ...result } = unwrap(await ctx.journal.chains(request.query));
      return { ...presentChains(result), accounts, demo };
    },
  );
  v1.get(
    '/journal/chains/:id',
    {
      schema: {
        summary: 'One campaign with its timeline of legs and its open positions',
        tags: ['journal'],
        params: CampaignParams,
        querystring: CampaignQuery,
        response: { 200: CampaignDetailResponse, ...problemResponses },
      },
      preHandler: queryRules(dateOrDateTime('asOf')),
    },
    async (request) => presentChainDetail(unwrap(await ctx.journal.chain(request.params.id, request.query.asOf))),
  );
  v1.get(
    '/journal/transactions',
    {
      schema: {
        summary: 'Transactions, newest first, paginated (limit clamped to 100)',
        tags: ['journal'],
        querystring: TransactionsQuery,
        response: { 200: TransactionsResponse, ...problemResponses },
      },
      preHandler: queryRules(calendarDates('fromDate', 'toDate')),
    },
    async (request) => {
      const page = await ctx.journal.transactions(request.query);
      const { realizedMinor, ...rest } = page;
      return { ...rest, transactions: page.transactions.map((tx, index) => presentTransaction(tx, realizedMinor[index] ?? null)) };
    },
  );
}
