import { describe, expect, it } from 'vitest';
import { offsetIsoToUtc } from '../../../../../src-main/importers/common/dates';

describe('offsetIsoToUtc', () => {
  it.each([
    ['2025-10-03T20:55:09+0100', '2025-10-03T19:55:09.000Z'],
    ['2025-10-03T20:55:09+01:00', '2025-10-03T19:55:09.000Z'],
    ['2025-10-03T20:55-04:00', '2025-10-04T00:55:00.000Z'],
    ['2025-10-03T20:55:09.5Z', '2025-10-03T20:55:09.500Z'],
    ['2024-02-29T10:00:00.000Z', '2024-02-29T10:00:00.000Z'],
    ['2000-02-29T23:59:59.999Z', '2000-02-29T23:59:59.999Z'],
  ])('%s → %s', (text, utc) => {
    expect(offsetIsoToUtc(text)).toBe(utc);
  });

  it.each(['2024-02-30T10:00:00.000Z', '2023-02-29T10:00:00.000Z', '1900-02-29T10:00:00.000Z', '2024-04-31T10:00:00Z', '2024-01-01T24:00:00.000Z', '2024-01-01T10:60:00Z', '2024-13-01T10:00:00Z', '2024-01-01T10:00:00', '2024-01-01', 'x'])(
    'refuses %s (no rolling over into the next day or month, no missing offset)',
    (text) => {
      expect(offsetIsoToUtc(text)).toBeNull();
    },
  );
});
