import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection';
import { Pruner, RETENTION_DEFAULTS } from '../../../src/core/db/retention';
import { SqliteStore } from '../../../src/core/db/store';
import { CALL_ANSWERS_KEPT } from '../../../src/shared/callWatch';
import { AlertRulesSchema } from '../../../src/shared/watch';
import { migrationFiles } from './migrationFile';

const files = migrationFiles();
const DAY = 86_400_000;

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
    const store = new SqliteStore(db).sync;
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

describe('call answers in the retention pass', () => {
  it('drops old answers but never the last one nor the last good one', () => {
    const db = openDatabase(files.at(150));
    const store = new SqliteStore(db).sync;
    const id = store.calls.create(
      {
        name: 'Garage',
        target: { endpoint: 'GET /api/v1/vp/channel/videos', path: {}, query: {} },
        config: { list_path: null, item_key: null, alert_new: true, alert_removed: false, fields: [] },
        schedule: '0 * * * *',
        rules: AlertRulesSchema.parse({}),
        paused: false,
        paused_reason: null,
      },
      0,
    );
    const add = (at: number, good: boolean) =>
      store.calls.addAnswer(
        id,
        { at, status: 200, body: null, extract: `{"at":${at}}`, good },
        CALL_ANSWERS_KEPT,
      );
    add(1 * DAY, true);
    add(2 * DAY, true); // the last good answer: the diff's base
    add(3 * DAY, false);
    add(4 * DAY, false); // the last answer: a run of bad answers alerts once
    new Pruner(db).step(100 * DAY, RETENTION_DEFAULTS);
    const left = db.prepare('SELECT at FROM call_answers ORDER BY id').all() as { at: number }[];
    expect(left.map((r) => r.at / DAY)).toEqual([2, 4]);
    expect(store.calls.lastGoodAnswer(id)?.at).toBe(2 * DAY);
    expect(store.calls.lastAnswerBad(id)).toBe(true);
    db.close();
  });
});
