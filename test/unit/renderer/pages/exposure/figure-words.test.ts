/**
 * The exposure figures in plain words (issue 30, item 5): each sentence says how its figure is computed and how to read
 * it; here each recipe is worked by hand on a small chain (the BSM formulas written out below, not the greeks module)
 * and must give the engine's figure, and the reading the sentence gives must hold on it (the sign, the side, the
 * strike). Chain: spot 100, one PM expiry 7 days out (T = 7/365), r = 0.04, no quotes (so F = S·e^{rT}, e^{−qT} = 1),
 * σ = 0.20 unless said.
 */
import { describe, expect, it } from 'vitest';
import { FIGURE_WORDS as W } from '../../../../../src-renderer/pages/exposure/figure-words';
import { computeGex } from '../../../../../src-shared/exposure/gex';
import { expirationDetails } from '../../../../../src-shared/exposure/chain-reads';
import { prepareChain } from '../../../../../src-shared/exposure/prepare';
import { computeVanna } from '../../../../../src-shared/exposure/vanna';
import { contract, EXPIRATION, snapshot, T_WEEK } from '../../../../exposure-helpers';

const S = 100;
const R = 0.04;
const T = T_WEEK;

/** The standard normal density and the BSM d1, d2 on the forward x·e^{rT} of a hypothetical spot x. */
const phi = (d: number) => Math.exp((-d * d) / 2) / Math.sqrt(2 * Math.PI);
function d12(x: number, strike: number, sigma: number) {
  const d1 = (Math.log((x * Math.exp(R * T)) / strike) + (sigma * sigma * T) / 2) / (sigma * Math.sqrt(T));
  return { d1, d2: d1 - sigma * Math.sqrt(T) };
}
/** Gamma per share: φ(d1)/(xσ√T). */
const gamma = (x: number, strike: number, sigma = 0.2) => phi(d12(x, strike, sigma).d1) / (x * sigma * Math.sqrt(T));

describe('GEX, the flip and the walls', () => {
  // Calls: 100 × 1,000 and 105 × 3,000; puts: 95 × 4,000 and 100 × 500.
  const legs = [
    { strike: 100, right: 'C', oi: 1000 },
    { strike: 105, right: 'C', oi: 3000 },
    { strike: 95, right: 'P', oi: 4000 },
    { strike: 100, right: 'P', oi: 500 },
  ] as const;
  const chain = prepareChain(snapshot(legs.map((l) => contract({ strike: l.strike, right: l.right, openInterest: l.oi }))), { rate: R });
  const gex = computeGex(chain, { expirations: [EXPIRATION], formula: 'nominal' });
  /** Σ gamma × open interest × 100, calls + and puts −, at spot x. */
  const total = (x: number) => legs.reduce((sum, l) => sum + (l.right === 'C' ? 1 : -1) * gamma(x, l.strike) * l.oi * 100, 0);

  it('Total GEX: Σ gamma × OI × 100, calls + and puts −; positive here, so the dealers damp moves', () => {
    expect(W.totalGex.long).toContain('Σ gamma × open interest × 100');
    expect(W.totalGex.long).toContain('calls counted + and puts −');
    // By hand: σ√T = 0.027697; d1 = 0.0416 (100), −1.7200 (105), 1.8935 (95); φ = 0.39860, 0.09088, 0.06643;
    // Γ = φ/2.7697: calls 14,391 + 9,844, puts −9,594 − 7,196 → +7,445 shares per $1.
    expect(total(S)).toBeCloseTo(7445, -1);
    expect(gex.totalGEX / total(S)).toBeCloseTo(1, 9);
    expect(W.totalGex.long).toContain('Positive: dealers’ hedging sells rallies and buys dips');
  });

  it('Call wall: the strike with the most call gamma, not the most call open interest', () => {
    expect(W.callWall.short).toBe('Strike with the most call gamma: read as a ceiling or pin');
    // 105 holds three times the calls of 100 but 3,000 × 0.09088 < 1,000 × 0.39860: the wall is 100.
    expect(3000 * gamma(S, 105)).toBeLessThan(1000 * gamma(S, 100));
    expect(gex.callWall?.strike).toBe(100);
    expect(gex.callWall?.gex).toBeCloseTo(gamma(S, 100) * 1000 * 100, 6);
  });

  it('Put wall: the strike with the most negative put GEX', () => {
    // 95: −4,000 × 0.06643 → −9,594; 100: −500 × 0.39860 → −7,196.
    expect(-4000 * gamma(S, 95) * 100).toBeLessThan(-500 * gamma(S, 100) * 100);
    expect(gex.putWall?.strike).toBe(95);
    expect(W.putWall.long).toContain('the most negative put GEX');
  });

  it('Gamma flip: the spot between 0.8× and 1.2× where the re-priced profile turns sign, the one nearest spot', () => {
    expect(W.gammaFlip.long).toContain('between 0.8× and 1.2× spot');
    const flip = gex.gammaInflection;
    if (flip === null) throw new Error('the profile turns sign: + at spot, − far below where the 95 puts dominate');
    expect(total(S)).toBeGreaterThan(0);
    expect(total(0.8 * S)).toBeLessThan(0);
    // The hand profile changes sign across the engine's root (bisected to 1e−6·S) and nowhere nearer spot.
    expect(total(flip - 0.01)).toBeLessThan(0);
    expect(total(flip + 0.01)).toBeGreaterThan(0);
    for (let x = flip + 0.05; x <= S; x += 0.05) expect(total(x), `no sign change nearer spot at ${x}`).toBeGreaterThan(0);
    expect(flip).toBeGreaterThan(0.8 * S);
    expect(flip).toBeLessThan(S);
  });
});

describe('DEX and the expected move', () => {
  it('Total DEX: Σ delta × OI × 100 in shares, the holders’ side', () => {
    expect(W.totalDex.long).toContain('Σ delta × open interest × 100, in shares');
    expect(W.totalDex.long).toContain('notional = shares × spot');
    // Deep in the money (d1 ≈ ±25): the 50 call's delta is 1, the 150 put's −1. 1,000 × 100 − 400 × 100 = 60,000
    // shares, × 100 = $6,000,000: what the holders hold, positive although the dealers (short them) hold −60,000.
    const chain = prepareChain(snapshot([contract({ strike: 50, right: 'C', openInterest: 1000 }), contract({ strike: 150, right: 'P', openInterest: 400 })]), { rate: R });
    const gex = computeGex(chain, { expirations: [EXPIRATION], formula: 'nominal' });
    expect(gex.totalDEX).toBeCloseTo(60_000, 6);
    expect(gex.totalDEXNotional).toBeCloseTo(6_000_000, 4);
  });

  it('Expected move: call mid + put mid at the strike nearest the forward', () => {
    expect(W.expectedMove.long).toContain('call mid + put mid at the strike nearest the forward');
    // Strikes 95, 100, 105 both sides; parity at 100 (|3.00 − 2.00| least) gives F = 100 + e^{rT}·1.00 ≈ 101.00,
    // nearest 100: 3.00 + 2.00 = 5.00, 5 % of spot. 105 is 4.0 away, 95 is 6.0.
    const quotes = [
      { strike: 95, right: 'C', bid: 6.4, ask: 6.6 },
      { strike: 95, right: 'P', bid: 0.5, ask: 0.7 },
      { strike: 100, right: 'C', bid: 2.9, ask: 3.1 },
      { strike: 100, right: 'P', bid: 1.9, ask: 2.1 },
      { strike: 105, right: 'C', bid: 0.8, ask: 1.0 },
      { strike: 105, right: 'P', bid: 4.7, ask: 4.9 },
    ] as const;
    const chain = prepareChain(snapshot(quotes.map((q) => contract({ ...q }))), { rate: R });
    const [detail] = expirationDetails(chain);
    expect(detail?.atmStrike).toBe(100);
    expect(detail?.expectedMove).toBeCloseTo(5, 12);
    expect(detail?.expectedMovePct).toBeCloseTo(0.05, 12);
  });
});

describe('vanna and charm', () => {
  // Out-of-the-money wings (105 call × 1,000, 95 put × 1,000) and an in-the-money call below spot (96 × 1,000).
  const legs = [
    { strike: 105, right: 'C', oi: 1000, iv: 0.2 },
    { strike: 95, right: 'P', oi: 1000, iv: 0.2 },
    { strike: 96, right: 'C', oi: 1000, iv: 0.2 },
  ] as const;
  const chain = prepareChain(snapshot(legs.map((l) => contract({ strike: l.strike, right: l.right, openInterest: l.oi, iv: l.iv }))), { rate: R });
  const v = computeVanna(chain, { expiration: null });
  /** VEX = s·vanna·OI·100·S·0.01 with vanna = −φ(d1)d2/σ; CEX = s·charm·OI·100·S/365 with (b = r) charm = −φ(d1)(r/(σ√T) − d2/(2T)). */
  const hand = legs.map((l) => {
    const { d1, d2 } = d12(S, l.strike, l.iv);
    const s = l.right === 'C' ? 1 : -1;
    const vanna = (-phi(d1) * d2) / l.iv;
    const charm = -phi(d1) * (R / (l.iv * Math.sqrt(T)) - d2 / (2 * T));
    const vex = s * vanna * l.oi * 100 * S * 0.01;
    const cex = (s * charm * l.oi * 100 * S) / 365;
    return { strike: l.strike, vex, cex, bull: vex - cex, bear: -vex - cex };
  });
  const at = (strike: number) => hand.find((h) => h.strike === strike) ?? { strike, vex: 0, cex: 0, bull: 0, bear: 0 };

  it('Total vanna and the regime: $ of dealer delta per +1 vol point; positive, so a fall in IV makes dealers buy', () => {
    expect(W.totalVanna.long).toContain('Σ dealer sign × vanna × open interest × 100 × spot × 0.01');
    // 105 call: d2 = −1.748, vanna = 0.0909 × 1.748 / 0.2 = 0.794 → +79,4xx; the 95 put's vanna is −0.620, × −1 → +61,9xx.
    expect(at(105).vex).toBeCloseTo(79_420, -2);
    expect(at(95).vex).toBeCloseTo(61_970, -2);
    const total = hand.reduce((sum, h) => sum + h.vex, 0);
    expect(v.totalVanna / total).toBeCloseTo(1, 9);
    expect(total).toBeGreaterThan(0);
    expect(v.keyLevels.vannaRegime).toBe('positive');
    expect(W.vannaRegime.short).toBe('+: falling IV makes dealers buy; −: it makes them sell');
  });

  it('Total charm: $ of dealer delta per calendar day; negative here (the out-of-the-money deltas decay)', () => {
    expect(W.totalCharm.long).toContain('Σ dealer sign × charm × open interest × 100 × spot ÷ 365');
    // 105 call: charm = −0.0909 × (1.444 + 45.57) = −4.27 a year → −4.27 × 1,000 × 100 × 100 / 365 ≈ −117,0xx a day.
    expect(at(105).cex).toBeCloseTo(-117_050, -2);
    const total = hand.reduce((sum, h) => sum + h.cex, 0);
    expect(v.totalCharm / total).toBeCloseTo(1, 9);
    expect(total, '−117,0xx − 85,9xx + 129,4xx').toBeLessThan(0);
  });

  it('Bull drift target, bear max danger, bear deceleration and the bull/bear ratio, from the hand flows', () => {
    expect(W.bullDriftTarget.long).toContain('largest vanna − charm flow');
    expect(W.bearMaxDanger.long).toContain('most negative −vanna − charm flow');
    // Bull (vanna − charm) above spot: only the 105 strike, positive → the target.
    expect(at(105).bull).toBeGreaterThan(0);
    expect(v.keyLevels.bullDriftTarget).toBe(105);
    // Bear (−vanna − charm) below spot. The 96 call (d2 = 1.47): vanna −0.94 → VEX −94,1xx, charm +4.73 a year → CEX
    // +129,4xx, bear −35,3xx: rising IV and a day make dealers sell there: the danger. The 95 put: bear +23,9xx: their
    // flow turns to buying: the deceleration.
    expect(at(96).bear).toBeCloseTo(-35_330, -2);
    expect(at(95).bear).toBeCloseTo(23_930, -2);
    expect(v.keyLevels.bearMaxDanger).toBe(96);
    expect(v.keyLevels.bearDeceleration).toBe(95);
    // Bull flows 105 (+196,4xx) and 95 (+147,8xx; 96's is negative) over the one bear flow 35,3xx: about 9.7.
    const bull = at(105).bull + at(95).bull;
    expect(v.keyLevels.bullBearRatio).toBeCloseTo(bull / -at(96).bear, 9);
    expect(v.keyLevels.bullBearRatio).toBeCloseTo(9.7, 1);
    expect(W.bullBearRatio.long).toContain('Above 1: the bull case weighs more');
    expect(W.bullBearRatio.short).toBe('Σ bull flows ÷ Σ bear flows');
  });
});

describe('every figure has both texts', () => {
  it('a short line of a few words and a sentence that names the figure', () => {
    for (const [key, words] of Object.entries(W)) {
      expect(words.short.length, key).toBeGreaterThan(0);
      expect(words.short.length, `${key}: a few words`).toBeLessThanOrEqual(70);
      expect(words.long.length, `${key}: one sentence or two`).toBeLessThanOrEqual(320);
      expect(words.long, key).toMatch(/^[A-Z][A-Za-z /]+: /);
    }
  });
});
