/**
 * The check that keeps the served routes and the route table one (route-table.ts): app.ts refuses to start on any
 * problem it names. Here on lists of routes as Fastify's onRoute reports them.
 */
import { describe, expect, it } from 'vitest';
import { ROUTE_KEYS, splitRouteKey, type RouteKey } from '../../../../src-shared/api/routes';
import { ProblemSchema } from '../../../../src-shared/api/schemas';
import Fastify from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { fastifyPath, serveUpload, tableProblems, type RegisteredRoute } from '../../../../src-main/server/route-table';

function servedAsDeclared(key: RouteKey): RegisteredRoute {
  const { method, path } = splitRouteKey(key);
  return { method, url: `/v1${fastifyPath(path)}`, routeKey: key };
}

const all = ROUTE_KEYS.map(servedAsDeclared);

describe('tableProblems', () => {
  it('finds none when each entry is served once where it says (with the HEAD Fastify adds to a GET)', () => {
    const heads = all.filter((route) => route.method === 'GET').map((route) => ({ ...route, method: 'HEAD' }));
    expect(tableProblems([...all, ...heads])).toEqual([]);
  });

  it('names an entry without a handler', () => {
    expect(tableProblems(all.filter((route) => route.routeKey !== 'GET /journal/manage'))).toEqual(['GET /journal/manage has no handler (serve it in a file of src-main/server/routes)']);
  });

  it('names a route served without an entry, and an entry served twice', () => {
    const extra: RegisteredRoute = { method: 'GET', url: '/v1/journal/new-thing', routeKey: undefined };
    const twice = servedAsDeclared('POST /imports');
    expect(tableProblems([...all, extra, twice])).toEqual(['GET /v1/journal/new-thing is served without an entry in the route table (src-shared/api/routes.ts)', 'POST /imports is served 2 times']);
  });

  it('names an entry served at another method or path than its key says', () => {
    const moved = all.map((route) => (route.routeKey === 'GET /snapshots/{id}' ? { ...route, url: '/v1/snapshot/:id' } : route));
    expect(tableProblems(moved)).toEqual(['GET /snapshots/{id} is served at GET /v1/snapshot/:id']);
  });

  it('writes path parameters as Fastify does', () => {
    expect(fastifyPath('/journal/trades/{id}/rolls')).toBe('/journal/trades/:id/rolls');
  });
});

describe('serveUpload', () => {
  it("hands the handler the upload's bytes as they came (an empty body: none), and refuses a body over the route's limit", async () => {
    const app = Fastify().withTypeProvider<TypeBoxTypeProvider>();
    app.addSchema(ProblemSchema);
    // The code of a refusal as it is (app.ts answers it as a problem).
    app.setErrorHandler((error: { statusCode?: number; code?: string }, _request, reply) => reply.code(error.statusCode ?? 500).type('text/plain').send(error.code ?? ''));
    const received: Uint8Array[] = [];
    serveUpload(
      app,
      'POST /imports',
      async (body) => {
        received.push(body);
        // The entry answers an import's report: the handler answers through the error handler instead.
        throw Object.assign(new Error('received'), { statusCode: 202, code: 'RECEIVED' });
      },
      { bodyLimit: 4 },
    );
    await app.ready();
    try {
      const post = (payload: string) => app.inject({ method: 'POST', url: '/imports', headers: { 'content-type': 'text/csv' }, payload });
      expect((await post('a,é')).body).toBe('RECEIVED');
      expect((await post('')).body).toBe('RECEIVED');
      const over = await post('a,b,c');
      expect([over.statusCode, over.body], '5 bytes over a limit of 4').toEqual([413, 'FST_ERR_CTP_BODY_TOO_LARGE']);
      expect(received.map((body) => [body instanceof Uint8Array, [...body]])).toEqual([
        [true, [0x61, 0x2c, 0xc3, 0xa9]],
        [true, []],
      ]);
    } finally {
      await app.close();
    }
  });
});
