/**
 * The levels scope (docs/journal.md §Levels scope) as the Positions and Trades pages offer and name it: a switch
 * between a position's own expiration (the default), the /gex default of the 3 nearest expirations and the 0–45 DTE
 * book; and the words put beside every level shown, so that no wall is ever read as another expiration's.
 */
import type { LevelsScope } from '../../src-shared/api/constants';
import { Segmented } from './ui';

export { gexScopeOf, readLevelsScope, scopeText } from './levels-scope';

const OPTIONS: ReadonlyArray<{ value: LevelsScope; label: string; title: string }> = [
  { value: 'own', label: 'Own exp.', title: "Each position's levels of its own expiration alone (a trade's: its main leg's expiration)" },
  { value: 'nearest', label: '3 nearest', title: 'The /gex default: the 3 nearest expirations together' },
  { value: 'book', label: '0–45 DTE', title: 'Every expiration within 0–45 days together' },
];

export function LevelsScopeControl({ value, onChange }: { value: LevelsScope; onChange: (value: LevelsScope) => void }) {
  return (
    <span className="field-inline" data-testid="levels-scope">
      Levels
      <Segmented label="Levels scope" value={value} onChange={onChange} options={OPTIONS} />
    </span>
  );
}
