import { useEffect, useState } from 'react';
import type { ImportsResponseT } from '../../../src-shared/api/schemas';
import { DemoButton } from '../../components/DemoButton';
import { Pager } from '../../components/Pager';
import { AsyncStatus, Badge, colClass, DataTable, num, Panel } from '../../components/ui';
import { fmtDateTime, fmtInt } from '../../format';
import { useApi, useAsync, type AsyncState } from '../../hooks';

/** The import history, a page at a time (newest first); an undo that empties the last page steps back one. */
export function useImportHistory(): { history: AsyncState<ImportsResponseT>; page: number; setPage: (page: number) => void } {
  const api = useApi();
  const [page, setPage] = useState(1);
  const history = useAsync((signal) => api.call('GET /imports', { query: { page } }, { signal }), [api, page]);
  const pastEnd = history.data !== undefined && history.data.imports.length === 0 && page > 1;
  useEffect(() => {
    if (pastEnd) setPage((p) => Math.max(1, p - 1));
  }, [pastEnd]);
  return { history, page, setPage };
}

export function ImportHistory({
  history,
  page,
  onPage,
  undoMessage,
  onUndo,
  formatNames = new Map(),
}: {
  /** Saved formats' names by importer id (`custom:<id>`): the history names them rather than their ids. */
  formatNames?: ReadonlyMap<string, string>;
  history: AsyncState<ImportsResponseT>;
  page: number;
  onPage: (page: number) => void;
  undoMessage: string | null;
  onUndo: (id: number) => void;
}) {
  const pages = history.data?.pagination.pages ?? 1;
  return (
    <Panel title="Import history" actions={undoMessage !== null ? <span className="small" role="status">{undoMessage}</span> : undefined}>
      <AsyncStatus state={history} />
      {history.data && history.data.imports.length === 0 && (
        <div className="pad">
          <p className="muted">No imports yet. Or try the app with generated data first:</p>
          <DemoButton onLoaded={history.reload} className="btn btn-small" />
        </div>
      )}
      {history.data && history.data.imports.length > 0 && (
        <>
          <DataTable testId="import-history" className="table table-dense" columns={[num('#', undefined, 'mid'), { label: 'When', hide: 'mid' }, 'File', { label: 'Broker', hide: 'lo' }, { label: 'Accounts', hide: 'lo' }, num('Rows', undefined, 'mid'), num('Imported'), num('Dup.', 'Duplicates', 'lo'), num('Skipped', undefined, 'mid'), '']}>
            {history.data.imports.map((imp) => (
              <tr key={imp.id}>
                <td className={colClass('mid', 'num')}>{imp.id}</td>
                <td className={colClass('mid', 'tnum')}>{fmtDateTime(imp.createdAt)}</td>
                <td className="import-file" title={imp.filename ?? undefined}>
                  {imp.kind === 'manual' ? <span className="muted">entered by hand</span> : (imp.filename ?? <span className="muted">—</span>)}
                  {imp.status === 'differs' && (
                    <>
                      {' '}
                      <Badge tone="warn" title={`${imp.reconciliationDiffers} of the ${imp.reconciliationCount} figures the file states about itself differ from the journal's`}>
                        differs
                      </Badge>
                    </>
                  )}
                </td>
                <td className={colClass('lo')} title={imp.broker}>
                  {imp.kind === 'manual' ? 'Manual entries' : (formatNames.get(imp.broker) ?? imp.broker)}
                </td>
                <td className={colClass('lo')}>{imp.accounts.map((a) => a.name).join(', ')}</td>
                <td className={colClass('mid', 'num')}>{fmtInt(imp.rows)}</td>
                <td className="num">{fmtInt(imp.imported)}</td>
                <td className={colClass('lo', 'num')}>{fmtInt(imp.duplicates)}</td>
                <td className={colClass('mid', 'num')}>{fmtInt(imp.skippedCount)}</td>
                <td className="right">
                  <button type="button" className="btn btn-small btn-ghost" onClick={() => onUndo(imp.id)} aria-label={`Undo import ${imp.id}`}>
                    Undo
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
          {pages > 1 && <Pager label="History pages" page={page} pages={pages} onPage={onPage} previousLabel="‹ Newer" nextLabel="Older ›" />}
        </>
      )}
    </Panel>
  );
}
