/**
 * The dealers' map of one snapshot, as a position or a trade is shown on it (positions/BookOnMap, trades/EntryOnMap):
 * its net GEX by strike, spot at the bottom and the walls on top; each caller adds its own strikes.
 */
import type { GexResponseT } from '../../../src-shared/api/schemas';
import type { ChartPalette } from './base';
import { spotMarkers, type StrikeMarker, type StrikeSeries } from './StrikeChart';

export function netGexSeries(data: GexResponseT, palette: ChartPalette): StrikeSeries[] {
  return [{ label: 'Net GEX', color: palette.net, values: data.data.map((r) => ({ strike: r.strike, value: r.netGEX })) }];
}

export function dealerMapMarkers(data: GexResponseT, palette: ChartPalette): StrikeMarker[] {
  const list = spotMarkers(
    data.data.map((r) => r.strike),
    data.stockPrice,
    palette,
  );
  if (data.callWall) list.push({ strike: data.callWall.strike, label: 'Call wall', color: palette.pos, edge: 'top' });
  if (data.putWall) list.push({ strike: data.putWall.strike, label: 'Put wall', color: palette.neg, edge: 'top' });
  return list;
}
