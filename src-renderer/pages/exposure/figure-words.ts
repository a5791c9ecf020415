/**
 * The exposure figures in plain words (issue 30, item 5; docs/exposure.md §The figures in plain words): a short line
 * shown under each value and one sentence for its tooltip. Dealer positioning is an assumption of the method (dealers
 * long the calls and short the puts the public holds), and the words say so where a figure depends on it.
 */
export interface FigureWords {
  /** Shown under the value: a few words. */
  short: string;
  /** The tooltip: what it is, how it is computed, how to read it. */
  long: string;
}

export const FIGURE_WORDS = {
  totalGex: {
    short: 'Dealers’ net gamma, if they hold calls long and puts short',
    long: 'Total GEX: Σ gamma × open interest × 100 over the scope, calls counted + and puts − (dealers assumed long calls, short puts), in the unit chosen. Positive: dealers’ hedging sells rallies and buys dips, damping moves; negative: it chases them.',
  },
  gammaFlip: {
    short: 'Where dealer gamma would turn sign if spot moved there',
    long: 'Gamma flip: the price between 0.8× and 1.2× spot where the gamma profile (every contract keeping its IV, re-priced at that spot) crosses zero, the one nearest spot. On one side dealers damp moves, on the other they amplify them.',
  },
  callWall: {
    short: 'Strike with the most call gamma: read as a ceiling or pin',
    long: 'Call wall: the strike with the largest call GEX. Dealers long those calls sell as price rises toward it, which is why traders read it as resistance or a pin.',
  },
  putWall: {
    short: 'Strike with the most put gamma: read as a floor',
    long: 'Put wall: the strike with the most negative put GEX. Traders read it as support; dealers short those puts sell as price falls toward it, so a break below it can speed the fall.',
  },
  totalDex: {
    short: 'Delta of the open interest (holders’ side); dealers hold the opposite',
    long: 'Total DEX: Σ delta × open interest × 100, in shares — the delta of the option holders’ side, not the dealers’. Dealers who wrote those options hold the opposite delta and trade shares to offset it; notional = shares × spot.',
  },
  expectedMove: {
    short: 'ATM straddle: the move either way the options price in',
    long: 'Expected move: the price of the at-the-money straddle (call mid + put mid at the strike nearest the forward) of the nearest expiration in scope — what the market charges for a move up or down by then.',
  },
  vannaRegime: {
    short: '+: falling IV makes dealers buy; −: it makes them sell',
    long: 'Vanna regime: the sign of total vanna. Positive: a fall in implied volatility makes dealers buy (a rise, sell); negative: the reverse.',
  },
  totalVanna: {
    short: '$ of dealer delta per +1 vol point',
    long: 'Total vanna: Σ dealer sign × vanna × open interest × 100 × spot × 0.01 — how many dollars of delta dealers gain when implied volatility rises one point (they hedge by selling that much).',
  },
  totalCharm: {
    short: '$ of dealer delta per calendar day',
    long: 'Total charm: Σ dealer sign × charm × open interest × 100 × spot ÷ 365 — how many dollars of delta dealers gain as one calendar day passes with price and IV unchanged.',
  },
  vannaFlip: {
    short: 'Where total vanna would turn sign if spot moved there',
    long: 'Vanna flip: the price between 0.8× and 1.2× spot where the vanna profile crosses zero, the one nearest spot.',
  },
  bullDriftTarget: {
    short: 'IV falls, a day passes: dealers buy most',
    long: 'Bull drift target: the strike above spot where falling IV and a passing day make dealers buy the most (largest vanna − charm flow).',
  },
  bearMaxDanger: {
    short: 'IV rises: dealers sell most',
    long: 'Bear max danger: the strike below spot where rising IV and a passing day make dealers sell the most (most negative −vanna − charm flow).',
  },
  bearDeceleration: {
    short: 'Selling eases there — a put seller’s zone',
    long: 'Bear deceleration: the strike below spot where, even with IV rising, dealers’ flow turns to buying (largest positive bear flow): declines tend to slow there.',
  },
  bullBearRatio: {
    short: 'Σ bull flows ÷ Σ bear flows',
    long: 'Bull/bear ratio: the dealer buying in the bull case (IV falls, a day passes) summed over strikes, divided by their selling in the bear case (IV rises). Above 1: the bull case weighs more.',
  },
} as const satisfies Record<string, FigureWords>;

export type FigureKey = keyof typeof FIGURE_WORDS;
