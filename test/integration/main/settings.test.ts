/**
 * Stored settings are read through their schema (src-main/settings.ts, the API's SettingsSchema): a settings row
 * corrupted by hand (or written by an older version) that does not match its schema is reported and read as its
 * default; the rows that match are read as stored. The rows are written straight into SQLite, as a hand edit would.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { openDatabase } from '../../../src-main/db/open';
import { DEFAULT_SETTINGS, loadSettings, saveSettings, type SettingProblem } from '../../../src-main/settings';
import { writeNow } from '../../../src-main/db/writes';
import { DEFAULT_MANAGE_RULES } from '../../../src-shared/journal/manage';
import { tempDir } from '../../paths';

let db: Database | null = null;

function withRows(rows: Record<string, string>): Database {
  const opened = openDatabase(join(tempDir(), 'strikebook.db')).db;
  const insert = opened.prepare('INSERT INTO settings (key, value) VALUES (?, ?)');
  for (const [key, value] of Object.entries(rows)) insert.run(key, value);
  db = opened;
  return opened;
}

function read(rows: Record<string, string>) {
  const problems: SettingProblem[] = [];
  const settings = loadSettings(withRows(rows), {}, (problem) => problems.push(problem));
  return { settings, problems };
}

afterEach(() => {
  db?.close();
  db = null;
});

describe('stored settings read through their schema', () => {
  it('a row that does not match its schema is reported by key and read as its default; the others as stored', () => {
    const { settings, problems } = read({
      // Wrong type, out of range, not JSON, a wrong shape: each falls back alone.
      rate: '"four percent"',
      cacheSeconds: '-5',
      markMaxAgeDays: '{oops',
      rateLimit: '{"perSecond": 10}',
      // Valid rows beside them are kept.
      snapshotRetention: '7',
      reportingCurrency: '"EUR"',
    });
    expect(settings.rate).toBe(DEFAULT_SETTINGS.rate);
    expect(settings.cacheSeconds).toBe(DEFAULT_SETTINGS.cacheSeconds);
    expect(settings.markMaxAgeDays).toBe(DEFAULT_SETTINGS.markMaxAgeDays);
    expect(settings.rateLimit).toEqual(DEFAULT_SETTINGS.rateLimit);
    expect(settings.snapshotRetention).toBe(7);
    expect(settings.reportingCurrency).toBe('EUR');
    expect(problems.map((p) => p.key).sort()).toEqual(['cacheSeconds', 'markMaxAgeDays', 'rate', 'rateLimit']);
    expect(problems.find((p) => p.key === 'markMaxAgeDays')?.reason).toBe('is not JSON');
    expect(problems.find((p) => p.key === 'rate')?.stored).toBe('"four percent"');
  });

  it('an origin or a schedule time that breaks its rule is dropped alone; a rule added later takes its default', () => {
    const { settings, problems } = read({
      corsOrigins: '["http://*.x.com", "https://app.example.com"]',
      refreshSchedule: '["25:00", "09:45"]',
      manageRules: '{"profitTargetPct": 40}',
    });
    expect(settings.corsOrigins).toEqual(['https://app.example.com']);
    expect(settings.refreshSchedule).toEqual(['09:45']);
    expect(settings.manageRules).toEqual({ ...DEFAULT_MANAGE_RULES, profitTargetPct: 40 });
    expect(problems).toEqual([]);
  });

  it('a manageRules object with a wrong value falls back whole, reported; an unknown key is left alone', () => {
    const { settings, problems } = read({ manageRules: '{"profitTargetPct": "half"}', someOldSetting: '1' });
    expect(settings.manageRules).toEqual(DEFAULT_MANAGE_RULES);
    expect(problems.map((p) => p.key)).toEqual(['manageRules']);
    expect(settings).not.toHaveProperty('someOldSetting');
  });

  it('overrides are taken as given', () => {
    const problems: SettingProblem[] = [];
    const settings = loadSettings(withRows({ rate: '"x"' }), { rate: 0.05 }, (problem) => problems.push(problem));
    expect(settings.rate).toBe(0.05);
    expect(problems.map((p) => p.key)).toEqual(['rate']);
  });

  it('saveSettings refuses a value its schema refuses (it would be read as its default), naming the key, and stores nothing', () => {
    const opened = withRows({});
    // The schema's maximum is 100,000 a second: 1e9 would be stored and then read as the default 50 a second.
    expect(() => writeNow(opened, (turn) => saveSettings(turn, opened, { rateLimit: { perSecond: 1e9, burst: 1e9 } }))).toThrow(/rateLimit/);
    expect(opened.prepare('SELECT COUNT(*) FROM settings').pluck().get(), 'nothing stored after a refused value').toBe(0);
    writeNow(opened, (turn) => saveSettings(turn, opened, { rateLimit: { perSecond: 100_000, burst: 100_000 } }));
    expect(loadSettings(opened, {}, () => undefined).rateLimit, 'a value inside the schema is read back as saved').toEqual({ perSecond: 100_000, burst: 100_000 });
  });
});
