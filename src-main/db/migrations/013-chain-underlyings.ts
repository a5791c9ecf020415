import { chainUnderlying } from '../../../src-shared/exposure/roots';
import type { Migration } from './migration';

/**
 * Underlying roots (docs/journal.md §Underlying roots, DESIGN §5): an option's underlying is its chain's symbol. Rows
 * imported before stored the root (SPXW, NDXP, RUTW, VIXW, an adjusted AMD1): they are rewritten here, once (the retired
 * manual rows of `superseded_transactions` too), so that
 * every read (positions and their marks, campaigns, trades, the `symbol=` filters in SQL) sees one underlying. The
 * symbol keeps its root (it names the contract: SPXW is marked from the SPXW row). What was keyed by the old name:
 * - a campaign's note and tags (its id is `account:currency:underlying:day`) move to the new id; two notes that meet
 *   there (an SPX and an SPXW campaign of one day) are joined, their tags united;
 * - the position alerts' states (a level's side of each short strike) were of the nearest three expirations' levels and
 *   are dropped: the next snapshot seeds them from the previous one's levels of each option's own expiration.
 */
export const m013ChainUnderlyings: Migration = {
  version: 13,
  name: 'chain-underlyings',
  up(db) {
    const renamed = new Map<string, string>();
    let changed = 0;
    // The journal's rows, and the manual rows an import retired (migration 012): an undo brings those back.
    for (const table of ['transactions', 'superseded_transactions']) {
      const rows = db.prepare(`SELECT DISTINCT symbol, underlying FROM ${table} WHERE is_option = 1`).all() as Array<{ symbol: string; underlying: string }>;
      const update = db.prepare(`UPDATE ${table} SET underlying = ? WHERE is_option = 1 AND symbol = ? AND underlying = ?`);
      for (const row of rows) {
        const underlying = chainUnderlying({ isOption: true, symbol: row.symbol, underlying: row.underlying });
        if (underlying === row.underlying) continue;
        changed += update.run(underlying, row.symbol, row.underlying).changes;
        renamed.set(row.underlying, underlying);
      }
    }
    if (changed > 0) db.prepare('UPDATE journal_generation SET value = value + 1 WHERE id = 1').run();
    if (renamed.size > 0) moveCampaignNotes(db, renamed);
    db.prepare('DELETE FROM position_alert_state').run();
  },
};

type Db = Parameters<Migration['up']>[0];

/** Campaign notes under an old underlying's id, moved to the new one's (joined with a note already there). */
function moveCampaignNotes(db: Db, renamed: ReadonlyMap<string, string>): void {
  const notes = db.prepare("SELECT id, note, updated_at FROM annotations WHERE kind = 'campaign'").all() as Array<{ id: string; note: string; updated_at: string }>;
  const tagsOf = db.prepare("SELECT tag FROM annotation_tags WHERE kind = 'campaign' AND id = ?").pluck();
  const existing = db.prepare("SELECT note, updated_at FROM annotations WHERE kind = 'campaign' AND id = ?");
  const insert = db.prepare("INSERT INTO annotations (kind, id, note, updated_at) VALUES ('campaign', ?, ?, ?)");
  const join = db.prepare("UPDATE annotations SET note = ?, updated_at = ? WHERE kind = 'campaign' AND id = ?");
  const addTag = db.prepare("INSERT OR IGNORE INTO annotation_tags (kind, id, tag) VALUES ('campaign', ?, ?)");
  const remove = db.prepare("DELETE FROM annotations WHERE kind = 'campaign' AND id = ?");
  for (const note of notes) {
    const parts = note.id.split(':');
    const old = parts[2];
    const underlying = old === undefined ? undefined : renamed.get(old);
    if (parts.length !== 4 || underlying === undefined) continue;
    const id = [parts[0], parts[1], underlying, parts[3]].join(':');
    const tags = tagsOf.all(note.id) as string[];
    const there = existing.get(id) as { note: string; updated_at: string } | undefined;
    if (there === undefined) insert.run(id, note.note, note.updated_at);
    else if (note.note !== '' && note.note !== there.note) join.run(there.note === '' ? note.note : `${there.note}\n\n${note.note}`, note.updated_at > there.updated_at ? note.updated_at : there.updated_at, id);
    for (const tag of tags) addTag.run(id, tag);
    remove.run(note.id);
  }
}
