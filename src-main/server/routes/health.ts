import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { HealthSchema } from '../../../src-shared/api/schemas';
import type { AppContext } from '../context';

export type V1 = FastifyInstance<
  import('node:http').Server,
  import('node:http').IncomingMessage,
  import('node:http').ServerResponse,
  import('fastify').FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export const problemResponses = {
  '4xx': { $ref: 'Problem#' },
} as const;

export function registerHealthRoutes(v1: V1, ctx: AppContext): void {
  v1.get(
    '/health',
    { schema: { summary: 'Liveness (no key needed)', tags: ['meta'], security: [], response: { 200: HealthSchema } } },
    async () => ({ status: 'ok' as const, version: ctx.version, time: new Date().toISOString() }),
  );
}
