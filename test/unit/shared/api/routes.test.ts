/**
 * The route table (src-shared/api/routes.ts) against what is written about it by hand: the README's route table names
 * every route of the table and no other, and the keys are what the client and the server read from them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTE_AREAS, ROUTE_KEYS, ROUTES, splitRouteKey } from '../../../../src-shared/api/routes';
import { REPO_ROOT } from '../../../paths';

const METHOD = /^(?:GET|POST|PUT|DELETE)$/;
const ROUTE = /^((?:GET|POST|PUT|DELETE)(?:\/(?:GET|POST|PUT|DELETE))*) (\/\S*)$/;

/**
 * The routes the README's table names, as `METHOD /path`: a cell lists them in backticks, a method alone before a
 * route shares its path (`GET`/`PUT /settings`), as do methods joined by a slash (`GET/PUT /settings`).
 */
function readmeRoutes(readme: string): string[] {
  const start = readme.indexOf('| Route | What |');
  if (start === -1) return [];
  const rows = readme.slice(start).split('\n').slice(2);
  const found: string[] = [];
  for (const row of rows) {
    if (!row.startsWith('|')) break;
    const cell = row.split(' | ')[0] ?? '';
    let pending: string[] = [];
    for (const [, text = ''] of cell.matchAll(/`([^`]+)`/g)) {
      if (METHOD.test(text)) {
        pending.push(text);
        continue;
      }
      const match = ROUTE.exec(text);
      if (match === null) continue;
      for (const method of [...pending, ...(match[1] ?? '').split('/')]) found.push(`${method} ${match[2] ?? ''}`);
      pending = [];
    }
  }
  return found;
}

describe('the README route table', () => {
  it('reads a cell as the README writes it', () => {
    const readme = ['| Route | What |', '|---|---|', '| `GET`/`PUT /a/{id}`, `POST /b` | x |', '| `GET/PUT /c` | y |', '', '| `GET /d` | after the table |'].join('\n');
    expect(readmeRoutes(readme)).toEqual(['GET /a/{id}', 'PUT /a/{id}', 'POST /b', 'GET /c', 'PUT /c']);
  });

  it('names every route of the table once, and no route the table does not have', () => {
    const listed = readmeRoutes(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'));
    const keys: readonly string[] = ROUTE_KEYS;
    expect(keys.filter((key) => !listed.includes(key)), 'in the table, missing from the README').toEqual([]);
    expect(listed.filter((route) => !keys.includes(route)), 'in the README, not in the table').toEqual([]);
    expect(listed.filter((route, index) => listed.indexOf(route) !== index), 'named twice').toEqual([]);
  });
});

describe('the keys', () => {
  it('are a method and a path under /v1, parameters in braces named as the params schema names them', () => {
    for (const key of ROUTE_KEYS) {
      const { method, path } = splitRouteKey(key);
      expect(`${method} ${path}`).toBe(key);
      const spec = ROUTES[key];
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      const declared = 'params' in spec ? Object.keys(spec.params.properties) : [];
      expect(declared, key).toEqual(inPath);
      if (spec.kind === 'upload') expect('body' in spec, `${key}: an upload's body is raw`).toBe(false);
    }
  });
});

describe('the area tables', () => {
  it('hold each key of the table once (a key in two would keep the later entry unseen), composed in order as written', () => {
    const keys = Object.values(ROUTE_AREAS).flatMap((area) => Object.keys(area));
    expect(keys.filter((key, index) => keys.indexOf(key) !== index), 'in two areas').toEqual([]);
    expect(keys).toEqual(ROUTE_KEYS);
    const table = new Map<string, unknown>(Object.entries(ROUTES));
    for (const area of Object.values(ROUTE_AREAS)) for (const [key, spec] of Object.entries(area)) expect(table.get(key), key).toBe(spec);
  });
});
