/**
 * One request per entry of the route table (src-shared/api/routes.ts), for the route tests (routing-auth, contract,
 * fuzz): typed by the table's keys, so an entry added without its request here does not compile, and a request for
 * a route the table no longer has does not either. Each is one that only its route answers so, without side effects
 * beyond its purpose (nothing is written but the demo, a backup refused before it starts, and the key rotation).
 */
import { ROUTE_KEYS, ROUTES, splitRouteKey, type RouteKey } from '../../../../src-shared/api/routes';

export interface RouteSample {
  /** Values of the path's parameters (`{id}`). */
  params?: Record<string, string>;
  query?: string;
  body?: string;
  type?: string;
}

export const SAMPLES: Record<RouteKey, RouteSample> = {
  'GET /health': {},
  'GET /openapi.json': {},
  'GET /journal/performance': { query: 'period=weekly&date=2099-11-20' },
  'GET /journal/summary': { query: 'year=2099' },
  'GET /journal/accounts': {},
  'GET /journal/transactions': { query: 'limit=5' },
  'GET /journal/positions': { query: 'asOf=2099-01-01' },
  'GET /journal/chains': { query: 'status=open' },
  'GET /journal/chains/{id}': { params: { id: 'nope' } },
  'GET /journal/campaigns': { query: 'status=open' },
  'GET /journal/campaigns/{id}': { params: { id: 'nope' } },
  // Manual entries: a refused list and a row that names no stored transaction (nothing is written).
  'POST /journal/transactions': { body: '{"transactions":[]}', type: 'application/json' },
  'PUT /journal/transactions/{id}': { params: { id: 'mtx_nope' }, body: '{"account":"A","type":"DEPOSIT","amount":1,"date":"2024-01-02"}', type: 'application/json' },
  'DELETE /journal/transactions/{id}': { params: { id: 'mtx_nope' } },
  // Corporate actions: a refused body and an id that names no action (nothing is written).
  'GET /journal/corporate-actions': { query: 'limit=5' },
  'POST /journal/corporate-actions': { body: '{"type":"split","symbol":"X","date":"2024-01-02"}', type: 'application/json' },
  'PUT /journal/corporate-actions/{id}': { params: { id: '987654' }, body: '{"type":"split","symbol":"X","ratio":2,"date":"2024-01-02"}', type: 'application/json' },
  'DELETE /journal/corporate-actions/{id}': { params: { id: '987654' } },
  // Expired worthless by hand: a refused (empty) list, nothing written.
  'POST /journal/expirations': { body: '{"items":[]}', type: 'application/json' },
  'GET /journal/trades': { query: 'status=closed&limit=5' },
  'GET /journal/trades/{id}': { params: { id: 'tx_nope' } },
  'GET /journal/trades/{id}/rolls': { params: { id: 'tx_nope' }, query: 'strikes=2' },
  'GET /journal/manage': { query: 'asOf=2099-01-01' },
  'GET /journal/stats': { query: 'groupBy=zoneAtEntry' },
  // Notes on a trade and a campaign the journal does not have: 404, nothing written.
  'PUT /journal/trades/{id}/annotation': { params: { id: 'tx_nope' }, body: '{"note":"n","tags":[]}', type: 'application/json' },
  'GET /journal/trades/{id}/annotation': { params: { id: 'tx_nope' } },
  'GET /journal/chains/{id}/annotation': { params: { id: 'nope' } },
  'PUT /journal/chains/{id}/annotation': { params: { id: 'nope' }, body: '{"note":"n","tags":[]}', type: 'application/json' },
  'POST /imports': { query: 'broker=nope', body: 'a,b\n1,2\n', type: 'text/csv' },
  'GET /imports': {},
  'GET /imports/{id}': { params: { id: '987654' } },
  'DELETE /imports/{id}': { params: { id: '987654' } },
  'POST /imports/{id}/acknowledge': { params: { id: '987654' } },
  // A positions file compared, not saved (nothing written).
  'POST /journal/reconcile': { query: 'asOf=2099-01-01', body: 'symbol,quantity\nAAPL,1\n', type: 'text/csv' },
  'GET /journal/reconciliations': {},
  'GET /import-formats': {},
  'POST /import-formats': { body: '{}', type: 'application/json' },
  'PUT /import-formats/{id}': { params: { id: 'abc123' }, body: '{"name":"x"}', type: 'application/json' },
  'DELETE /import-formats/{id}': { params: { id: 'zz9999' } },
  'POST /import-formats/preview': { body: '{"text":"a,b\\n1,2\\n"}', type: 'application/json' },
  'GET /gex': { query: 'symbol=RTA&formula=per_1pct' },
  'GET /vanna': { query: 'symbol=RTA' },
  'GET /expirations': { query: 'symbol=RTA' },
  'GET /gex/events': { query: 'limit=5' },
  'GET /gex/profile': { query: 'symbol=RTA&formula=per_1pct' },
  'GET /gex/history': { query: 'symbol=RTA&maxDte=0' },
  'GET /gex/diff': { query: 'symbol=RTA&from=1&to=2' },
  'GET /snapshots': { query: 'symbol=RTA' },
  'DELETE /snapshots/{id}': { params: { id: '987654' } },
  'GET /snapshots/{id}': { params: { id: '987654' } },
  'GET /gex/grid': { query: 'symbol=RTA' },
  // An unknown field: the route's validation answers, no export starts.
  'POST /exports': { body: '{"bogus":1}', type: 'application/json' },
  'GET /exports': {},
  'GET /exports/{id}': { params: { id: 'nope' } },
  'GET /backups': {},
  // An unknown parameter: 400 before a backup is taken; a name outside the backups' grammar: 400, nothing staged.
  'POST /backups': { query: 'bogus=1' },
  'POST /backups/restore': { body: '{"name":"../strikebook.db"}', type: 'application/json' },
  // The stream's own validation answers (a stream that opened would never end: see the SSE tests).
  'GET /gex/events/stream': { query: 'eventType=bogus' },
  // An unknown parameter: each spelling gets the same answer (a ticket is new every time).
  'POST /gex/events/stream-ticket': { query: 'bogus=1' },
  'POST /chains': { body: ' ', type: 'text/csv' },
  'GET /chains': {},
  // An unknown parameter: the route answers 400 before a pass starts (no fetch from this test, the same answer each time).
  'POST /chains/refresh': { query: 'unknown=1' },
  'GET /chains/refresh': { query: 'unknown=1' },
  'GET /chains/watch': {},
  // A relative path: the route refuses it (400) before any backfill starts.
  'POST /chains/backfill': { body: '{"path":"chains"}', type: 'application/json' },
  'GET /chains/backfill': {},
  'GET /status': {},
  'GET /settings': {},
  'PUT /settings': { body: '{}', type: 'application/json' },
  'POST /keys/rotate': {},
  'POST /demo': {},};

/** The table's keys with their method and their /v1 path, parameters filled from the sample. */
export interface SampledRoute {
  key: RouteKey;
  method: string;
  /** The route as the tests name it: `GET /v1/journal/trades/{id}`. */
  label: string;
  /** `/v1/...` with the sample's parameters in place. */
  path: string;
  sample: RouteSample;
  public: boolean;
}

export function sampledRoutes(): SampledRoute[] {
  return ROUTE_KEYS.map((key) => {
    const { method, path } = splitRouteKey(key);
    const sample = SAMPLES[key];
    const filled = path.replace(/\{(\w+)\}/g, (_whole, name: string) => {
      const value = sample.params?.[name];
      if (value === undefined) throw new Error(`${key}: its sample has no value for {${name}}`);
      return value;
    });
    return { key, method, label: `${method} /v1${path}`, path: `/v1${filled}`, sample, public: ROUTES[key].access === 'public' };
  });
}
