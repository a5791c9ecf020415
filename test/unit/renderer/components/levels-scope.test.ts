/** The words and /gex parameters of a levels scope (docs/journal.md §Levels scope), as the pages put them beside a level. */
import { describe, expect, it } from 'vitest';
import { gexScopeOf, readLevelsScope, scopeText } from '../../../../src-renderer/components/levels-scope';

describe('levels scope on the pages', () => {
  it('names where levels come from', () => {
    expect(scopeText({ scope: 'own', expirations: ['2023-10-06'] })).toBe('own expiration 06 Oct 23');
    expect(scopeText({ scope: 'nearest', expirations: ['2023-09-15', '2023-09-18', '2023-09-19'] })).toBe('3 nearest expirations (15 Sep 23 – 19 Sep 23)');
    expect(scopeText({ scope: 'book', expirations: ['2023-09-15', '2023-10-27'] })).toBe('0–45 DTE (2 expirations, 15 Sep 23 – 27 Oct 23)');
    expect(scopeText({ scope: 'book', expirations: [] }), 'no expiration: the scope’s name').toBe('0–45 DTE');
  });

  it('asks /gex for the same levels: the expiration, nothing (the default three), or the 0–45 dte range', () => {
    expect(gexScopeOf({ scope: 'own', expirations: ['2023-10-06'] })).toEqual({ expirations: '2023-10-06' });
    expect(gexScopeOf({ scope: 'nearest', expirations: ['2023-09-15'] })).toEqual({});
    expect(gexScopeOf({ scope: 'book', expirations: ['2023-09-15'] })).toEqual({ minDte: 0, maxDte: 45 });
    expect(gexScopeOf(null)).toEqual({});
  });

  it('reads an address leniently: own unless it names another scope', () => {
    expect([readLevelsScope('nearest'), readLevelsScope('book'), readLevelsScope(null), readLevelsScope('all')]).toEqual(['nearest', 'book', 'own', 'own']);
  });
});
