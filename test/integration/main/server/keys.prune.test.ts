/**
 * Revoked keys are pruned (issue 8, docs/decisions.md): each rotation revokes a key, so a process looping on
 * `POST /v1/keys/rotate` must not grow the api_keys table without bound. Kept: revoked keys of the last
 * REVOKED_KEEP_DAYS days, at most the REVOKED_KEEP_MAX newest.
 */
import { describe, expect, it } from 'vitest';
import { REVOKED_KEEP_DAYS, REVOKED_KEEP_MAX } from '../../../../src-main/server/keys';
import { manualClock } from '../../../clock';
import { useTestApp } from '../../../helper';

/** Revocations are stamped by the server's clock; the test moves it instead of rewriting stamps. */
const clock = manualClock('2030-01-01T00:00:00Z');
const app = useTestApp({ clock });

const rows = () => app.ctx.db.prepare('SELECT id, revoked_at AS revokedAt FROM api_keys ORDER BY created_at, id').all() as Array<{ id: string; revokedAt: string | null }>;

describe('revoked keys are pruned', () => {
  it(`a loop of ${REVOKED_KEEP_MAX * 3} rotations leaves the active keys and the ${REVOKED_KEEP_MAX} newest revoked ones`, async () => {
    const revokedInOrder: string[] = [];
    for (let i = 0; i < REVOKED_KEEP_MAX * 3; i += 1) {
      clock.advance(1000);
      const before = app.ctx.keys.verify(app.ctx.apiKey);
      const response = await app.request({ method: 'POST', url: '/v1/keys/rotate', headers: { authorization: `Bearer ${app.ctx.apiKey}` } });
      expect(response.statusCode).toBe(200);
      if (before !== null) revokedInOrder.push(before);
    }
    const all = rows();
    expect(all.filter((r) => r.revokedAt === null)).toHaveLength(1);
    expect(all.filter((r) => r.revokedAt !== null).map((r) => r.id).sort()).toEqual(revokedInOrder.slice(-REVOKED_KEEP_MAX).sort());
    expect(all.length).toBe(1 + REVOKED_KEEP_MAX);
  });

  it(`revoked more than ${REVOKED_KEEP_DAYS} days ago: gone at the next revocation`, async () => {
    const revokedBefore = rows().filter((r) => r.revokedAt !== null);
    expect(revokedBefore).toHaveLength(REVOKED_KEEP_MAX);
    const extra = app.ctx.keys.create('extra');
    clock.advance(REVOKED_KEEP_DAYS * 86_400_000 - 60 * 60_000);
    const within = app.ctx.keys.create('within');
    expect(app.ctx.keys.revoke(within.id), 'a revocation a little under 30 days after the others').not.toBeNull();
    expect(rows().filter((r) => r.revokedAt !== null), 'none old enough yet: the newest 20 stay').toHaveLength(REVOKED_KEEP_MAX);
    clock.advance(2 * 60 * 60_000);
    expect(app.ctx.keys.revoke(extra.id)).not.toBeNull();
    const revoked = rows().filter((r) => r.revokedAt !== null);
    expect(revoked.map((r) => r.id).sort(), `those revoked more than ${REVOKED_KEEP_DAYS} days ago are gone; the two since stay`).toEqual([extra.id, within.id].sort());
  });
});
