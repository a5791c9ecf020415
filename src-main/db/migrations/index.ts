import { m001Core } from './001-core';
import { m002Journal } from './002-journal';
import { m003Chains } from './003-chains';
import { m004JournalGeneration } from './004-journal-generation';
import { m005SnapshotGeneration } from './005-snapshot-generation';
import { m006ImportFormats } from './006-import-formats';
import { m007GexHistory } from './007-gex-history';
import { m008TransactionSequence } from './008-transaction-sequence';
import { m009BoundedReports } from './009-bounded-reports';
import { m010Annotations } from './010-annotations';
import { m011PositionAlerts } from './011-position-alerts';
import { m012SupersededManual } from './012-superseded-manual';
import { m013ChainUnderlyings } from './013-chain-underlyings';
import { m014Reconciliation } from './014-reconciliation';
import { m015CorporateActions } from './015-corporate-actions';
import { m016ChainFiles } from './016-chain-files';
import { m017SnapshotColumns } from './017-snapshot-columns';
import type { Migration } from './migration';

export type { Migration } from './migration';

/** Numbered, append-only. Each runs inside the one transaction that also sets PRAGMA user_version. */
export const MIGRATIONS: readonly Migration[] = [m001Core, m002Journal, m003Chains, m004JournalGeneration, m005SnapshotGeneration, m006ImportFormats, m007GexHistory, m008TransactionSequence, m009BoundedReports, m010Annotations, m011PositionAlerts, m012SupersededManual, m013ChainUnderlyings, m014Reconciliation, m015CorporateActions, m016ChainFiles, m017SnapshotColumns];

export const LATEST_VERSION = MIGRATIONS.length;
