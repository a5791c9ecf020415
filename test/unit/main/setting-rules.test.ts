/**
 * The rules of the settings a schema pattern cannot say with a reason (issue 29, findings 6 and 8): CORS origins are
 * exact `scheme://host[:port]` with no `*` anywhere (the URL parser made an origin of `http://*.x.com`); the online
 * source is an http(s) URL without credentials, control characters or a port past 65535, whose host is no link-local
 * or cloud metadata address. Each refusal says why.
 */
import { describe, expect, it } from 'vitest';
import { addressProblem, originProblem, sourceUrlProblem } from '../../../src-main/setting-rules';

describe('originProblem', () => {
  it('takes exact origins: names, IPv4 and IPv6 hosts, with or without a port', () => {
    for (const origin of ['http://localhost:5173', 'https://tools.example:8443', 'http://127.0.0.1:3000', 'http://[::1]:8080', 'https://a-b.example.co.uk']) {
      expect(originProblem(origin), origin).toBeNull();
    }
  });

  it('refuses a * anywhere, with the reason (http://*.x.com was stored)', () => {
    for (const origin of ['http://*.x.com', 'https://x.com:*', '*', 'http://x*.com', '*://x.com']) {
      expect(originProblem(origin), origin).toMatch(/wildcard|\*/);
    }
  });

  it('refuses hosts no browser sends, control characters, paths and other schemes', () => {
    expect(originProblem('http://ex ample.com')).toMatch(/white space|scheme:\/\/host/);
    expect(originProblem('http://x.com\r\n')).toMatch(/control character|white space/);
    expect(originProblem('http://x_y.com')).toMatch(/host/);
    expect(originProblem('http://x.com/app')).toMatch(/write it as http:\/\/x\.com/);
    expect(originProblem('http://user@x.com')).toMatch(/write it as http:\/\/x\.com/);
    expect(originProblem('ftp://x.com')).toMatch(/http:\/\/ or https:\/\//);
  });
});

describe('sourceUrlProblem', () => {
  it('takes the default CBOE address, a local data server (loopback and private hosts: docs/decisions.md), and empty (no source)', () => {
    for (const url of ['https://cdn.cboe.com/api/global/delayed_quotes/options', 'http://127.0.0.1:8080/chains', 'http://localhost:9000', 'http://192.168.1.20/q', 'http://10.0.0.5:8000/', 'http://[::1]:8080/x', '']) {
      expect(sourceUrlProblem(url), url).toBeNull();
    }
  });

  it('refuses each bad URL with its reason', () => {
    const cases: Array<[string, RegExp]> = [
      ['http://user:pass@cdn.example/options', /user name or password/],
      ['https://token@cdn.example/options', /user name or password/],
      ['http://cdn.example/options\r\nX-Injected: 1', /control character/],
      ['http://cdn.example/opt\tions', /control character/],
      ['http://cdn.example:99999/options', /port 99999.*1–65535/],
      ['http://cdn.example:0/options', /port 0.*1–65535/],
      ['http://169.254.169.254/latest/meta-data', /metadata/],
      ['http://[fe80::1]/x', /link-local/],
      ['http://[fd00:ec2::254]/x', /metadata/],
      ['http://169.254.10.1/x', /link-local/],
      ['http://2852039166/x', /metadata/], // 169.254.169.254 written as one number: the parser's spelling is checked
      ['http://[::ffff:169.254.169.254]/x', /metadata/],
      ['http://metadata.google.internal/computeMetadata/v1', /metadata/],
      ['http://METADATA.google.internal./x', /metadata/],
      ['http://0.0.0.0:8080/x', /unspecified/],
      ['ftp://cdn.example/options', /https:\/\/ or http:\/\//],
      ['file:///etc/passwd', /https:\/\/ or http:\/\//],
      ['http://cdn.example/options?token=1', /query or fragment/],
      ['not a url', /white space|not a URL/],
      ['http://', /not a URL/],
    ];
    for (const [url, reason] of cases) expect(sourceUrlProblem(url), JSON.stringify(url)).toMatch(reason);
  });
});

describe('addressProblem (what a host resolves to)', () => {
  it('refuses link-local, metadata and unspecified addresses, IPv4 inside IPv6 included', () => {
    for (const [address, reason] of [
      ['169.254.169.254', /metadata/],
      ['169.254.0.1', /link-local/],
      ['100.100.100.200', /metadata/],
      ['0.0.0.0', /unspecified/],
      ['fe80::1', /link-local/],
      ['FEBF:ffff::1', /link-local/],
      ['fd00:ec2::254', /metadata/],
      ['::', /unspecified/],
      ['::ffff:169.254.169.254', /metadata/],
      ['::ffff:a9fe:a9fe', /metadata/],
      ['64:ff9b::a9fe:101', /link-local/],
    ] as const) {
      expect(addressProblem(address), address).toMatch(reason);
    }
  });

  it('lets loopback, private and public addresses through', () => {
    for (const address of ['127.0.0.1', '::1', '10.1.2.3', '192.168.0.10', '172.16.5.4', 'fd12:3456::1', '104.18.1.1', '2606:4700::1', 'fec0::1', '169.253.255.255', '169.255.0.1']) {
      expect(addressProblem(address), address).toBeNull();
    }
  });
});
