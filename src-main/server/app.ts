import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest, type HTTPMethods } from 'fastify';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifySchemaValidationError } from 'fastify/types/schema';
import { makeProblem } from '../../src-shared/api/errors';
import { ProblemSchema } from '../../src-shared/api/schemas';
import type { AppContext } from './context';
import { ApiError, sendProblem } from './problems';
import { RateLimiter } from './rate-limit';
import { validationProblem } from './validation';
import { databaseBusy, isBusyError } from '../db/writes';
import { makeFastPath } from './fast-path';
import { registerHealthRoutes } from './routes/health';
import { registerJournalRoutes } from './routes/journal';
import { registerImportRoutes } from './routes/imports';
import { registerExposureRoutes } from './routes/exposure';
import { registerChainRoutes } from './routes/chains';
import { registerAdminRoutes } from './routes/admin';
import { registerStaticRoutes } from './routes/static';

/** The app (and each route plugin) with TypeBox types for request and reply. */
export type App = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

export interface AppOptions {
  /** The port the listener uses: the Host check accepts only 127.0.0.1:<port> and localhost:<port>. */
  port: number;
  /** Folder of the built renderer served at `/` (headless mode); null = no UI. */
  uiDir?: string | null;
  logErrors?: (error: unknown, request: FastifyRequest) => void;
}

/** Request-scoped state set by the hooks. */
declare module 'fastify' {
  interface FastifyRequest {
    keyId: string | null;
  }
}

const ALL_METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
export const UPLOAD_LIMIT_BYTES = 50 * 1024 * 1024;
/** Content types of raw uploads (broker files, chain files, settings JSON). */
export const UPLOAD_CONTENT_TYPES = ['text/csv', 'text/plain', 'application/json', 'application/csv', 'application/vnd.ms-excel', 'application/octet-stream'] as const;
const PUBLIC_PATHS = new Set(['/v1/health', '/v1/openapi.json']);

/** Builds the /v1 app without listening (tests call it with `inject`). */
export async function buildApp(ctx: AppContext, options: AppOptions): Promise<App> {
  const allowedHosts = new Set([`127.0.0.1:${options.port}`, `localhost:${options.port}`]);
  const limiter = new RateLimiter(() => ctx.settings.rateLimit);
  const fastPath = makeFastPath(ctx, allowedHosts, limiter);
  const app = Fastify({
    // Repeated cached exposure requests are answered before routing (fast-path.ts); all else goes to Fastify.
    serverFactory: (handler) => createServer((request, response) => {
      if (!fastPath(request, response)) handler(request, response);
    }),
    logger: false,
    bodyLimit: 1024 * 1024,
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    routerOptions: { maxParamLength: 200 },
    ajv: {
      // Strict: an unknown parameter is an error (not silently dropped); report every bad parameter.
      customOptions: { removeAdditional: false, coerceTypes: true, allErrors: true, useDefaults: false },
    },
    schemaErrorFormatter: (errors: FastifySchemaValidationError[], context: string) => validationProblem(errors, context),
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorateRequest('keyId', null);

  // DNS rebinding: a page on another origin that resolves to 127.0.0.1 still sends its own Host.
  app.addHook('onRequest', async (request, reply) => {
    const host = (request.headers.host ?? '').toLowerCase();
    if (!allowedHosts.has(host)) {
      return sendProblem(reply, makeProblem('MISDIRECTED', `Host "${host.slice(0, 100)}" is not served here; use 127.0.0.1:${options.port} or localhost:${options.port}.`));
    }
    if (ctx.settings.corsOrigins.length > 0) {
      const origin = request.headers.origin;
      if (origin !== undefined && ctx.settings.corsOrigins.includes(origin)) {
        reply.header('Access-Control-Allow-Origin', origin).header('Vary', 'Origin');
      }
    }
    const path = request.url.split('?', 1)[0] ?? '';
    if (!path.startsWith('/v1/') && path !== '/v1') return;
    if (PUBLIC_PATHS.has(path) && (request.method === 'GET' || request.method === 'HEAD')) return;
    const keyId = authenticate(ctx, request);
    if (keyId === null) {
      return sendProblem(reply, makeProblem('UNAUTHORIZED', 'Missing or unknown API key: send "Authorization: Bearer <key>" (the key is in the api-key file of the data folder).'), {
        'WWW-Authenticate': 'Bearer realm="strikebook"',
      });
    }
    request.keyId = keyId;
    const waitSeconds = limiter.take(keyId);
    if (waitSeconds > 0) {
      return sendProblem(reply, makeProblem('RATE_LIMITED', `Rate limit of ${ctx.settings.rateLimit.perSecond} requests/s (burst ${ctx.settings.rateLimit.burst}) exceeded for this key.`), {
        'Retry-After': String(waitSeconds),
      });
    }
  });

  // Ajv coerces "1e400" and "Infinity" to Infinity and then lets it through `maximum` (an Ajv quirk with
  // coerceTypes): refuse non-finite values of numeric parameters before validation.
  app.addHook('preValidation', async (request) => {
    const schema = request.routeOptions.schema?.querystring as { properties?: Record<string, { type?: string }> } | undefined;
    const properties = schema?.properties;
    if (!properties || typeof request.query !== 'object' || request.query === null) return;
    for (const [name, value] of Object.entries(request.query as Record<string, unknown>)) {
      const type = properties[name]?.type;
      if ((type === 'integer' || type === 'number') && typeof value === 'string' && Math.abs(Number(value)) === Infinity) {
        throw new ApiError('INVALID_PARAMETER', `${name}: ${value.slice(0, 40)} is not a finite number`, [{ param: name, message: 'must be a finite number' }]);
      }
    }
  });

  app.setErrorHandler(async (error: unknown, request, reply) => {
    if (error instanceof ApiError) return sendProblem(reply, error.problem, error.headers);
    // Another process holds the database's write lock (a write not routed through ctx.writes, or a rare read).
    if (isBusyError(error)) {
      const busy = databaseBusy();
      return sendProblem(reply, busy.problem, busy.headers);
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

  app.setNotFoundHandler(async (request, reply) =>
    sendProblem(reply, makeProblem('NOT_FOUND', `No route ${request.method} ${request.url.split('?', 1)[0]?.slice(0, 200) ?? ''}.`)),
  );

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

  const routes: Array<{ url: string; methods: HTTPMethods[] }> = [];
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/v1')) return;
    const methods = (Array.isArray(route.method) ? route.method : [route.method]) as HTTPMethods[];
    const entry = routes.find((r) => r.url === route.url);
    if (entry) entry.methods.push(...methods);
    else routes.push({ url: route.url, methods: [...methods] });
  });

  await app.register(async (v1) => {
    registerHealthRoutes(v1, ctx);
    registerJournalRoutes(v1, ctx);
    registerImportRoutes(v1, ctx);
    registerExposureRoutes(v1, ctx);
    registerChainRoutes(v1, ctx);
    registerAdminRoutes(v1, ctx);
    v1.get('/openapi.json', { schema: { hide: true } }, async (_request, reply) => reply.type('application/json').send(JSON.stringify(app.swagger())));
  }, { prefix: '/v1' });

  // 405 with Allow for every other method on a known path (Fastify would say 404).
  for (const route of [...routes]) {
    const allowed = [...new Set(route.methods)];
    const others = ALL_METHODS.filter((method) => !allowed.includes(method));
    if (others.length === 0) continue;
    app.route({
      method: others,
      url: route.url,
      schema: { hide: true },
      handler: async (request: FastifyRequest, reply: FastifyReply) =>
        sendProblem(reply, makeProblem('METHOD_NOT_ALLOWED', `${request.method} is not allowed here; allowed: ${allowed.join(', ')}.`), { Allow: allowed.join(', ') }),
    });
  }

  if (options.uiDir) registerStaticRoutes(app, options.uiDir, options.port);
  return app;
}

function authenticate(ctx: AppContext, request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header === 'string') {
    const match = /^Bearer\s+(\S{1,512})\s*$/i.exec(header);
    return match?.[1] === undefined ? null : ctx.keys.verify(match[1]);
  }
  // EventSource cannot set headers: the SSE stream alone also takes ?access_token=.
  if (request.url.startsWith('/v1/gex/events/stream?')) {
    const token = new URLSearchParams(request.url.slice(request.url.indexOf('?') + 1)).get('access_token');
    return token === null || token.length > 512 ? null : ctx.keys.verify(token);
  }
  return null;
}

function describeLimit(request: FastifyRequest): string {
  const limit = request.routeOptions.bodyLimit ?? 1024 * 1024;
  return limit >= 1024 * 1024 ? `${limit / (1024 * 1024)} MB` : `${limit} bytes`;
}
