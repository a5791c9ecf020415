/**
 * Revoked keys are pruned (issue 8, docs/decisions.md): each rotation revokes a key, so a process looping on
 * `POST /v1/keys/rotate` must not grow the api_keys table without bound. Kept: revoked keys of the last
 * REVOKED_KEEP_DAYS days, at most the REVOKED_KEEP_MAX newest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVOKED_KEEP_DAYS, REVOKED_KEEP_MAX } from '../../../src-main/server/keys';
import { buildTestApp, type TestApp } from '../../helper';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

const rows = () => t.ctx.db.prepare('SELECT id, revoked_at AS revokedAt FROM api_keys ORDER BY created_at, id').all() as Array<{ id: string; revokedAt: string | null }>;

describe('revoked keys are pruned', () => {
  it(`a loop of ${REVOKED_KEEP_MAX * 3} rotations leaves the active keys and the ${REVOKED_KEEP_MAX} newest revoked ones`, async () => {
    const revokedInOrder: string[] = [];
    for (let i = 0; i < REVOKED_KEEP_MAX * 3; i += 1) {
      const before = t.ctx.keys.verify(t.ctx.apiKey);
      const response = await t.request({ method: 'POST', url: '/v1/keys/rotate', headers: { authorization: `Bearer ${t.ctx.apiKey}` } });
      expect(response.statusCode).toBe(200);
      if (before !== null) revokedInOrder.push(before);
    }
    const all = rows();
    expect(all.filter((r) => r.revokedAt === null)).toHaveLength(1);
    expect(all.filter((r) => r.revokedAt !== null).map((r) => r.id).sort()).toEqual(revokedInOrder.slice(-REVOKED_KEEP_MAX).sort());
    expect(all.length).toBe(1 + REVOKED_KEEP_MAX);
  });

  it(`revoked more than ${REVOKED_KEEP_DAYS} days ago: gone at the next revocation`, async () => {
    const [oldest] = rows().filter((r) => r.revokedAt !== null);
    expect(oldest).toBeDefined();
    const longAgo = new Date(Date.now() - (REVOKED_KEEP_DAYS + 1) * 86_400_000).toISOString();
    t.ctx.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').run(longAgo, oldest?.id ?? '');
    const extra = t.ctx.keys.create('extra');
    expect(t.ctx.keys.revoke(extra.id)).not.toBeNull();
    const ids = rows().map((r) => r.id);
    expect(ids).not.toContain(oldest?.id);
    expect(ids, 'the key just revoked stays listed').toContain(extra.id);
  });
});
