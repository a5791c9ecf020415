import { HealthSchema, NoQuery } from '../../../src-shared/api/schemas';
import { nowIso } from '../../clock';
import type { AppContext } from '../context';
import type { V1 } from '../route-kit';

export function registerHealthRoutes(v1: V1, ctx: AppContext): void {
  v1.get(
    '/health',
    { config: { access: 'public' }, schema: { summary: 'Liveness (no key needed)', tags: ['meta'], security: [], querystring: NoQuery, response: { 200: HealthSchema } } },
    async () => ({ status: 'ok' as const, version: ctx.version, time: nowIso(ctx.clock) }),
  );
}
