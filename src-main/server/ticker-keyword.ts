/**
 * The schema keyword that makes a query's ticker a Ticker at the edge (src-shared/ids.ts): a string schema marked
 * `TICKER_KEYWORD` is upper-cased by the validator as it decodes the query, so that a route and everything after it
 * receive `SPX` for `spx` and never upper-case it again. Added to Fastify's Ajv (app.ts); the route table's schemas
 * mark their ticker parameters with it (src-shared/api/schema-kit.ts, TickerParam).
 */
import type { Plugin } from 'ajv';
import { TICKER_KEYWORD } from '../../src-shared/api/schema-kit';
import { asTicker } from '../../src-shared/ids';

interface KeywordContext {
  parentData?: unknown;
  parentDataProperty?: string | number;
}

/** Makes the value in its parent (the query object) a Ticker (asTicker, the one normalisation) once the schema's pattern has passed. */
export const tickerKeyword: Plugin<unknown> = (ajv) => {
  ajv.addKeyword({
    keyword: TICKER_KEYWORD,
    type: 'string',
    modifying: true,
    schemaType: 'boolean',
    validate: (upperCase: boolean, data: string, _schema?: unknown, context?: KeywordContext) => {
      const parent = context?.parentData;
      const key = context?.parentDataProperty;
      if (upperCase && typeof parent === 'object' && parent !== null && key !== undefined) Reflect.set(parent, key, asTicker(data));
      return true;
    },
  });
  return ajv;
};
