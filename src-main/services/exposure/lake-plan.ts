/**
 * A backfill's lake files in the exposure worker (docs/exposure.md §Chains that arrive by themselves): dated by their
 * footer alone (peekLakeFile), then read back into their snapshot and planned as a chain file is (planLakeFile), after
 * the checks a parsed snapshot gets (chains/common.ts, snapshotProblems), so that a snapshot from a lake is stored
 * exactly as the chain file it was exported from: same contracts, same digest, same /gex.
 */
import { snapshotProblems } from '../../chains/common';
import { underFlag } from '../../checkpoint';
import { lakeFileKind, lakeSnapshotOfBytes } from '../lake/lake-file';
import { failure, ok, type Result } from '../result';
import { planIngest, type IngestBasis, type IngestPlan } from './compute';
import type { ChainFileDate } from './peek';
import { asTicker } from '../../../src-shared/ids';

/** A lake file's date, or `other` for the lake's files that hold no chain (levels, transactions, trades). */
export type LakeFileDate = ({ table: 'contracts' } & ChainFileDate) | { table: 'other' };

function refused(problems: readonly string[]) {
  const first = problems[0] ?? 'it cannot be read';
  return failure({ kind: 'file-refused', unsupported: false, detail: `The lake file was refused, nothing was stored: ${first}.`, problems: problems.slice(1, 20).map((message) => ({ line: null, message })) });
}

export function peekLakeFile(bytes: Uint8Array): Result<LakeFileDate> {
  const read = lakeFileKind(bytes);
  if (read.kind === 'other') return ok({ table: 'other' });
  if (read.kind === 'refused') return refused(read.problems);
  const quoteMs = Date.parse(read.meta.quoteTime);
  if (Number.isNaN(quoteMs)) return refused([`its quote time "${read.meta.quoteTime}" is not a date`]);
  return ok({ table: 'contracts', symbol: asTicker(read.meta.symbol), quoteTime: new Date(quoteMs).toISOString() });
}

/**
 * A contracts file read back and planned. Its rows are decoded first (bounded by the footer's checks: layoutProblems,
 * pageProblem), then the plan runs under the job's flag, as a chain file's parse does.
 */
export async function planLakeFile(bytes: Uint8Array, basis: IngestBasis, flag: Int32Array | undefined): Promise<Result<IngestPlan>> {
  const read = await lakeSnapshotOfBytes(bytes);
  if (!read.ok) return refused(read.problems);
  return underFlag(flag, () => {
    const problems = snapshotProblems(read.snapshot);
    if (problems.length > 0) return refused(problems);
    return planIngest(read.snapshot, basis, { defaultPoint: true });
  });
}
