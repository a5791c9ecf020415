import { describe, expect, it } from 'vitest';
import { canonicalTarget, MAX_TARGET_LENGTH } from '../../../../src-main/server/target';
import { seededRandom } from '../../../../src-shared/demo/random';

function url(raw: string): string {
  const target = canonicalTarget(raw);
  if (!target.ok) throw new Error(`${raw}: ${target.detail}`);
  return target.url;
}

describe('canonical request targets (docs/conventions.md §HTTP API)', () => {
  it('gives every spelling of an API path the one spelling the router sees', () => {
    for (const spelling of [
      '/v1/settings',
      '/%761/settings',
      '/v%31/settings',
      '/%76%31/settings',
      '/%56%31/settings',
      '//v1/settings',
      '/v1//settings',
      '/./v1/settings',
      '/v1/./settings',
      '/x/../v1/settings',
      '/../v1/settings',
      '/v1/x/y/../../settings',
      '/V1/SETTINGS',
      '/v1/settings/',
      '/v1%2fsettings',
      '/x%2f..%2fv1%2fsettings',
      '/v1/%2e/settings',
      '/x/%2e%2e/v1/settings',
    ]) {
      expect(url(spelling), spelling).toBe('/v1/settings');
    }
  });

  it('keeps the query byte for byte and reports the authority of an absolute-form target', () => {
    expect(url('/%761/gex?symbol=SPX&expirations=2024-01-05%2C2024-01-12')).toBe('/v1/gex?symbol=SPX&expirations=2024-01-05%2C2024-01-12');
    expect(canonicalTarget('http://127.0.0.1:7717/v1/settings?x=1')).toEqual({ ok: true, url: '/v1/settings?x=1', authority: '127.0.0.1:7717' });
    expect(canonicalTarget('HTTP://LocalHost:7717')).toEqual({ ok: true, url: '/', authority: 'localhost:7717' });
    expect(canonicalTarget('http://evil.example?x')).toEqual({ ok: true, url: '/?x', authority: 'evil.example' });
  });

  it('keeps a `;` inside its segment (no route ends in one) and the case of paths outside /v1 (files)', () => {
    expect(url('/v1/settings;x=1')).toBe('/v1/settings%3Bx%3D1');
    expect(url('/assets/Index-AbC.js')).toBe('/assets/Index-AbC.js');
    expect(url('/x1%2f..%2fassets/Index-AbC.js')).toBe('/assets/Index-AbC.js');
    expect(url('/')).toBe('/');
    expect(url('/..')).toBe('/');
  });

  it('refuses what is not a target with the reason: bad encoding, control characters, fragments, other forms, length', () => {
    for (const [raw, code] of [
      ['/v1/%ff', 'MALFORMED_REQUEST'],
      ['/v1/%E0%A4%A', 'MALFORMED_REQUEST'],
      ['/v1/gex%00', 'MALFORMED_REQUEST'],
      ['/v1/a%5Cb', 'MALFORMED_REQUEST'],
      ['/v1/gex#x', 'MALFORMED_REQUEST'],
      ['*', 'MALFORMED_REQUEST'],
      ['example.com:443', 'MALFORMED_REQUEST'],
      ['ftp://x/v1/settings', 'MALFORMED_REQUEST'],
      ['http://user@127.0.0.1:7717/v1/settings', 'MALFORMED_REQUEST'],
      [`/v1/${'a'.repeat(MAX_TARGET_LENGTH)}`, 'URI_TOO_LONG'],
    ] as const) {
      const target = canonicalTarget(raw);
      expect(target.ok, raw.slice(0, 60)).toBe(false);
      if (!target.ok) expect(target.code, raw.slice(0, 60)).toBe(code);
    }
  });

  it('is idempotent (the fast path trusts an exact match) and never leaves a dot segment or an empty one', () => {
    const random = seededRandom(8);
    const pieces = ['v1', 'V1', '%76', '%31', '%76%31', 'gex', 'settings', '.', '..', '%2e', '%2E%2e', '', '%2f', ';', 'a;b', 'é', '%C3%A9', '%20', '+', '~', "'", 'x', 'assets', 'index.js', '%3F', '%23', '%25', '%2525'];
    for (let i = 0; i < 5_000; i += 1) {
      const count = 1 + Math.floor(random() * 6);
      const raw = `/${Array.from({ length: count }, () => pieces[Math.floor(random() * pieces.length)]).join(random() < 0.5 ? '/' : '')}${random() < 0.3 ? '?symbol=SPX&%76=1' : ''}`;
      const first = canonicalTarget(raw);
      if (!first.ok) continue;
      const second = canonicalTarget(first.url);
      expect(second, raw).toEqual({ ok: true, url: first.url, authority: null });
      const path = first.url.split('?', 1)[0] ?? '';
      expect(path.split('/').slice(1).every((segment, index, all) => (segment !== '' || all.length === 1) && segment !== '.' && segment !== '..'), raw).toBe(true);
    }
  });
});
