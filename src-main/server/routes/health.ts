import type { App } from '../app';
import { HealthSchema } from '../../../src-shared/api/schemas';
import type { AppContext } from '../context';

export type V1 = App;

export const problemResponses = {
  '4xx': { $ref: 'Problem#' },
} as const;

export function registerHealthRoutes(v1: V1, ctx: AppContext): void {
  v1.get(
    '/health',
    { config: { access: 'public' }, schema: { summary: 'Liveness (no key needed)', tags: ['meta'], security: [], response: { 200: HealthSchema } } },
    async () => ({ status: 'ok' as const, version: ctx.version, time: new Date().toISOString() }),
  );
}
