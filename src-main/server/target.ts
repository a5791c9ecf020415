import type { ProblemCode } from '../../src-shared/api/errors';

/** Longer request targets are 414 (the HTTP parser's own limit, 16 KB with the headers, is the 431 case). */
export const MAX_TARGET_LENGTH = 8192;

export type Target =
  | { ok: true; url: string; authority: string | null }
  | { ok: false; code: Extract<ProblemCode, 'MALFORMED_REQUEST' | 'URI_TOO_LONG'>; detail: string };

const ABSOLUTE_FORM = /^https?:\/\/([^/?#]*)/i;
// Control characters and the backslash (a separator to Windows paths) never belong in a decoded path.
// eslint-disable-next-line no-control-regex
const FORBIDDEN_IN_PATH = /[\u0000-\u001f\u007f\\]/;

/**
 * The one spelling of a request target that routing, the key check and the caches see (docs/conventions.md §HTTP API "Routing
 * decides auth"). The path is percent-decoded (`%76` is `v`, and an encoded slash is a slash: no route gives it
 * another meaning), its empty and dot segments are resolved (`//v1`, `/./v1`, `/x/../v1` are `/v1`), a trailing
 * slash is dropped, the API's paths (`/v1`, any case) are lower-cased, and each segment is re-encoded with
 * encodeURIComponent (so `;` stays inside its segment). An absolute-form target (`http://host/v1/...`) keeps its
 * path and reports its authority for the Host check. The query is kept byte for byte: the route parses it.
 * canonicalTarget(canonical) returns it unchanged, which lets the fast path trust an exact URL match.
 */
export function canonicalTarget(raw: string): Target {
  if (raw.length > MAX_TARGET_LENGTH) return { ok: false, code: 'URI_TOO_LONG', detail: `The request target is ${raw.length} characters long; the limit is ${MAX_TARGET_LENGTH}.` };
  let rest = raw;
  let authority: string | null = null;
  if (!raw.startsWith('/')) {
    const match = ABSOLUTE_FORM.exec(raw);
    if (match === null || match[1] === undefined || match[1].includes('@')) {
      return { ok: false, code: 'MALFORMED_REQUEST', detail: 'The request target must be a path such as /v1/health (or an absolute http:// URL).' };
    }
    authority = match[1].toLowerCase();
    rest = raw.slice(match[0].length);
    if (!rest.startsWith('/')) rest = `/${rest}`;
  }
  if (rest.includes('#')) return { ok: false, code: 'MALFORMED_REQUEST', detail: 'A request target carries no #fragment.' };
  const queryStart = rest.indexOf('?');
  const rawPath = queryStart === -1 ? rest : rest.slice(0, queryStart);
  const query = queryStart === -1 ? '' : rest.slice(queryStart);
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return { ok: false, code: 'MALFORMED_REQUEST', detail: 'The path is not valid percent-encoded UTF-8.' };
  }
  if (FORBIDDEN_IN_PATH.test(decoded)) return { ok: false, code: 'MALFORMED_REQUEST', detail: 'The path contains a control character or a backslash.' };
  const segments: string[] = [];
  for (const segment of decoded.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  const api = segments[0]?.toLowerCase() === 'v1';
  let path: string;
  try {
    path = `/${segments.map((segment) => encodeURIComponent(api ? segment.toLowerCase() : segment)).join('/')}`;
  } catch {
    // A lone surrogate (only reachable in-process, through inject) has no UTF-8 form.
    return { ok: false, code: 'MALFORMED_REQUEST', detail: 'The path is not valid UTF-8.' };
  }
  return { ok: true, url: `${path}${query}`, authority };
}
