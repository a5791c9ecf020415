import {
  PerformanceQuery,
  PerformanceResponse,
  SummaryQuery,
  SummaryResponse,
  TransactionsQuery,
  TransactionsResponse,
} from '../../../src-shared/api/schemas';
import type { AppContext } from '../context';
import { problemResponses, type V1 } from './health';

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
    },
    async (request) => ctx.journal.performance(request.query),
  );
  v1.get(
    '/journal/summary',
    {
      schema: { summary: 'Yearly statistics and chart data', tags: ['journal'], querystring: SummaryQuery, response: { 200: SummaryResponse, ...problemResponses } },
    },
    async (request) => ctx.journal.summary(request.query.year),
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
    },
    async (request) => ctx.journal.transactions(request.query),
  );
}
