import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AnswerCache } from './answer-cache';
import type { AppContext } from './context';
import type { Gate } from './gate';
import { CACHE_CONTROL } from './route-kit';

/**
 * Answers a repeated GET /v1/gex or /v1/vanna straight from the answer cache, before routing (docs/architecture.md §Budgets:
 * a cached answer within 0.8× of a bare node:http server). It only knows URLs that the router dispatched to one
 * of those routes before, remembered in their canonical spelling (target.ts) with the route's access: an exact
 * match therefore reaches the same route through the app, and the same gate decides (Host, key, rate limit).
 * Whenever anything is not plainly fine (unknown URL, stale answer, a refusal, CORS configured) it returns false
 * and the app answers, with the same decision.
 */
export function makeFastPath(ctx: AppContext, gate: Gate, answers: AnswerCache): (request: IncomingMessage, response: ServerResponse) => boolean {
  return (request, response) => {
    const url = request.url;
    if (request.method !== 'GET' || url === undefined) return false;
    if (ctx.settings.corsOrigins.length > 0) return false;
    const hit = answers.forUrl(url);
    if (hit === null) return false;
    const admission = gate.admit(request, hit.access);
    // A refusal costs nothing to repeat (no token is taken): the app answers it, identically.
    if (!admission.ok) return false;
    const { answer } = hit;
    const ifNoneMatch = singleHeader(request, 'if-none-match');
    // Repeated If-None-Match headers: Node joins them for the app; let the app compare that.
    if (ifNoneMatch === false) return false;
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

/**
 * The value of a header that appears at most once, from rawHeaders (Node builds `headers` lazily, and this path
 * does without it); undefined when absent, false when repeated.
 */
function singleHeader(request: IncomingMessage, lowerName: string): string | undefined | false {
  let value: string | undefined;
  const raw = request.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? '';
    if (name.length === lowerName.length && name.toLowerCase() === lowerName) {
      if (value !== undefined) return false;
      value = raw[i + 1];
    }
  }
  return value;
}
