/** Fields the journal's schemas share (journal-schemas.ts, position-schemas.ts): kept out of the schemas.ts barrel. */
import { Type } from 'typebox';
import { AccountIdParam, Nullable } from './schema-kit';

/** An option's contract (null for stock): transactions, positions and the positions that need attention. */
export const optionContract = {
  expiration: Nullable(Type.String()),
  strike: Nullable(Type.Number()),
  right: Nullable(Type.Union([Type.Literal('C'), Type.Literal('P')])),
};

export const AccountParam = AccountIdParam('Only this account (404 UNKNOWN_ACCOUNT when none has this id)');

/** An option whose OCC root carries a digit (AMD1): a non-standard deliverable after a corporate action; its underlying is the chain's symbol (docs/journal.md §Underlying roots). */
export const adjustedField = {
  adjusted: Type.Boolean({ description: 'An OCC-adjusted option (its root ends in a digit, AMD1 of AMD): a non-standard deliverable, marked only from a chain that lists that root' }),
};
