import { asOfMs } from '../../../src-shared/date-or-instant';
import { nowDate } from '../../clock';
import type { AppContext } from '../context';
import { presentAccounts, presentPerformance, presentTransaction, presentYear } from '../presenters/journal';
import { presentCampaignDetail, presentCampaigns, presentPositions, withAlerts } from '../presenters/book';
import { presentManage } from '../presenters/manage';
import { unwrap } from '../problems';
import { bothEnds, calendarDates, dateOrDateTime, datesInOrder, queryRules, journalAnswer, type V1 } from '../route-kit';
import { serve } from '../route-table';

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
  serve(v1, 'GET /journal/performance', async (request) => journalAnswer(await ctx.journal.performance(request.query), presentPerformance), {
    preHandler: queryRules(bothEnds('from', 'to'), calendarDates('from', 'to'), datesInOrder('from', 'to'), dateOrDateTime('date')),
  });
  serve(v1, 'GET /journal/accounts', async () => presentAccounts(await ctx.journal.accounts()));
  serve(v1, 'GET /journal/summary', async (request) => journalAnswer(await ctx.journal.summary(request.query.year, request.query.accountId), presentYear));
  serve(v1, 'GET /journal/positions', async (request) => withAlerts(journalAnswer(await ctx.journal.positions(request.query), presentPositions), ctx.exposure.recentPositionAlerts()), { preHandler: queryRules(dateOrDateTime('asOf')) });
  serve(
    v1,
    'GET /journal/manage',
    async (request) => journalAnswer(await ctx.journal.manage(request.query, ctx.settings.manageRules, ctx.settings.manageRules.levelAlerts ? ctx.exposure.manageAlerts(manageAsOfMs(ctx, request.query.asOf)) : []), presentManage),
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
