/**
 * The brands of names and ids (src-shared/ids.ts): a plain string is not a Ticker, a Ticker is not an AccountId, a
 * number is not a SnapshotId (the `@ts-expect-error` lines fail typecheck the day a brand stops being one); each
 * constructor's accepted, refused and normalised values; and no brand made by a cast outside ids.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_ID_MAX, asAccountId, asSnapshotId, asTicker, asTradeId, storedTicker, tickerList, tickerOrNull, TRADE_ID_MAX, type AccountId, type SnapshotId, type Ticker, type TradeId } from '../../../src-shared/ids';
import { REPO_ROOT } from '../../paths';
import type { Account, ImportedTransaction, RawTransaction, Transaction } from '../../../src-shared/journal/model';
import type { CampaignRecord, OpenPosition } from '../../../src-shared/journal/records';
import type { Trade } from '../../../src-shared/journal/trades';

function tickerOnly(ticker: Ticker): string {
  return ticker;
}
function accountOnly(account: AccountId): string {
  return account;
}
function tradeOnly(trade: TradeId): string {
  return trade;
}
function snapshotOnly(snapshot: SnapshotId): number {
  return snapshot;
}

describe('branded names and ids', () => {
  it('a ticker is made upper case and trimmed, a list of them each', () => {
    expect(asTicker(' spx ')).toBe('SPX');
    expect(asTicker('brk.b')).toBe('BRK.B');
    expect(asTicker('\tSpXw\n')).toBe('SPXW');
    // Its other characters are kept: the grammar is the schema's (SYMBOL_PATTERN) or the file parser's.
    expect(asTicker('/es')).toBe('/ES');
    expect(asTicker('bf-b')).toBe('BF-B');
    expect(tickerList('spx,SpY,QQQ')).toEqual(['SPX', 'SPY', 'QQQ']);
    // Made once: a Ticker made again is the same text.
    expect(asTicker(asTicker('spx'))).toBe('SPX');
  });

  it('blank text is no ticker: tickerOrNull refuses it, asTicker keeps it empty', () => {
    expect(tickerOrNull('  ')).toBeNull();
    expect(tickerOrNull('')).toBeNull();
    expect(tickerOrNull(' qqq')).toBe('QQQ');
    expect(asTicker('   ')).toBe('');
  });

  it('an account id is kept as it is, 1 to 64 characters; anything else is refused', () => {
    expect(asAccountId('acc_0123456789abcdef')).toBe('acc_0123456789abcdef');
    // Not upper-cased nor trimmed: ids are compared exactly, a request's is checked by its schema's same limits.
    expect(asAccountId('Acc 1')).toBe('Acc 1');
    expect(asAccountId('a'.repeat(ACCOUNT_ID_MAX))).toHaveLength(64);
    expect(() => asAccountId('')).toThrow(RangeError);
    expect(() => asAccountId('a'.repeat(ACCOUNT_ID_MAX + 1))).toThrow(/1–64 characters/);
  });

  it('a trade id is kept as it is, 1 to 200 characters; anything else is refused', () => {
    expect(asTradeId('tx_9f86d081884c7d659a2feaa0c55ad015')).toBe('tx_9f86d081884c7d659a2feaa0c55ad015');
    expect(asTradeId('before:tx_1')).toBe('before:tx_1');
    expect(asTradeId('t'.repeat(TRADE_ID_MAX))).toHaveLength(200);
    expect(() => asTradeId('')).toThrow(RangeError);
    expect(() => asTradeId('t'.repeat(TRADE_ID_MAX + 1))).toThrow(/1–200 characters/);
  });

  it('a snapshot id is a positive safe integer; anything else is refused', () => {
    expect(asSnapshotId(1)).toBe(1);
    expect(asSnapshotId(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 1]) {
      expect(() => asSnapshotId(bad), String(bad)).toThrow(RangeError);
    }
  });

  it('no brand of ids.ts is made by a cast elsewhere (eslint refuses it too: eslint.config.js)', () => {
    const cast = /\bas\s+(?:Ticker|AccountId|TradeId|SnapshotId)\b/;
    const found: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.tsx?$/.test(entry.name) && !path.endsWith(join('src-shared', 'ids.ts'))) {
          readFileSync(path, 'utf8')
            .split('\n')
            .forEach((line, index) => {
              if (cast.test(line)) found.push(`${relative(REPO_ROOT, path)}:${index + 1}`);
            });
        }
      }
    };
    for (const top of ['src-shared', 'src-main', 'src-renderer', 'bench']) walk(join(REPO_ROOT, top));
    expect(found).toEqual([]);
  });

  it('a plain value is none of the brands, nor one brand another (types)', () => {
    // @ts-expect-error a plain string is not a Ticker: it has not been upper-cased at the edge
    tickerOnly('spx');
    // @ts-expect-error a Ticker is not an account id
    accountOnly(asTicker('SPX'));
    // @ts-expect-error an account id is not a trade id
    tradeOnly(asAccountId('acc_1'));
    // @ts-expect-error a plain number is not a snapshot id
    snapshotOnly(7);
    expect([tickerOnly(asTicker('spx')), accountOnly(asAccountId('acc_1')), tradeOnly(asTradeId('trd_1')), snapshotOnly(asSnapshotId(7))]).toEqual(['SPX', 'acc_1', 'trd_1', 7]);
  });
});

describe('the journal records carry the brands (compile-time)', () => {
  // The `@ts-expect-error` lines are the test: typecheck fails ("Unused '@ts-expect-error' directive") the day a record
  // takes plain text where it holds an account id or a ticker (branded where rows are read: db, ResultCollector.add).
  it('a transaction, an account, a position, a campaign and a trade take an AccountId and a Ticker, never plain text', () => {
    const accountId = asAccountId('acc_0123456789abcdef');
    const ticker = asTicker(' spy ');
    const account: Account = { id: accountId, name: 'IRA' };
    const held: Pick<OpenPosition, 'accountId' | 'underlying'> = { accountId, underlying: ticker };
    // @ts-expect-error a stored transaction's account is an AccountId (toTransaction: asAccountId)
    const plainTx: Pick<Transaction, 'accountId'> = { accountId: 'acc_0123456789abcdef' };
    // @ts-expect-error an account's id too (AccountsRepository.inUse)
    const plainAccount: Account = { id: 'acc_0123456789abcdef', name: 'IRA' };
    // @ts-expect-error the collector's product names its underlying as a Ticker
    const plainUnderlying: Pick<ImportedTransaction, 'underlying'> = { underlying: 'SPY' };
    // @ts-expect-error a position's underlying (the ledger's slots are keyed by it)
    const plainPosition: Pick<OpenPosition, 'accountId' | 'underlying'> = { accountId, underlying: 'SPY' };
    // @ts-expect-error a campaign's account
    const plainCampaign: Pick<CampaignRecord, 'accountId'> = { accountId: 'acc_0123456789abcdef' };
    // @ts-expect-error a trade's underlying
    const plainTrade: Pick<Trade, 'accountId' | 'underlying'> = { accountId, underlying: 'SPY' };
    // A name read back from the store is branded as stored: rows stored before the import edge upper-cased keep their spelling.
    expect(storedTicker('pfe')).toBe('pfe');
    // An importer's row, before the collector, is text as the file writes it.
    const raw: Pick<RawTransaction, 'underlying'> = { underlying: 'spy' };
    // Reading needs no conversion: a brand is a string wherever a string is asked.
    const texts: string[] = [account.id, held.underlying, plainTx.accountId, plainAccount.id, plainUnderlying.underlying, plainPosition.underlying, plainCampaign.accountId, plainTrade.underlying, raw.underlying];
    expect(texts).toEqual(['acc_0123456789abcdef', 'SPY', 'acc_0123456789abcdef', 'acc_0123456789abcdef', 'SPY', 'SPY', 'acc_0123456789abcdef', 'SPY', 'spy']);
  });
});
