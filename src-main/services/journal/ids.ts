/** The journal's ids (accounts, transactions) and the text of an upload. */
import { hash } from 'node:crypto';
import type { ImportedTransaction } from '../../../src-shared/journal/model';
import { asAccountId, type AccountId } from '../../../src-shared/ids';

function shortHash(...parts: string[]): string {
  return hash('sha256', parts.join('\u0000'), 'hex').slice(0, 32);
}

export function accountIdFor(source: string, accountName: string): AccountId {
  // The broker part of the source (`tastytrade-csv` → `tastytrade`).
  const dash = source.indexOf('-');
  return asAccountId(`acc_${shortHash(dash < 0 ? source : source.slice(0, dash), accountName).slice(0, 16)}`);
}

export function transactionIdFor(tx: Pick<ImportedTransaction, 'source' | 'accountName' | 'brokerRowId'>): string {
  return transactionIdAfter(transactionIdPrefix(tx.source, tx.accountName), tx.brokerRowId);
}

/** What the ids of one account's rows start their digested text with (made once per account of an import). */
export function transactionIdPrefix(source: string, accountName: string): string {
  return `${source}\u0000${accountName}\u0000`;
}

/** transactionIdFor of a row of the account `prefix` was made for: shortHash's text written out, one concatenation per row. */
export function transactionIdAfter(prefix: string, brokerRowId: string): string {
  return `tx_${hash('sha256', prefix + brokerRowId, 'hex').slice(0, 32)}`;
}

/** The text of an uploaded file; bytes are decoded as UTF-8 (invalid sequences become U+FFFD, a BOM stays for the importers). */
export function importText(file: string | Uint8Array): string {
  return typeof file === 'string' ? file : Buffer.from(file.buffer, file.byteOffset, file.byteLength).toString('utf8');
}
