/**
 * JSON stored in a column, read back with the schema it was written with (issue 19: no `JSON.parse(...) as T` on
 * stored data). A row written by an older version, or changed by hand, is not trusted to have the shape of today's
 * type: each reader says what it does with one that has not (skips it, or refuses it with a clear error).
 */
import { Type, type Static, type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { ImportFormatMapping } from '../../src-shared/api/import-schemas';

/** A reader of one JSON column: the value, or null when the text is not JSON of that schema. */
export interface StoredJson<T> {
  read(text: string): T | null;
}

export function storedJson<S extends TSchema>(schema: S): StoredJson<Static<S>> {
  const check = Compile(schema);
  return {
    read(text) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return null;
      }
      return check.Check(value) ? value : null;
    },
  };
}

const Zone = Type.Union([Type.Literal('positive'), Type.Literal('negative')]);
const Wall = Type.Object({ strike: Type.Number(), gex: Type.Number() });
const NullableNumber = Type.Union([Type.Number(), Type.Null()]);

/** A point of /v1/gex/history (gex_history.point; GexHistoryPoint). */
export const storedHistoryPoint = storedJson(
  Type.Object({
    quoteTime: Type.String(),
    spot: Type.Number(),
    totalGEX: Type.Number(),
    gammaZone: Zone,
    gammaInflection: NullableNumber,
    callWall: Type.Union([Wall, Type.Null()]),
    putWall: Type.Union([Wall, Type.Null()]),
  }),
);

/** A saved import format's header (import_formats.header_json). */
export const storedFormatHeader = storedJson(Type.Array(Type.String()));
/** A saved import format's mapping (import_formats.mapping_json), with the schema the API takes it by. */
export const storedFormatMapping = storedJson(ImportFormatMapping);
