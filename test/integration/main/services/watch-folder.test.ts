/**
 * The watch folder (issue 30, item 3): a chain file is stored once it has stopped growing for 2 s — a file written in
 * three pieces is never read half-way — and moved to imported/; a file that is no chain goes to failed/ beside its
 * reason, which GET /v1/chains/watch and the status line say too; a link is skipped, never followed. Time is the
 * test's clock: each look at the folder is a call of scan(), no timer runs.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppStatusT, SnapshotsResponseT, WatchStatusT } from '../../../../src-shared/api/schemas';
import { STABLE_MS } from '../../../../src-main/services/watch-folder';
import { manualClock } from '../../../clock';
import { buildTestApp, type TestApp } from '../../../helper';
import { tempDir } from '../../../paths';
import { readChain } from '../../../quotedata';
import { SMALL_SPX, SMALL_SPX_QUOTE, withQuoteTime } from '../../../chain-files';

const clock = manualClock('2025-01-07T02:30:00Z');
const folder = tempDir('strikebook-watch-');
let t: TestApp;

async function watchStatus(): Promise<WatchStatusT> {
  return (await t.get<WatchStatusT>('/v1/chains/watch')).body;
}

async function snapshotCount(): Promise<number> {
  const listed = await t.get<SnapshotsResponseT>('/v1/snapshots?symbol=SPX');
  return listed.status === 200 ? listed.body.snapshots.length : 0;
}

/** A look at the folder after `ms` of the test's time. */
async function after(ms: number): Promise<void> {
  clock.advance(ms);
  await t.ctx.watchFolder.scan();
}

beforeAll(async () => {
  t = await buildTestApp({ clock });
});
afterAll(async () => {
  await t.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('the watchFolder setting', () => {
  it('is off by default, and refused when it is no folder of the user’s', async () => {
    expect(await watchStatus()).toEqual({ watching: false, folder: null, problem: null, waiting: [], links: [], files: [] });
    const put = (watchFolder: string) => t.request({ method: 'PUT', url: '/v1/settings', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ watchFolder }) });
    for (const [path, words] of [
      ['relative/chains', 'not an absolute path'],
      [join(folder, 'missing'), 'does not exist'],
      ['/', 'root of the file system'],
      [t.dataDir, 'data folder'],
    ] as const) {
      const refused = await put(path);
      expect(refused.statusCode, path).toBe(400);
      expect(refused.json().errors[0].param).toBe('watchFolder');
      expect(refused.json().detail).toContain(words);
    }
    const link = join(tempDir(), 'watch-link');
    symlinkSync(folder, link);
    expect((await put(link)).json().detail).toContain('symbolic link');
    const accepted = await put(folder);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().watchFolder).toBe(folder);
  });
});

describe('a watched folder', () => {
  const chain = withQuoteTime(readChain(SMALL_SPX), SMALL_SPX_QUOTE);

  it('reads a file only once it has stopped growing for 2 s, then moves it to imported/', async () => {
    await t.ctx.watchFolder.scan();
    expect((await watchStatus()).watching).toBe(true);
    const path = join(folder, 'spx.csv');
    // Written in three pieces, the first two cut mid-row: read before the end, it would fail.
    const cuts = [Math.floor(chain.length / 3), Math.floor((2 * chain.length) / 3)];
    writeFileSync(path, chain.slice(0, cuts[0]));
    await after(0);
    expect((await watchStatus()).waiting).toEqual(['spx.csv']);
    await after(STABLE_MS - 500);
    appendFileSync(path, chain.slice(cuts[0], cuts[1]));
    await after(500);
    // 2 s since it was first seen, but it grew: it waits again from now.
    await after(STABLE_MS - 1);
    expect(existsSync(path), 'not read while it grows').toBe(true);
    expect(await snapshotCount()).toBe(0);
    appendFileSync(path, chain.slice(cuts[1]));
    await after(1);
    await after(STABLE_MS - 1);
    expect(existsSync(path), 'still 2 s of quiet to wait').toBe(true);
    await after(1);
    expect(existsSync(path)).toBe(false);
    expect(readFileSync(join(folder, 'imported', 'spx.csv'), 'utf8')).toBe(chain);
    expect(await snapshotCount()).toBe(1);
    const [handled] = (await watchStatus()).files;
    expect(handled).toMatchObject({ name: 'spx.csv', outcome: 'imported', movedTo: 'imported/spx.csv', symbol: 'SPX', quoteTime: SMALL_SPX_QUOTE, contracts: 40 });
  });

  it('a file of the same bytes again: already stored, moved beside the first under a free name', async () => {
    writeFileSync(join(folder, 'spx.csv'), chain);
    await after(0);
    await after(STABLE_MS);
    expect(readdirSync(join(folder, 'imported')).sort()).toEqual(['spx (2).csv', 'spx.csv']);
    expect((await watchStatus()).files[0]).toMatchObject({ name: 'spx.csv', outcome: 'already-stored', movedTo: 'imported/spx (2).csv' });
    expect(await snapshotCount()).toBe(1);
  });

  it('a file that is no chain goes to failed/ beside its reason, said by the status line too', async () => {
    writeFileSync(join(folder, 'notes.csv'), 'Expiration Date,Calls\nnot,a chain\n');
    writeFileSync(join(folder, 'readme.txt'), 'not a chain file name: left alone');
    mkdirSync(join(folder, 'elsewhere'), { recursive: true });
    symlinkSync(join(folder, 'imported', 'spx.csv'), join(folder, 'linked.csv'));
    await after(0);
    await after(STABLE_MS);
    expect(existsSync(join(folder, 'failed', 'notes.csv'))).toBe(true);
    const reason = readFileSync(join(folder, 'failed', 'notes.csv.reason.txt'), 'utf8');
    expect(reason).toContain('notes.csv was not stored');
    expect(reason).toMatch(/line \d+/);
    expect(existsSync(join(folder, 'readme.txt')), 'other files stay').toBe(true);
    expect(existsSync(join(folder, 'linked.csv')), 'a link is not moved').toBe(true);
    const status = await watchStatus();
    expect(status.links).toEqual(['linked.csv']);
    expect(status.files[0]).toMatchObject({ name: 'notes.csv', outcome: 'failed', movedTo: 'failed/notes.csv' });
    expect(status.files[0]?.reason).toContain(reason.split('\n')[1] ?? '?');
    const line = (await t.get<AppStatusT>('/v1/status')).body;
    expect(line.watch.lastFailure?.name).toBe('notes.csv');
    expect(line.messages.some((m) => m.level === 'error' && m.text.startsWith('Watch folder: notes.csv failed:'))).toBe(true);
    expect(await snapshotCount()).toBe(1);
  });

  it('a folder that disappears is said, not fatal', async () => {
    const gone = tempDir('strikebook-watch-gone-');
    const put = await t.request({ method: 'PUT', url: '/v1/settings', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ watchFolder: gone }) });
    expect(put.statusCode).toBe(200);
    rmSync(gone, { recursive: true });
    await after(0);
    const status = await watchStatus();
    expect(status).toMatchObject({ watching: false, folder: gone });
    expect(status.problem).toContain('does not exist');
    const line = (await t.get<AppStatusT>('/v1/status')).body;
    expect(line.messages.some((m) => m.text === `Watch folder: ${gone} does not exist`)).toBe(true);
  });
});
