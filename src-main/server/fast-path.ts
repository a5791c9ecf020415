import type { IncomingMessage, ServerResponse } from 'node:http';
import { makeProblem } from '../../src-shared/api/errors';
import type { AppContext } from './context';
import type { RateLimiter } from './rate-limit';
import { CACHE_CONTROL } from './routes/exposure';

const CACHED_PREFIXES = ['/v1/gex?', '/v1/vanna?'];

/**
 * Answers a repeated GET /v1/gex or /v1/vanna straight from the answer cache, before routing (DESIGN §7:
 * a cached answer within 0.8× of a bare node:http server). It applies the same checks as the app, in the
 * same order — Host, key, rate limit — and returns false (the app takes over) whenever anything is not
 * plainly fine: unknown URL, stale answer, foreign Host, missing or unknown key, CORS configured.
 */
export function makeFastPath(ctx: AppContext, allowedHosts: ReadonlySet<string>, limiter: RateLimiter): (request: IncomingMessage, response: ServerResponse) => boolean {
  return (request, response) => {
    const url = request.url;
    if (request.method !== 'GET' || url === undefined || !CACHED_PREFIXES.some((prefix) => url.startsWith(prefix))) return false;
    if (ctx.settings.corsOrigins.length > 0) return false;
    // rawHeaders, not headers: Node builds the headers object lazily, and this path never needs it.
    let host: string | undefined;
    let authorization: string | undefined;
    let ifNoneMatch: string | undefined;
    const raw = request.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i] ?? '';
      const value = raw[i + 1];
      if (name.length === 4 && name.toLowerCase() === 'host') {
        if (host !== undefined) return false;
        host = value;
      } else if (name.length === 13 && name.toLowerCase() === 'authorization') {
        if (authorization !== undefined) return false;
        authorization = value;
      } else if (name.length === 13 && name.toLowerCase() === 'if-none-match') {
        ifNoneMatch = value;
      }
    }
    if (host === undefined || !allowedHosts.has(host.toLowerCase())) return false;
    if (authorization === undefined || !authorization.startsWith('Bearer ')) return false;
    const answer = ctx.exposure.answerForUrl(url);
    if (answer === null) return false;
    const keyId = ctx.keys.verify(authorization.slice(7).trim());
    if (keyId === null) return false;
    const waitSeconds = limiter.take(keyId);
    if (waitSeconds > 0) {
      const problem = makeProblem('RATE_LIMITED', `Rate limit of ${ctx.settings.rateLimit.perSecond} requests/s (burst ${ctx.settings.rateLimit.burst}) exceeded for this key.`);
      response.writeHead(429, { 'content-type': 'application/problem+json; charset=utf-8', 'retry-after': String(waitSeconds) });
      response.end(JSON.stringify(problem));
      return true;
    }
    if (ifNoneMatch === answer.etag) {
      response.writeHead(304, { etag: answer.etag, 'cache-control': CACHE_CONTROL });
      response.end();
      return true;
    }
    response.writeHead(200, answer.headers);
    response.end(answer.bytes);
    return true;
  };
}
