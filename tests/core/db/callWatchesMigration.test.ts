import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection';
import { Store } from '../../../src/core/db/store';
import { CALL_ANSWERS_KEPT } from '../../../src/shared/callWatch';
import { AlertRulesSchema } from '../../../src/shared/watch';
import { migrationFiles } from './migrationFile';

const files = migrationFiles();

describe('migration 150: call watches and the link an alert carries', () => {
  it("keeps an older file's alerts without a link, and stores call watches with bounded answers", () => {
    const path = files.at(140, (db) => {
      db.prepare(
        `INSERT INTO alerts (dedup_key, kind, lot_key, change_id, source, title, body, reason, created_at, delivery,
         status, deliver_after) VALUES ('change:1', 'bid_changed', 'copart:1', NULL, 'watch:1', 'Bid', 'Up', NULL,
         1000, 'now', 'delivered', NULL)`,
      ).run();
    });
    const db = openDatabase(path);
    const store = new Store(db);
    // The alert an older Lotwatch stored is still there, with no link.
    expect(store.alerts.list(false, Number.MAX_SAFE_INTEGER, 10)[0]).toMatchObject({
      dedup_key: 'change:1',
      url: null,
    });
    const id = store.calls.create(
      {
        name: 'Auction Garage',
        target: { endpoint: 'GET /api/v1/vp/channel/videos', path: {}, query: { channel: 'garage' } },
        config: {
          list_path: null,
          item_key: null,
          alert_new: true,
          alert_removed: false,
          fields: [],
        },
        schedule: '*/30 * * * *',
        rules: AlertRulesSchema.parse({}),
        paused: false,
        paused_reason: null,
      },
      2000,
    );
    for (let i = 0; i < CALL_ANSWERS_KEPT + 3; i++)
      store.calls.addAnswer(
        id,
        { at: 3000 + i, status: 200, body: `{"n":${i}}`, extract: '{"missing":[]}', good: true },
        CALL_ANSWERS_KEPT,
      );
    const raw = new BetterSqlite3(path, { readonly: true });
    const bodies = raw.prepare('SELECT body FROM call_answers WHERE watch_id = ? ORDER BY id').all(id) as {
      body: string | null;
    }[];
    // Every answer keeps its extract; only the last CALL_ANSWERS_KEPT keep the JSON as received.
    expect(bodies).toHaveLength(CALL_ANSWERS_KEPT + 3);
    expect(bodies.filter((b) => b.body !== null).map((b) => b.body)).toEqual(
      Array.from({ length: CALL_ANSWERS_KEPT }, (_, i) => `{"n":${i + 3}}`),
    );
    expect(store.calls.lastGoodAnswer(id)?.body).toBe(`{"n":${CALL_ANSWERS_KEPT + 2}}`);
    // A bad pause reason is refused by the table itself.
    expect(() => db.prepare("UPDATE call_watches SET paused_reason = 'tired' WHERE id = ?").run(id)).toThrow(
      /CHECK/,
    );
    // Deleting the watch deletes its answers.
    store.calls.remove(id);
    expect(raw.prepare('SELECT count(*) AS n FROM call_answers').get()).toEqual({ n: 0 });
    raw.close();
    db.close();
  });
});
