/**
 * The rules of the settings that a schema pattern cannot state with a reason (docs/conventions.md §HTTP API, issue 29):
 * the CORS origins and the online source's address. PUT /v1/settings refuses a value that breaks them (400 naming the
 * field, with the reason), settings read back from the database are held to them, and the online source checks its
 * address again before every fetch, the addresses its host resolves to included (services/source-fetch.ts).
 */

/** Control characters (C0, DEL, C1): the URL parser drops tabs and line breaks without a word, so `\r\n` got through. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const WHITE_SPACE = /\s/;
/** A host as a browser writes it in `Origin`: DNS labels (lower case, as the parser leaves them) or an IP literal. */
const ORIGIN_HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])$/;

/**
 * Why `origin` is not an exact CORS origin (`scheme://host[:port]`, as a browser sends it), or null. A `*` anywhere, a
 * path, `null` (the origin of sandboxed frames and files) or a spelling no browser would send is refused.
 */
export function originProblem(origin: string): string | null {
  if (origin === '*') return 'is a wildcard, which would let every web page call the API; list exact origins such as http://localhost:5173';
  if (origin.includes('*')) return 'contains a * (a wildcard): CORS takes exact origins only; list each one, such as https://tools.example';
  if (CONTROL.test(origin)) return 'contains a control character';
  if (WHITE_SPACE.test(origin)) return 'contains white space';
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return 'is not an origin of the form scheme://host[:port]';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http:// or https:// origin';
  if (url.origin !== origin) return `is not an exact origin; write it as ${url.origin}`;
  // The parser takes hosts no browser sends (`*.x.com`, `x_y.com` became origins).
  if (!ORIGIN_HOST.test(url.hostname)) return `has the host "${url.hostname}", which is not a DNS name or an IP address`;
  return null;
}

/** Host names of cloud metadata services (GCP's; the others answer on the addresses below). */
const METADATA_NAMES: ReadonlySet<string> = new Set(['metadata.google.internal', 'metadata.goog', 'metadata']);

/**
 * Why the online source's address `text` may not be fetched, or null ('' is no source). The checks of the text;
 * the addresses a host name resolves to are checked when it is resolved (addressProblem).
 */
export function sourceUrlProblem(text: string): string | null {
  if (text === '') return null;
  if (CONTROL.test(text)) return 'contains a line break or another control character (it would end up in the request as it is sent)';
  if (WHITE_SPACE.test(text)) return 'contains white space';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    const port = portText(text);
    if (port !== null && /^\d+$/.test(port) && Number(port) > 65535) return `has the port ${port}: a port is 1–65535`;
    return 'is not a URL: write it as https://host[:port]/path';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must start with https:// or http://';
  if (url.username !== '' || url.password !== '') return 'contains a user name or password (user:password@): Strikebook sends no credentials to the online source; remove them';
  if (url.port === '0') return 'has the port 0: a port is 1–65535';
  if (url.search !== '' || url.hash !== '' || text.includes('?') || text.includes('#')) {
    return 'has a query or fragment (? or #): the address is the folder the symbols are read from, as <address>/<SYMBOL>.json';
  }
  const host = hostProblem(url.hostname);
  return host === null ? null : `has the host ${url.hostname}, ${host}`;
}

/** Why a URL's host (a name, or an IP literal as the parser writes it) may not be fetched, or null. */
export function hostProblem(hostname: string): string | null {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (METADATA_NAMES.has(name)) return 'the name of a cloud metadata service, which hands out the machine\'s credentials';
  return addressProblem(name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name);
}

/**
 * Why the online source may not connect to the IP address `address`, or null (also null for a text that is no IP
 * address). Refused: link-local addresses (169.254.0.0/16, fe80::/10: the machine's own network segment, routers and
 * the metadata services), the cloud metadata addresses, and the unspecified address; IPv4 written inside IPv6
 * (::ffff:a.b.c.d, NAT64's 64:ff9b::/96) as the IPv4 address. Loopback and private addresses are allowed: the user may
 * run a data server of their own (docs/decisions.md, "The online source's address").
 */
export function addressProblem(address: string): string | null {
  const v4 = ipv4Bytes(address);
  if (v4 !== null) return ipv4Problem(v4);
  const groups = ipv6Groups(address.split('%', 1)[0] ?? '');
  if (groups === null) return null;
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  if (groups.every((g) => g === 0)) return 'the unspecified address (::), which is no server\'s';
  if ((g0 & 0xffc0) === 0xfe80) return 'a link-local address (fe80::/10)';
  if (g0 === 0xfd00 && g1 === 0x0ec2 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0 && g6 === 0 && g7 === 0x0254) return 'a cloud metadata address (fd00:ec2::254), which hands out the machine\'s credentials';
  const mapped = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && (g5 === 0xffff || (g5 === 0 && g6 !== 0));
  const nat64 = g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0;
  if (mapped || nat64) return ipv4Problem([g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff]);
  return null;
}

function ipv4Problem([b0, b1, b2, b3]: readonly number[]): string | null {
  const text = `${b0}.${b1}.${b2}.${b3}`;
  if (text === '169.254.169.254' || text === '100.100.100.200') return `a cloud metadata address (${text}), which hands out the machine's credentials`;
  if (b0 === 169 && b1 === 254) return 'a link-local address (169.254.0.0/16)';
  if (b0 === 0) return 'the unspecified address (0.0.0.0/8), which is no server\'s';
  return null;
}

/** The four bytes of a dotted IPv4 address, or null. */
function ipv4Bytes(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : Number.NaN));
  return bytes.every((byte) => byte >= 0 && byte <= 255) ? bytes : null;
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a trailing IPv4 part read), or null. */
function ipv6Groups(text: string): number[] | null {
  if (!text.includes(':')) return null;
  let head = text;
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    const v4 = ipv4Bytes(last);
    if (v4 === null) return null;
    const [a = 0, b = 0, c = 0, d = 0] = v4;
    head = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = head.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (part: string): number[] => (part === '' ? [] : part.split(':').map((group) => (/^[0-9a-f]{1,4}$/i.test(group) ? parseInt(group, 16) : Number.NaN)));
  const left = groupsOf(halves[0] ?? '');
  const right = halves.length === 2 ? groupsOf(halves[1] ?? '') : [];
  if ([...left, ...right].some((group) => Number.isNaN(group))) return null;
  if (halves.length === 1) return left.length === 8 ? left : null;
  const zeros = 8 - left.length - right.length;
  return zeros < 1 ? null : [...left, ...Array.from({ length: zeros }, () => 0), ...right];
}

/** The port written in a URL's authority (after the host, before the path), read by hand where the parser refused it. */
function portText(text: string): string | null {
  const schemeEnd = text.indexOf('://');
  if (schemeEnd === -1) return null;
  const rest = text.slice(schemeEnd + 3);
  let end = rest.length;
  for (const stop of ['/', '?', '#']) {
    const at = rest.indexOf(stop);
    if (at !== -1 && at < end) end = at;
  }
  const authority = rest.slice(0, end);
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  const colon = host.startsWith('[') ? host.indexOf(']:') + 1 : host.lastIndexOf(':');
  return colon <= 0 ? null : host.slice(colon + 1);
}
