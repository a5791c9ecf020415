import type { Database } from 'better-sqlite3';
import { Type } from 'typebox';
import { CORPORATE_ACTION_TYPES, type CorporateActionType } from '../../src-shared/api/constants';
import type { CorporateActionTerms } from '../../src-shared/journal/model';
import type { Minor } from '../../src-shared/money';
import { Table } from './sql';
import { storedJson } from './stored-json';
import type { WriteTx } from './writes';

/** A row of `corporate_actions` (migration 015): an action entered by hand. Cash in integer minor units. */
export type CorporateActionRow = {
  id: number;
  import_id: number;
  /** NULL: every account. */
  account_id: string | null;
  date: string;
  type: CorporateActionType;
  symbol: string;
  new_symbol: string | null;
  ratio: number | null;
  cash_per_share_minor: number | null;
  cost_fraction: number | null;
  quantity: number | null;
  note: string;
  created_at: string;
};

export const CORPORATE_ACTIONS = Table.of<CorporateActionRow>()('corporate_actions', [
  'id',
  'import_id',
  'account_id',
  'date',
  'type',
  'symbol',
  'new_symbol',
  'ratio',
  'cash_per_share_minor',
  'cost_fraction',
  'quantity',
  'note',
  'created_at',
]);

export type NewCorporateActionRow = Omit<CorporateActionRow, 'id'>;
const NEW_COLUMNS = CORPORATE_ACTIONS.columns.filter((column) => column !== 'id');

const NullableNumber = Type.Union([Type.Number(), Type.Null()]);
/** The terms a file's SPLIT / SYMBOL_CHANGE row carries (transactions.corporate_action). */
const storedTerms = storedJson(
  Type.Object({
    type: Type.Union(CORPORATE_ACTION_TYPES.map((type) => Type.Literal(type))),
    symbol: Type.String(),
    newSymbol: Type.Union([Type.String(), Type.Null()]),
    ratio: NullableNumber,
    // A rate: a file's cash over its shares may hold a fraction of a minor unit (the product is rounded once).
    cashPerShareMinor: NullableNumber,
    costFraction: NullableNumber,
    quantity: NullableNumber,
  }),
);

/** A row's stored terms; null for a value not of their shape (a row changed by hand): the row reads as without them. */
export function readActionTerms(text: string): CorporateActionTerms | null {
  const value = storedTerms.read(text);
  return value === null ? null : { ...value, type: value.type as CorporateActionType, cashPerShareMinor: value.cashPerShareMinor as Minor | null };
}

export function writeActionTerms(terms: CorporateActionTerms | undefined): string | null {
  return terms === undefined ? null : JSON.stringify(terms);
}

/** An action entered by hand as the ledger applies it. */
export function termsOfRow(row: CorporateActionRow): CorporateActionTerms {
  return {
    type: row.type,
    symbol: row.symbol,
    newSymbol: row.new_symbol,
    ratio: row.ratio,
    cashPerShareMinor: row.cash_per_share_minor as Minor | null,
    costFraction: row.cost_fraction,
    quantity: row.quantity,
  };
}

export class CorporateActionsRepository {
  constructor(private readonly db: Database) {}

  /** Every action entered by hand, by date then id. */
  all(): CorporateActionRow[] {
    return this.db.prepare<[], CorporateActionRow>(`SELECT ${CORPORATE_ACTIONS.columnList} FROM corporate_actions ORDER BY date, id`).all();
  }

  byId(id: number): CorporateActionRow | null {
    return this.db.prepare<[number], CorporateActionRow>(`SELECT ${CORPORATE_ACTIONS.columnList} FROM corporate_actions WHERE id = ?`).get(id) ?? null;
  }

  insert(_turn: WriteTx, row: NewCorporateActionRow): number {
    return Number(this.db.prepare<[NewCorporateActionRow]>(CORPORATE_ACTIONS.insertRowSql({ columns: NEW_COLUMNS })).run(row).lastInsertRowid);
  }

  /** Writes every value of the row over the stored row of its id; 1 when there was one. */
  replace(_turn: WriteTx, row: CorporateActionRow): number {
    return this.db.prepare<[CorporateActionRow]>(CORPORATE_ACTIONS.updateRowSql('id')).run(row).changes;
  }

  delete(_turn: WriteTx, id: number): number {
    return this.db.prepare<[number]>('DELETE FROM corporate_actions WHERE id = ?').run(id).changes;
  }

  countOfImport(importId: number): number {
    return this.db.prepare<[number], number>('SELECT COUNT(*) FROM corporate_actions WHERE import_id = ?').pluck().get(importId) ?? 0;
  }
}
