import { nowIso } from '../../clock';
import type { AppContext } from '../context';
import type { V1 } from '../route-kit';
import { serve } from '../route-table';

export function registerHealthRoutes(v1: V1, ctx: AppContext): void {
  serve(v1, 'GET /health', async () => ({ status: 'ok' as const, version: ctx.version, time: nowIso(ctx.clock) }));
}
