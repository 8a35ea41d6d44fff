import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../../../src/core/db/requestsRepo';
import type { QuotaSnapshot } from '../../../../src/shared/vehicle';
import { addMember, engines, type EngineDb } from '../../../helpers/engines';
import { restRepos, type RestRepos } from './restRepos';

// RequestsRepo's contract (src/core/db/requestsRepo.ts defines it) on every engine: the SQLite store's repository,
// KyselyRequestsRepo over SQLite and over PostgreSQL give the same answers to the same calls.

const ENTRY: Omit<RequestLogEntry, 'at'> = {
  endpoint: '/vehicles',
  status: 200,
  durationMs: 30,
  bytes: 500,
  attempt: 1,
  errorCode: null,
};
const KEY = 'key:0123456789abcdef';

const SNAPSHOT: QuotaSnapshot = {
  at: 5_000,
  limit: 1000,
  baseLimit: 1000,
  extraLimit: 0,
  used: 10,
  remaining: 990,
  periodStart: 1_000,
  periodEnd: 2_592_001_000,
  perPageLimit: 50,
  rateLimit: 5,
  rateRemaining: 4,
};

for (const e of engines()) {
  describe.skipIf(e.skip)(`RequestsRepo on ${e.name}`, () => {
    let d: EngineDb;
    let r: RestRepos;
    beforeEach(async () => {
      d = await e.open();
      r = restRepos(d);
    });
    afterEach(async () => {
      await r.done();
      await d.close();
    });

    it('logs requests and counts them, in all and per quota, from a time on', async () => {
      const q = r.requests;
      expect(await q.count()).toBe(0);
      expect(await q.requestsSince(0)).toBe(0);
      await q.logRequest({ ...ENTRY, at: 1_000 });
      await q.logRequest({ ...ENTRY, at: 2_000, quotaId: null });
      await q.logRequest({ ...ENTRY, at: 4_000, quotaId: 'demo' });
      await q.logRequest({ ...ENTRY, at: 5_000, quotaId: KEY });
      await q.logRequest({ ...ENTRY, at: 6_000, quotaId: KEY });
      expect(await q.count()).toBe(5);
      expect(await q.requestsSince(0)).toBe(5);
      expect(await q.requestsSince(4_000)).toBe(3);
      expect(await q.requestsSince(6_001)).toBe(0);
      expect(await q.requestsSinceFor(KEY, 0)).toBe(2);
      expect(await q.requestsSinceFor(KEY, 5_500)).toBe(1);
      expect(await q.requestsSinceFor('demo', 0)).toBe(1);
      expect(await q.requestsSinceFor('key:other', 0)).toBe(0);
      expect(await q.requestsSinceFor(null, 0)).toBe(0);
      expect(await q.sentSince(2_000)).toEqual([2_000, 4_000, 5_000, 6_000]);
      expect(await q.sentSinceFor(KEY, 5_500)).toEqual([6_000]);
      expect(await q.sentSinceFor(KEY, 0)).toEqual([5_000, 6_000]);
      expect(await q.sentSinceFor(null, 0)).toEqual([]);
    });

    it('lists the newest requests first, with every column as logged', async () => {
      await r.requests.logRequest({ ...ENTRY, at: 1_000, quotaId: 'demo' });
      await r.requests.logRequest({
        at: 2_000,
        endpoint: '/vehicles/copart/1',
        status: null,
        durationMs: 10_000,
        bytes: 0,
        attempt: 3,
        errorCode: 'timeout',
        quotaId: KEY,
      });
      await r.requests.logRequest({ ...ENTRY, at: 3_000, status: 429, errorCode: 'rate_limited' });
      expect(await r.requests.recent(2)).toEqual([
        {
          at: 3_000,
          endpoint: '/vehicles',
          status: 429,
          duration_ms: 30,
          bytes: 500,
          attempt: 1,
          error_code: 'rate_limited',
          user_name: null,
        },
        {
          at: 2_000,
          endpoint: '/vehicles/copart/1',
          status: null,
          duration_ms: 10_000,
          bytes: 0,
          attempt: 3,
          error_code: 'timeout',
          user_name: null,
        },
      ]);
      expect(await r.requests.recent(10)).toHaveLength(3);
      expect(await r.requests.recent(0)).toEqual([]);
    });

    it('names who spent each request, and counts a time range by who spent it', async () => {
      await addMember(r.seed, 7, 'Dana');
      await r.requests.logRequest({ ...ENTRY, at: 1_000, userId: 7 });
      await r.requests.logRequest({ ...ENTRY, at: 2_000, userId: 7 });
      await r.requests.logRequest({ ...ENTRY, at: 3_000 }); // outside any member's call: the local owner's
      await r.requests.logRequest({ ...ENTRY, at: 4_000, userId: 9 }); // a member the accounts do not hold
      await r.requests.logRequest({ ...ENTRY, at: 9_000, userId: 7 }); // after the range
      expect((await r.requests.recent(5)).map((x) => x.user_name)).toEqual([
        'Dana',
        null,
        null,
        'Dana',
        'Dana',
      ]);
      const by = (await r.requests.spentByUser(1_000, 9_000)).sort(
        (a, b) => (a.user_id ?? 0) - (b.user_id ?? 0),
      );
      expect(by).toEqual([
        { user_id: null, name: null, requests: 1 },
        { user_id: 7, name: 'Dana', requests: 2 },
        { user_id: 9, name: null, requests: 1 },
      ]);
      expect(await r.requests.spentByUser(10_000, 20_000)).toEqual([]);
    });

    it('lists every request since a time with whose quota it spent, oldest first', async () => {
      await r.requests.logRequest({ ...ENTRY, at: 3_000, quotaId: KEY });
      await r.requests.logRequest({ ...ENTRY, at: 1_000, quotaId: 'demo' });
      await r.requests.logRequest({ ...ENTRY, at: 2_000 });
      expect(await r.requests.sentWithQuotaSince(1_500)).toEqual([
        { at: 2_000, quotaId: null },
        { at: 3_000, quotaId: KEY },
      ]);
      expect(await r.requests.sentWithQuotaSince(0)).toHaveLength(3);
    });

    it('keeps one quota snapshot: none at first, the last one saved, none after delete', async () => {
      expect(await r.requests.loadQuota()).toBeNull();
      await r.requests.saveQuota(SNAPSHOT, 5_000);
      expect(await r.requests.loadQuota()).toEqual(SNAPSHOT);
      const next = { ...SNAPSHOT, at: 6_000, used: 11, remaining: null, periodEnd: null };
      await r.requests.saveQuota(next, 6_000);
      expect(await r.requests.loadQuota()).toEqual(next);
      await r.requests.deleteQuota();
      expect(await r.requests.loadQuota()).toBeNull();
      await r.requests.deleteQuota();
      expect(await r.requests.loadQuota()).toBeNull();
    });

    it('stores secrets as bytes: every byte value back as a Buffer, replaced, forgotten', async () => {
      const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      expect(await r.requests.getSecret('api-key')).toBeNull();
      await r.requests.setSecret('api-key', bytes, 1_000);
      const got = await r.requests.getSecret('api-key');
      expect(Buffer.isBuffer(got)).toBe(true);
      expect(got!.equals(bytes)).toBe(true);
      const other = Buffer.from([0, 0, 1, 0xff]);
      await r.requests.setSecret('api-key', other, 2_000);
      await r.requests.setSecret('smtp', Buffer.from('x'), 2_000);
      expect((await r.requests.getSecret('api-key'))!.equals(other)).toBe(true);
      await r.requests.deleteSecret('api-key');
      expect(await r.requests.getSecret('api-key')).toBeNull();
      expect((await r.requests.getSecret('smtp'))!.toString()).toBe('x');
      await r.requests.deleteSecret('never-set');
    });

    it('stores an empty secret as zero bytes, not as nothing', async () => {
      await r.requests.setSecret('empty', Buffer.alloc(0), 1_000);
      const got = await r.requests.getSecret('empty');
      expect(Buffer.isBuffer(got)).toBe(true);
      expect(got!.length).toBe(0);
    });

    it('joins the store transaction: its writes are seen inside it and all undone when it throws', async () => {
      await r.requests.logRequest({ ...ENTRY, at: 1_000, quotaId: KEY });
      await expect(
        r.transaction(async () => {
          await r.requests.logRequest({ ...ENTRY, at: 2_000, quotaId: KEY });
          await r.requests.saveQuota(SNAPSHOT, 2_000);
          await r.requests.setSecret('api-key', Buffer.from([1, 2, 3]), 2_000);
          expect(await r.requests.requestsSinceFor(KEY, 0)).toBe(2);
          expect(await r.requests.loadQuota()).toEqual(SNAPSHOT);
          throw new Error('stop');
        }),
      ).rejects.toThrow('stop');
      expect(await r.requests.count()).toBe(1);
      expect(await r.requests.loadQuota()).toBeNull();
      expect(await r.requests.getSecret('api-key')).toBeNull();
      await r.transaction(async () => {
        await r.requests.logRequest({ ...ENTRY, at: 3_000, quotaId: KEY });
      });
      expect(await r.requests.sentSinceFor(KEY, 0)).toEqual([1_000, 3_000]);
    });
  });
}
