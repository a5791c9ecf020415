/**
 * Stored JSON read back with its schema (src-main/db/stored-json.ts): what the app wrote reads as it was; text that
 * is not JSON, or JSON of another shape, reads as null (each caller then skips the row or refuses it, clearly).
 */
import { describe, expect, it } from 'vitest';
import { storedFormatHeader, storedFormatMapping, storedHistoryPoint } from '../../../../src-main/db/stored-json';
import { parseEventPayload } from '../../../../src-main/services/exposure/events';

const point = { quoteTime: '2026-01-05T15:00:00Z', spot: 5900.5, totalGEX: -1.25e9, gammaZone: 'negative', gammaInflection: 5925, callWall: { strike: 6000, gex: 3e8 }, putWall: null };
const flip = { ticker: 'SPX', expiration: '2026-01-16', timestamp: '2026-01-05T15:00:00Z', eventType: 'flip', previousState: 'positive', newState: 'negative', inflectionPoint: null, spotPrice: 5900, callWallStrike: 6000, putWallStrike: 5800 };
const wall = { ticker: 'SPX', expiration: '2026-01-16', timestamp: '2026-01-05T15:00:00Z', eventType: 'wall', wallType: 'call', previousStrike: 6000, newStrike: 6050, spotPrice: 5900 };

describe('stored JSON', () => {
  it('reads back what was written', () => {
    expect(storedHistoryPoint.read(JSON.stringify(point))).toEqual(point);
    expect(parseEventPayload(JSON.stringify(flip))).toEqual(flip);
    expect(parseEventPayload(JSON.stringify(wall))).toEqual(wall);
    expect(storedFormatHeader.read('["Date","Amount"]')).toEqual(['Date', 'Amount']);
  });

  it('reads text that is not JSON, or JSON of another shape, as null', () => {
    expect(storedHistoryPoint.read('{"quoteTime":')).toBeNull();
    expect(storedHistoryPoint.read(JSON.stringify({ ...point, gammaZone: 'up' })), 'a zone that is neither').toBeNull();
    expect(storedHistoryPoint.read(JSON.stringify({ ...point, spot: '5900' })), 'a number as text').toBeNull();
    expect(parseEventPayload(JSON.stringify({ ...wall, eventType: 'flip' })), 'a wall event under the flip type').toBeNull();
    expect(parseEventPayload('null')).toBeNull();
    expect(storedFormatHeader.read('[1,2]')).toBeNull();
    expect(storedFormatMapping.read('{"date":7}')).toBeNull();
  });
});
