import type { Migration } from '../migrate';

/**
 * The watch store: saved searches, watches, lots (current state + raw JSON), every observation, the change timeline,
 * alerts with their outbox state, poll runs, the request log, the last quota snapshot, the encrypted API key, the
 * photo cache index, and FTS5 over lots for offline search.
 */
export const migration: Migration = {
  version: 20,
  name: 'watch-store',
  up(db) {
    db.exec(`
      CREATE TABLE secrets (
        name TEXT PRIMARY KEY,
        ciphertext BLOB NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE saved_searches (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        params TEXT NOT NULL,
        schedule TEXT NOT NULL,
        rules TEXT NOT NULL,
        max_pages INTEGER NOT NULL DEFAULT 5,
        paused INTEGER NOT NULL DEFAULT 0,
        is_example INTEGER NOT NULL DEFAULT 0,
        baseline_done INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        last_run_at INTEGER,
        last_ok_at INTEGER,
        last_result_count INTEGER,
        last_complete INTEGER,
        consecutive_failures INTEGER NOT NULL DEFAULT 0,
        last_error_code TEXT,
        last_error TEXT
      ) STRICT;

      CREATE TABLE search_members (
        search_id INTEGER NOT NULL REFERENCES saved_searches(id) ON DELETE CASCADE,
        lot_key TEXT NOT NULL,
        first_seen_at INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL,
        PRIMARY KEY (search_id, lot_key)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE watches (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('vin', 'lot')),
        vin TEXT,
        lot_key TEXT,
        label TEXT NOT NULL DEFAULT '',
        rules TEXT NOT NULL,
        is_example INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        last_checked_at INTEGER,
        consecutive_failures INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        CHECK ((kind = 'vin' AND vin IS NOT NULL) OR (kind = 'lot' AND lot_key IS NOT NULL))
      ) STRICT;
      CREATE UNIQUE INDEX watches_vin ON watches(vin) WHERE kind = 'vin';
      CREATE UNIQUE INDEX watches_lot ON watches(lot_key) WHERE kind = 'lot';

      CREATE TABLE lots (
        lot_key TEXT PRIMARY KEY,
        platform TEXT NOT NULL,
        lot_number TEXT NOT NULL,
        vin TEXT,
        title TEXT,
        year INTEGER,
        make TEXT,
        model TEXT,
        location TEXT,
        current_bid_usd REAL,
        buy_now_usd REAL,
        sale_price_usd REAL,
        state TEXT,
        lot_status TEXT,
        lot_sub_status TEXT,
        auction_at INTEGER,
        normalized TEXT NOT NULL,
        raw TEXT NOT NULL,
        raw_hash TEXT NOT NULL,
        notes TEXT NOT NULL DEFAULT '',
        first_seen_at INTEGER NOT NULL,
        last_observed_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX lots_vin ON lots(vin);
      CREATE INDEX lots_auction_at ON lots(auction_at);

      CREATE TABLE observations (
        id INTEGER PRIMARY KEY,
        lot_key TEXT NOT NULL,
        observed_at INTEGER NOT NULL,
        source TEXT NOT NULL,
        raw_hash TEXT NOT NULL,
        -- NULL when identical to the lot's previous observation (raw_hash says which body it was).
        raw TEXT
      ) STRICT;
      CREATE INDEX observations_lot ON observations(lot_key, observed_at);

      CREATE TABLE changes (
        id INTEGER PRIMARY KEY,
        lot_key TEXT NOT NULL,
        kind TEXT NOT NULL,
        field TEXT,
        before TEXT,
        after TEXT,
        related_lot_key TEXT,
        vin TEXT,
        observed_at INTEGER NOT NULL,
        search_id INTEGER
      ) STRICT;
      CREATE INDEX changes_lot ON changes(lot_key, observed_at);
      CREATE INDEX changes_time ON changes(observed_at);

      CREATE TABLE alerts (
        id INTEGER PRIMARY KEY,
        dedup_key TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        lot_key TEXT,
        change_id INTEGER,
        source TEXT NOT NULL DEFAULT '',
        title TEXT NOT NULL,
        body TEXT NOT NULL,
        reason TEXT,
        created_at INTEGER NOT NULL,
        delivery TEXT NOT NULL CHECK (delivery IN ('now', 'digest', 'suppressed')),
        -- pending -> claimed (notification being shown) -> delivered; or digest_pending; or suppressed.
        status TEXT NOT NULL,
        deliver_after INTEGER,
        delivered_at INTEGER,
        read_at INTEGER
      ) STRICT;
      CREATE INDEX alerts_status ON alerts(status, deliver_after);
      CREATE INDEX alerts_lot ON alerts(lot_key, created_at);

      CREATE TABLE poll_runs (
        id INTEGER PRIMARY KEY,
        target TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        finished_at INTEGER,
        status TEXT NOT NULL,
        requests INTEGER NOT NULL DEFAULT 0,
        records INTEGER NOT NULL DEFAULT 0,
        changes INTEGER NOT NULL DEFAULT 0,
        complete INTEGER,
        error_code TEXT,
        error_message TEXT
      ) STRICT;
      CREATE INDEX poll_runs_target ON poll_runs(target, started_at);

      CREATE TABLE request_log (
        id INTEGER PRIMARY KEY,
        at INTEGER NOT NULL,
        endpoint TEXT NOT NULL,
        status INTEGER,
        duration_ms INTEGER NOT NULL,
        bytes INTEGER NOT NULL,
        attempt INTEGER NOT NULL,
        error_code TEXT
      ) STRICT;
      CREATE INDEX request_log_at ON request_log(at);

      CREATE TABLE quota (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        snapshot TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE photos (
        url TEXT PRIMARY KEY,
        lot_key TEXT,
        sha256 TEXT NOT NULL,
        content_type TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        fetched_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX photos_lot ON photos(lot_key);

      CREATE VIRTUAL TABLE lots_fts USING fts5(
        title, vin, lot_number, make, model, location, notes,
        content = 'lots', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER lots_ai AFTER INSERT ON lots BEGIN
        INSERT INTO lots_fts(rowid, title, vin, lot_number, make, model, location, notes)
        VALUES (new.rowid, new.title, new.vin, new.lot_number, new.make, new.model, new.location, new.notes);
      END;
      CREATE TRIGGER lots_ad AFTER DELETE ON lots BEGIN
        INSERT INTO lots_fts(lots_fts, rowid, title, vin, lot_number, make, model, location, notes)
        VALUES ('delete', old.rowid, old.title, old.vin, old.lot_number, old.make, old.model, old.location, old.notes);
      END;
      CREATE TRIGGER lots_au AFTER UPDATE OF title, vin, lot_number, make, model, location, notes ON lots BEGIN
        INSERT INTO lots_fts(lots_fts, rowid, title, vin, lot_number, make, model, location, notes)
        VALUES ('delete', old.rowid, old.title, old.vin, old.lot_number, old.make, old.model, old.location, old.notes);
        INSERT INTO lots_fts(rowid, title, vin, lot_number, make, model, location, notes)
        VALUES (new.rowid, new.title, new.vin, new.lot_number, new.make, new.model, new.location, new.notes);
      END;
    `);
  },
};
