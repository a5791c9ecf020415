import { METHODS, type IncomingMessage } from 'node:http';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifySchemaValidationError } from 'fastify/types/schema';
import { makeProblem, type Problem } from '../../src-shared/api/errors';
import { ProblemSchema } from '../../src-shared/api/schemas';
import { isDatabaseBusy } from '../db/writes';
import { SnapshotDamagedError } from '../db/snapshot-payload';
import { AnswerCache } from './answer-cache';
import type { AppContext } from './context';
import { ApiError, busyProblem, damagedProblem, jobStoppedProblem, sendProblem, storageProblem } from './problems';
import { JobStoppedError } from '../services/worker-thread';
import { grammarError, validationProblem } from './validation';
import { makeFastPath } from './fast-path';
import { makeGate } from './gate';
import { StreamTickets } from './stream-tickets';
import { BODY_LIMIT_BYTES, UPLOAD_CONTENT_TYPES, type Access, type App } from './route-kit';
import { canonicalTarget } from './target';
import { answerClientError } from './client-errors';
import { connectionBook, createListener, CONNECTIONS_RETRY_AFTER_SECONDS, type ListenerOptions } from './listener';
import { registerHealthRoutes } from './routes/health';
import { registerJournalRoutes } from './routes/journal';
import { registerImportRoutes } from './routes/imports';
import { registerManualRoutes } from './routes/manual';
import { registerReconciliationRoutes } from './routes/reconciliation';
import { registerCorporateActionRoutes } from './routes/corporate-actions';
import { registerTradeRoutes } from './routes/trades';
import { registerImportFormatRoutes } from './routes/import-formats';
import { tickerKeyword } from './ticker-keyword';
import { registerExposureRoutes } from './routes/exposure';
import { registerChainRoutes } from './routes/chains';
import { registerChainRefreshRoutes } from './routes/chain-refresh';
import { registerChainArrivalRoutes } from './routes/chain-arrival';
import { registerAdminRoutes } from './routes/admin';
import { registerExportRoutes } from './routes/exports';
import { registerBackupRoutes } from './routes/backups';
import { registerStreamTicketRoutes } from './routes/stream-ticket';
import { registerStaticRoutes } from './routes/static';
import { serve, tableProblems, type RegisteredRoute } from './route-table';

export type { App } from './route-kit';

export interface AppOptions extends ListenerOptions {
  /** The port the listener uses: the Host check accepts only 127.0.0.1:<port> and localhost:<port>. */
  port: number;
  /** Folder of the built renderer served at `/` (headless mode); null = no UI. */
  uiDir?: string | null;
  logErrors?: (error: unknown, request: FastifyRequest) => void;
}

/** Builds the /v1 app without listening (tests call it with `inject`). */
export async function buildApp(ctx: AppContext, options: AppOptions): Promise<App> {
  const tickets = new StreamTickets(() => ctx.clock.monotonicMs());
  // Who holds the connections: the listener admits and closes them, the hook below and the event stream claim places.
  const connections = connectionBook(options);
  const gate = makeGate(ctx, options.port, tickets);
  // Exposure answers, serialised, with the URLs that led to them: the routes fill it, the fast path reads it.
  const answers = new AnswerCache(ctx.exposure, ctx.clock, () => ctx.settings.cacheSeconds);
  const fastPath = makeFastPath(ctx, gate, answers);
  // Targets refused before routing (bad encoding, too long, a foreign absolute-form authority): the first hook
  // answers them, whatever route the placeholder URL reached.
  const refusedTargets = new WeakMap<IncomingMessage, Problem>();
  const app = Fastify({
    // Repeated cached exposure requests are answered before routing (fast-path.ts); all else goes to Fastify.
    serverFactory: (handler) =>
      createListener((request, response) => {
        if (!fastPath(request, response)) handler(request, response);
      }, options, connections),
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    routerOptions: { maxParamLength: 200 },
    // Routing, the key check and the caches all see one spelling of the target (target.ts).
    rewriteUrl: (request) => {
      const target = canonicalTarget(request.url ?? '');
      if (target.ok && (target.authority === null || gate.hostAllowed(target.authority))) return target.url;
      refusedTargets.set(
        request,
        target.ok
          ? makeProblem('MISDIRECTED', `The request target names host "${target.authority?.slice(0, 100) ?? ''}"; use 127.0.0.1:${options.port} or localhost:${options.port}.`)
          : makeProblem(target.code, target.detail),
      );
      return '/';
    },
    frameworkErrors: (error, _request, reply) => {
      const problem = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? makeProblem('URI_TOO_LONG', 'A path segment is too long.') : makeProblem('MALFORMED_REQUEST', 'The request target is not a valid URL.');
      void sendProblem(reply, problem);
    },
    clientErrorHandler: answerClientError,
    ajv: {
      // Strict: an unknown parameter is an error (not silently dropped); report every bad parameter.
      customOptions: { removeAdditional: false, coerceTypes: true, allErrors: true, useDefaults: false },
      // A ticker parameter is upper-cased as the query is decoded (src-shared/ids.ts, Ticker).
      plugins: [tickerKeyword],
    },
    schemaErrorFormatter: (errors: FastifySchemaValidationError[], context: string) => validationProblem(errors, context),
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Every method Node parses is routed (and so answered 405 where it is not served), never left to a fallback.
  for (const method of METHODS) {
    if (method !== 'CONNECT' && !app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: true });
  }

  app.decorateRequest('keyId', null);

  // docs/conventions.md §HTTP API: the access of the route the router matched (or the not-found handler,
  // which needs a key), decided by the same gate as the fast path. Order: target, Host, CORS preflight, key, rate.
  app.addHook('onRequest', async (request, reply) => {
    const refused = refusedTargets.get(request.raw);
    if (refused !== undefined) return sendProblem(reply, refused);
    const preflight = gate.preflightHeaders(request.raw);
    const access: Access = preflight === null ? (request.routeOptions.config.access ?? 'key') : 'public';
    const admission = gate.admit(request.raw, access);
    if (!admission.ok) return sendProblem(reply, admission.problem, admission.headers);
    // Without a key (a public route): all places but the reserved ones are shared; GET /v1/health keeps its own.
    if (admission.keyId === null && !isHealthRead(request) && !connections.claimShared(request.raw.socket)) {
      return sendProblem(reply, makeProblem('TOO_MANY_CONNECTIONS', 'The server is busy with requests made without a key; try again in a moment (requests with a key and GET /v1/health have places of their own).'), { 'Retry-After': String(CONNECTIONS_RETRY_AFTER_SECONDS) });
    }
    if (preflight !== null) return reply.code(204).headers(preflight).send();
    const cors = gate.corsHeaders(request.raw);
    if (cors !== null) reply.headers(cors);
    request.keyId = admission.keyId;
  });

  // The grammar of numbers and dates (validation.ts), on the decoded text, before the schema coerces it.
  app.addHook('preValidation', async (request) => {
    const schema = request.routeOptions.schema;
    const problem = grammarError(request.params, schema?.params, 'path') ?? grammarError(request.query, schema?.querystring, 'query');
    if (problem !== null) throw problem;
  });

  app.setErrorHandler(async (error: unknown, request, reply) => {
    if (error instanceof ApiError) return sendProblem(reply, error.problem, error.headers);
    // Another process holds the database's write lock: a write gave up waiting, or met it where nothing retried.
    if (isDatabaseBusy(error)) {
      const busy = busyProblem();
      return sendProblem(reply, busy.problem, busy.headers);
    }
    const storage = storageProblem(error);
    if (storage !== null) return sendProblem(reply, storage.problem);
    // A stored snapshot that cannot be decoded: named, with how to delete it (SNAPSHOT_DAMAGED), not a 500.
    if (error instanceof SnapshotDamagedError) return sendProblem(reply, damagedProblem(error).problem);
    // A job stopped before its end: past its time limit (IMPORT_TIMEOUT), or stopped by the server (JOB_STOPPED).
    if (error instanceof JobStoppedError) {
      const stopped = jobStoppedProblem(error);
      return sendProblem(reply, stopped.problem, stopped.headers);
    }
    const fastifyError = error as { code?: string; statusCode?: number; message?: string; validation?: FastifySchemaValidationError[]; validationContext?: string };
    if (fastifyError.validation) return sendProblem(reply, validationProblem(fastifyError.validation, fastifyError.validationContext ?? 'request').problem);
    switch (fastifyError.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendProblem(reply, makeProblem('PAYLOAD_TOO_LARGE', `The body exceeds the limit of ${describeLimit(request)}.`));
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendProblem(reply, makeProblem('UNSUPPORTED_FORMAT', `Content-Type "${String(request.headers['content-type']).slice(0, 100)}" is not accepted; send text/csv, text/plain or application/json.`));
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return sendProblem(reply, makeProblem('INVALID_PARAMETER', 'Content-Length does not match the body.'));
      default:
        break;
    }
    const status = fastifyError.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return sendProblem(reply, makeProblem(status === 404 ? 'NOT_FOUND' : status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_FORMAT' : 'INVALID_PARAMETER', fastifyError.message ?? 'Bad request', undefined, status));
    }
    options.logErrors?.(error, request);
    return sendProblem(reply, makeProblem('INTERNAL', 'An internal error occurred; it has been logged. Please report it.'));
  });

  // Only a request no route matched gets here (every method is routed below): like the /v1 catch-all, it needs a key.
  app.setNotFoundHandler(async (request, reply) => sendProblem(reply, noRoute(request)));

  // Raw uploads (imports, chains) arrive as text; the importers and parsers read them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser([...UPLOAD_CONTENT_TYPES], { parseAs: 'string' }, (_request, body, done) => {
    done(null, body);
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Strikebook local API', version: ctx.version, description: 'Trade journal and dealer exposure (GEX, vanna, charm). Loopback only; Bearer key from the api-key file of the data folder.' },
      servers: [{ url: `http://127.0.0.1:${options.port}` }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  app.addSchema(ProblemSchema);

  const routes: Array<{ url: string; methods: string[]; access: Access }> = [];
  // What /v1 serves, to be held against the route table once every route is registered.
  const served: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) served.push({ method, url: route.url, routeKey: route.config?.routeKey });
    const entry = routes.find((r) => r.url === route.url);
    if (entry) entry.methods.push(...methods);
    // The 405 answers of a path need what its routes need (but the stream ticket is the SSE stream's alone).
    else routes.push({ url: route.url, methods: [...methods], access: route.config?.access === 'public' ? 'public' : 'key' });
  });

  await app.register(async (v1) => {
    registerHealthRoutes(v1, ctx);
    registerJournalRoutes(v1, ctx);
    registerImportRoutes(v1, ctx);
    registerManualRoutes(v1, ctx);
    registerReconciliationRoutes(v1, ctx);
    registerCorporateActionRoutes(v1, ctx);
    registerTradeRoutes(v1, ctx);
    registerImportFormatRoutes(v1, ctx);
    registerExposureRoutes(v1, ctx, answers, connections);
    registerStreamTicketRoutes(v1, ctx, tickets);
    registerChainRoutes(v1, ctx);
    registerChainRefreshRoutes(v1, ctx);
    registerChainArrivalRoutes(v1, ctx);
    registerAdminRoutes(v1, ctx);
    registerExportRoutes(v1, ctx);
    registerBackupRoutes(v1, ctx);
    serve(v1, 'GET /openapi.json', async (_request, reply) => reply.type('application/json').send(JSON.stringify(app.swagger())));
  }, { prefix: '/v1' });
  // The route table and the handlers are one: an entry without a handler, or a route without an entry, stops the start.
  const problems = tableProblems(served.filter((route) => route.url.startsWith('/v1')));
  if (problems.length > 0) throw new Error(`The /v1 routes differ from the route table:\n${problems.join('\n')}`);
  app.addHook('onClose', async () => answers.close());

  // Any other path under /v1, with any method: 404 after the key check (the route map is not probed anonymously).
  const everyMethod = [...app.supportedMethods];
  for (const url of ['/v1', '/v1/*']) {
    app.route({ method: everyMethod, url, config: { access: 'key' }, schema: { hide: true }, handler: async (request, reply) => sendProblem(reply, noRoute(request)) });
  }
  // Outside /v1: the UI (headless) or nothing.
  if (options.uiDir) registerStaticRoutes(app, options.uiDir, options.port);
  else app.route({ method: everyMethod, url: '/*', config: { access: 'public' }, schema: { hide: true }, handler: async (request, reply) => sendProblem(reply, noRoute(request)) });

  // 405 with Allow for every other method on a known path (Fastify would say 404).
  for (const route of [...routes]) {
    const allowed = [...new Set(route.methods)];
    const others = everyMethod.filter((method) => !allowed.includes(method));
    if (others.length === 0) continue;
    app.route({
      method: others,
      url: route.url,
      config: { access: route.access },
      schema: { hide: true },
      handler: async (request: FastifyRequest, reply: FastifyReply) =>
        sendProblem(reply, makeProblem('METHOD_NOT_ALLOWED', `${request.method} is not allowed here; allowed: ${allowed.join(', ')}.`), { Allow: allowed.join(', ') }),
    });
  }

  return app;
}

/** GET or HEAD /v1/health: answered at once, with a place of its own among the connections (listener.ts). */
function isHealthRead(request: FastifyRequest): boolean {
  return request.routeOptions.url === '/v1/health' && (request.method === 'GET' || request.method === 'HEAD');
}

function noRoute(request: FastifyRequest): Problem {
  return makeProblem('NOT_FOUND', `No route ${request.method.slice(0, 20)} ${request.url.split('?', 1)[0]?.slice(0, 200) ?? ''}.`);
}

function describeLimit(request: FastifyRequest): string {
  const limit = request.routeOptions.bodyLimit ?? BODY_LIMIT_BYTES;
  return limit >= 1024 * 1024 ? `${limit / (1024 * 1024)} MB` : `${limit} bytes`;
}
