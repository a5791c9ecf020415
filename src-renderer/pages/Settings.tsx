import { useEffect, useState } from 'react';
import { NEW_YORK } from '../../src-shared/zone';
import { ApiError, type SettingsJson, type SettingsUpdateT } from '../api/client';
import { ErrorBanner, Loading, PageHead, Panel } from '../components/ui';
import { BackupPanel } from '../components/BackupPanel';
import { ExportPanel } from '../components/ExportPanel';
import { ManageRulesPanel } from './settings/ManageRulesPanel';
import { BackfillPanel, ScheduleStatus, WatchFolderStatus } from '../components/ChainArrival';
import { statusChanged } from '../components/StatusLine';
import { MAX_SCHEDULE_TIMES } from '../../src-shared/api/constants';
import { asApiError, useApi, useAsync, useKeyScreen, type Theme } from '../hooks';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API refused (no focus / permissions): fall back to a hidden textarea.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    let ok: boolean;
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    area.remove();
    return ok;
  }
}

interface Draft {
  port: string;
  rate: string;
  timeZone: string;
  reportingCurrency: string;
  enabled: boolean;
  baseUrl: string;
  watchlist: string;
  intervalSeconds: string;
  alertDistancePct: string;
  backupsKept: string;
  notifyAlerts: boolean;
  includePositions: boolean;
  watchFolder: string;
  refreshSchedule: string;
}

function toDraft(s: SettingsJson): Draft {
  return {
    port: String(s.port),
    rate: String(s.rate),
    timeZone: s.timeZone,
    reportingCurrency: s.reportingCurrency,
    enabled: s.onlineSource.enabled,
    baseUrl: s.onlineSource.baseUrl,
    watchlist: s.onlineSource.watchlist.join(', '),
    intervalSeconds: String(s.onlineSource.intervalSeconds),
    alertDistancePct: String(s.positionAlertDistancePct),
    backupsKept: String(s.backupsKept),
    notifyAlerts: s.notifyPositionAlerts,
    includePositions: s.watchlistIncludesPositions,
    watchFolder: s.watchFolder,
    refreshSchedule: s.refreshSchedule.join(', '),
  };
}

function fromDraft(d: Draft): { value: SettingsUpdateT } | { error: string } {
  const port = Number(d.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return { error: 'Port must be a whole number from 0 to 65535 (0 = any free port).' };
  const rate = Number(d.rate);
  if (!Number.isFinite(rate) || rate < -0.05 || rate > 0.25) return { error: 'Rate r is a yearly fraction from −0.05 to 0.25, e.g. 0.04 for 4%.' };
  const interval = Number(d.intervalSeconds);
  if (!Number.isInteger(interval) || interval < 15 || interval > 86400) return { error: 'Polling interval is a whole number of seconds from 15 to 86,400.' };
  const alertDistancePct = Number(d.alertDistancePct);
  if (!Number.isFinite(alertDistancePct) || alertDistancePct <= 0 || alertDistancePct > 20) return { error: 'Alert distance is a % of the strike above 0 and at most 20, e.g. 1.' };
  const backupsKept = Number(d.backupsKept);
  if (!Number.isInteger(backupsKept) || backupsKept < 1 || backupsKept > 100) return { error: 'Backups kept is a whole number from 1 to 100.' };
  if (!/^[A-Z]{3}$/.test(d.reportingCurrency.trim().toUpperCase())) return { error: 'Reporting currency is a 3-letter ISO code, e.g. USD.' };
  const times = d.refreshSchedule
    .split(/[\s,;]+/)
    .map((t) => t.trim())
    .filter((t) => t !== '')
    // 9:45 is 09:45: the schedule is written HH:MM.
    .map((t) => (/^\d:\d\d$/.test(t) ? `0${t}` : t));
  const badTime = times.find((t) => !/^(?:[01]\d|2[0-3]):[0-5]\d$/.test(t));
  if (badTime !== undefined) return { error: `Refresh times are New York times written HH:MM (24 h), e.g. 09:45, 15:45; "${badTime}" is not one.` };
  if (times.length > MAX_SCHEDULE_TIMES) return { error: `At most ${MAX_SCHEDULE_TIMES} refresh times a day.` };
  const watchlist = d.watchlist
    .split(/[\s,;]+/)
    .map((t) => t.trim().toUpperCase())
    .filter((t) => t !== '');
  return {
    value: {
      port,
      rate,
      timeZone: d.timeZone.trim(),
      reportingCurrency: d.reportingCurrency.trim().toUpperCase(),
      onlineSource: { enabled: d.enabled, baseUrl: d.baseUrl.trim(), watchlist, intervalSeconds: interval },
      positionAlertDistancePct: alertDistancePct,
      backupsKept,
      notifyPositionAlerts: d.notifyAlerts,
      watchlistIncludesPositions: d.includePositions,
      watchFolder: d.watchFolder.trim(),
      refreshSchedule: [...new Set(times)].sort(),
    },
  };
}

const TIME_ZONES = [NEW_YORK, 'America/Chicago', 'America/Denver', 'America/Los_Angeles', 'Europe/London', 'Europe/Berlin', 'Asia/Tokyo', 'Australia/Sydney', 'UTC'];

/** The port this page's API answers on now (the desktop app's loopback URL, or this page's own address). */
function servingPort(baseUrl: string): string {
  try {
    const url = new URL(baseUrl, window.location.href);
    return url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80';
  } catch {
    return window.location.port;
  }
}

export function SettingsPage({ theme, onToggleTheme }: { theme: Theme; onToggleTheme: () => void }) {
  const api = useApi();
  const keyScreen = useKeyScreen();
  const settings = useAsync((signal) => api.call('GET /settings', {}, { signal }), [api]);
  const [statusTick, setStatusTick] = useState(0);
  const appStatus = useAsync((signal) => api.call('GET /status', {}, { signal }), [api, statusTick]);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [saveState, setSaveState] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const [revealed, setRevealed] = useState(false);
  const [keyMessage, setKeyMessage] = useState<string | null>(null);
  const [keyError, setKeyError] = useState<ApiError | null>(null);
  const [apiKey, setApiKey] = useState(api.apiKey);

  useEffect(() => {
    if (settings.data) setDraft(toDraft(settings.data));
  }, [settings.data]);

  const save = async () => {
    if (!draft) return;
    const parsed = fromDraft(draft);
    if ('error' in parsed) {
      setSaveState({ kind: 'error', text: parsed.error });
      return;
    }
    setSaving(true);
    setSaveState(null);
    try {
      const saved = await api.call('PUT /settings', { body: parsed.value });
      setDraft(toDraft(saved));
      const portChanged = settings.data !== undefined && saved.port !== settings.data.port;
      setSaveState({ kind: 'ok', text: portChanged ? 'Saved. The new port applies after a restart.' : 'Saved.' });
      setStatusTick((n) => n + 1);
      statusChanged();
    } catch (error) {
      setSaveState({ kind: 'error', text: error instanceof ApiError ? `${error.message}${error.errors.length > 0 ? ` (${error.errors.map((e) => `${e.param}: ${e.message}`).join('; ')})` : ''}` : String(error) });
    } finally {
      setSaving(false);
    }
  };

  const rotate = async () => {
    if (!window.confirm('Rotate the API key? Scripts using the current key stop working; this window switches to the new key.')) return;
    setKeyError(null);
    try {
      const key = await api.rotateKey();
      setApiKey(key);
      setRevealed(true);
      setKeyMessage('New key created. Update your scripts; the api-key file in the data folder holds it too.');
    } catch (error) {
      setKeyError(asApiError(error, 'Rotate failed'));
    }
  };

  const masked = `${apiKey.slice(0, 4)}${'•'.repeat(Math.max(8, Math.min(28, apiKey.length - 8)))}${apiKey.slice(-4)}`;

  return (
    <div className="page page-narrow" data-testid="page-settings">
      <PageHead title="Settings" />

      <Panel title="API access">
        <p className="muted small">
          Scripts call <code>{api.baseUrl}</code> with <code>Authorization: Bearer &lt;key&gt;</code>. The OpenAPI document is at <code>{api.baseUrl}/openapi.json</code>.
        </p>
        <div className="key-row">
          <code className="key" data-testid="api-key">
            {revealed ? apiKey : masked}
          </code>
          <button type="button" className="btn btn-small" onClick={() => setRevealed((r) => !r)} aria-pressed={revealed}>
            {revealed ? 'Hide' : 'Show'}
          </button>
          <button
            type="button"
            className="btn btn-small"
            onClick={() => {
              void copyText(apiKey).then((ok) => setKeyMessage(ok ? 'API key copied to the clipboard.' : 'Copy failed: select the key and copy it by hand.'));
            }}
          >
            Copy API key
          </button>
          <button type="button" className="btn btn-small btn-danger" onClick={() => void rotate()}>
            Rotate key…
          </button>
          {keyScreen && (
            <button type="button" className="btn btn-small btn-ghost" onClick={() => keyScreen.changeKey()} title="Use another key in this window (one rotated elsewhere, or the api-key file's)">
              Change key…
            </button>
          )}
        </div>
        {keyMessage !== null && (
          <p className="small" role="status">
            {keyMessage}
          </p>
        )}
        {keyError && <ErrorBanner error={keyError} />}
      </Panel>

      <Panel title="Appearance">
        <div className="key-row">
          <span>Theme: {theme}</span>
          <button type="button" className="btn btn-small" onClick={onToggleTheme}>
            Switch to {theme === 'dark' ? 'light' : 'dark'}
          </button>
        </div>
      </Panel>

      {settings.error && <ErrorBanner error={settings.error} onRetry={settings.reload} />}
      {!draft && !settings.error && <Loading />}
      {draft && settings.data && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <Panel title="Server and data">
            <div className="form-grid">
              <label className="field">
                <span>Port on next start</span>
                <input type="number" min={0} max={65535} value={draft.port} onChange={(e) => setDraft({ ...draft, port: e.target.value })} data-testid="port-setting" />
                <small className="muted" data-testid="serving-port">
                  Serving now on port {servingPort(api.baseUrl)}
                  {servingPort(api.baseUrl) === String(settings.data.port) ? '' : ' (chosen at start: --port, or the setting was taken)'}. Loopback only; 0 = any free port.
                </small>
              </label>
              <div className="field">
                <span>Data folder</span>
                <code className="path" data-testid="data-dir">
                  {settings.data.dataDir}
                </code>
                <small className="muted">SQLite journal (WAL), the api-key file, and backups/.</small>
              </div>
              <label className="field">
                <span>Backups kept</span>
                <input type="number" min={1} max={100} value={draft.backupsKept} onChange={(e) => setDraft({ ...draft, backupsKept: e.target.value })} className="input-narrow" data-testid="backups-kept" />
                <small className="muted">The newest this many copies of the journal in backups/ (default 7; Backups below).</small>
              </label>
            </div>
          </Panel>
          <Panel title="Calculations">
            <div className="form-grid">
              <label className="field">
                <span>Risk-free rate r</span>
                <input type="number" step="0.0001" value={draft.rate} onChange={(e) => setDraft({ ...draft, rate: e.target.value })} />
                <small className="muted">Yearly, continuous; 0.04 = 4%. Used for forwards and greeks.</small>
              </label>
              <label className="field">
                <span>Journal time zone</span>
                <input type="text" list="tz-list" value={draft.timeZone} onChange={(e) => setDraft({ ...draft, timeZone: e.target.value })} spellCheck={false} />
                <datalist id="tz-list">
                  {TIME_ZONES.map((tz) => (
                    <option key={tz} value={tz} />
                  ))}
                </datalist>
                <small className="muted">Trading days are dated in this zone (default New York).</small>
              </label>
              <label className="field">
                <span>Reporting currency</span>
                <input type="text" value={draft.reportingCurrency} maxLength={3} onChange={(e) => setDraft({ ...draft, reportingCurrency: e.target.value.toUpperCase() })} className="input-narrow" />
                <small className="muted">Other currencies are listed separately, never converted.</small>
              </label>
            </div>
          </Panel>
          <Panel title="Alerts on your strikes">
            <p className="muted small">A new snapshot that moves the gamma flip or a wall across a strike you are short, or within this distance of it, stores a position event (Events → Your strikes; Positions).</p>
            <div className="form-grid">
              <label className="field">
                <span>Alert distance (% of the strike)</span>
                <input type="number" step="0.1" min={0.1} max={20} value={draft.alertDistancePct} onChange={(e) => setDraft({ ...draft, alertDistancePct: e.target.value })} className="input-narrow" data-testid="alert-distance" />
                <small className="muted">Default 1%. A level that came near alerts again only after moving beyond twice this distance.</small>
              </label>
              <label className="field field-check">
                <input type="checkbox" checked={draft.notifyAlerts} onChange={(e) => setDraft({ ...draft, notifyAlerts: e.target.checked })} />
                <span>System notifications (desktop app)</span>
              </label>
            </div>
          </Panel>
          <Panel title="Online chain source">
            <p className="muted small">
              Off by default: Strikebook works offline. When on, it polls the Cboe delayed-quotes endpoint for the watchlist and stores each snapshot. Refresh now on the Exposure page
              fetches the watchlist once, polling on or off; it needs the base URL.
            </p>
            <div className="form-grid">
              <label className="field field-check">
                <input type="checkbox" checked={draft.enabled} onChange={(e) => setDraft({ ...draft, enabled: e.target.checked })} />
                <span>Poll for new snapshots</span>
              </label>
              <label className="field">
                <span>Base URL</span>
                <input type="url" value={draft.baseUrl} onChange={(e) => setDraft({ ...draft, baseUrl: e.target.value })} spellCheck={false} />
              </label>
              <label className="field">
                <span>Watchlist</span>
                <input type="text" value={draft.watchlist} onChange={(e) => setDraft({ ...draft, watchlist: e.target.value })} placeholder="SPX, SPY, QQQ" spellCheck={false} />
              </label>
              <label className="field field-check">
                <input type="checkbox" checked={draft.includePositions} onChange={(e) => setDraft({ ...draft, includePositions: e.target.checked })} data-testid="watchlist-positions" />
                <span>Also fetch the underlying of every open position (at most 50 symbols in all)</span>
              </label>
              <label className="field">
                <span>Interval (seconds)</span>
                <input type="number" min={15} max={86400} value={draft.intervalSeconds} onChange={(e) => setDraft({ ...draft, intervalSeconds: e.target.value })} className="input-narrow" />
              </label>
            </div>
          </Panel>
          <Panel title="Chains that arrive by themselves" id="arrival">
            <p className="muted small">
              A watch folder takes each chain file saved into it (any format the Import page reads) once it has stopped growing for 2 seconds, then moves it to{' '}
              <code>imported/</code>, or to <code>failed/</code> beside a <code>.reason.txt</code> saying why. Scheduled refreshes fetch the online source at New York times
              on trading days, whether polling is on or not.
            </p>
            <div className="form-grid">
              <label className="field">
                <span>Watch folder</span>
                <input type="text" value={draft.watchFolder} onChange={(e) => setDraft({ ...draft, watchFolder: e.target.value })} placeholder="/home/me/Downloads/chains (empty: none)" spellCheck={false} data-testid="watch-folder" />
                <small className="muted">An absolute path on the machine that runs Strikebook; never the data folder. Links are not followed.</small>
              </label>
              <label className="field">
                <span>Refresh times (New York, trading days)</span>
                <input type="text" value={draft.refreshSchedule} onChange={(e) => setDraft({ ...draft, refreshSchedule: e.target.value })} placeholder="09:45, 15:45" spellCheck={false} data-testid="refresh-schedule" className="input-times" />
                <small className="muted">HH:MM, 24 h. Each time fetches the watchlist and the open positions&apos; underlyings once, like Refresh now.</small>
              </label>
            </div>
            <ScheduleStatus status={appStatus.data} />
            <WatchFolderStatus saved={settings.data.watchFolder} />
          </Panel>
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={saving}>
              {saving ? 'Saving…' : 'Save settings'}
            </button>
            <button type="button" className="btn btn-ghost" onClick={() => settings.data && setDraft(toDraft(settings.data))}>
              Revert
            </button>
            {saveState && (
              <span className={`small ${saveState.kind === 'error' ? 'neg' : 'pos'}`} role={saveState.kind === 'error' ? 'alert' : 'status'}>
                {saveState.text}
              </span>
            )}
          </div>
        </form>
      )}
      {settings.data && <BackupPanel />}
      {settings.data && <ManageRulesPanel rules={settings.data.manageRules} />}
      {settings.data && <BackfillPanel />}
      {settings.data && <ExportPanel dataDir={settings.data.dataDir} />}
    </div>
  );
}
