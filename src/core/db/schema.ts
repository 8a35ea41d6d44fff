import type { Generated } from 'kysely';

/*
 * The store's tables as Kysely sees them (docs/architecture.md "Two engines: connecting"): every table of the
 * current schema (all migrations of src/core/db/migrations applied) but the full-text index (lots_fts and its shadow
 * tables, SQLite only), each column with the type the app reads. TABLES is the one description: the row types are
 * derived from it, and tests/core/db/schemaTypes.test.ts compares it with a freshly migrated SQLite file, so a
 * migration that adds, drops or changes a column fails that test until this file says the same.
 */

/** How a column's values come back: INTEGER and REAL as numbers, TEXT as strings, BLOB as Buffers. */
export type ColumnFamily = 'integer' | 'real' | 'text' | 'blob';

/**
 * One column, as written in TABLES: its family, then `?` when it may be NULL, then ` default` when the database
 * fills it when an insert leaves it out (a DEFAULT clause); `id` is an INTEGER PRIMARY KEY (SQLite's rowid, a
 * serial/identity column on PostgreSQL), never NULL and given by the database when left out.
 */
export type ColumnSpec = 'id' | `${ColumnFamily}${'' | '?'}${'' | ' default'}`;

/** Every table and column of the store (see the file's head): table name, then column name to its ColumnSpec. */
export const TABLES = {
  alert_reads: {
    user_id: 'integer',
    alert_id: 'integer',
    read_at: 'integer',
  },
  alerts: {
    id: 'id',
    dedup_key: 'text',
    kind: 'text',
    lot_key: 'text?',
    change_id: 'integer?',
    source: 'text default',
    title: 'text',
    body: 'text',
    reason: 'text?',
    created_at: 'integer',
    delivery: 'text',
    status: 'text',
    deliver_after: 'integer?',
    delivered_at: 'integer?',
    read_at: 'integer?',
    url: 'text?',
  },
  cache: {
    key: 'text',
    value: 'text',
    updated_at: 'integer',
  },
  call_answers: {
    id: 'id',
    watch_id: 'integer',
    at: 'integer',
    status: 'integer',
    body: 'text?',
    extract: 'text',
    good: 'integer',
  },
  call_watches: {
    id: 'id',
    name: 'text',
    endpoint: 'text',
    path: 'text default',
    query: 'text default',
    config: 'text',
    schedule: 'text',
    rules: 'text',
    paused: 'integer default',
    paused_reason: 'text?',
    is_example: 'integer default',
    created_at: 'integer',
    updated_at: 'integer',
    last_run_at: 'integer?',
    last_ok_at: 'integer?',
    last_status: 'integer?',
    consecutive_failures: 'integer default',
    last_error: 'text?',
    refused_params: 'text default',
    created_by: 'integer?',
  },
  changes: {
    id: 'id',
    lot_key: 'text',
    kind: 'text',
    field: 'text?',
    before: 'text?',
    after: 'text?',
    related_lot_key: 'text?',
    vin: 'text?',
    observed_at: 'integer',
    search_id: 'integer?',
    outcome: 'text?',
  },
  channels: {
    id: 'id',
    type: 'text',
    settings: 'text',
    cursor: 'integer default',
    failures: 'integer default',
    failing_since: 'integer?',
    last_error: 'text?',
    last_sent_at: 'integer?',
    created_at: 'integer',
    updated_at: 'integer',
    owner_id: 'integer?',
  },
  deliveries: {
    id: 'id',
    alert_id: 'integer',
    channel_id: 'integer',
    status: 'text',
    not_before: 'integer',
    attempts: 'integer default',
    message_key: 'text?',
    detail: 'text?',
    created_at: 'integer',
    attempted_at: 'integer?',
    sent_at: 'integer?',
    claimed_by: 'integer?',
  },
  lot_facets: {
    lot_rowid: 'id',
    damage: 'text?',
    title_document: 'text?',
    run_condition: 'text?',
    seller: 'text?',
    sale_result: 'text?',
    f_damage: 'text?',
    f_secondary_damage: 'text?',
    f_title_document: 'text?',
    f_run_condition: 'text?',
    f_keys: 'text?',
    f_seller_type: 'text?',
    f_export: 'text?',
    f_sale_result: 'text?',
    f_sale_month: 'text?',
  },
  lot_shipping: {
    lot_key: 'text',
    port: 'text',
    price_usd: 'real?',
    currency: 'text?',
    fetched_at: 'integer',
  },
  lot_user_prefs: {
    user_id: 'integer',
    lot_key: 'text',
    muted: 'integer default',
    snooze_until: 'integer?',
    snooze_until_event: 'text?',
    snoozed_at: 'integer?',
    max_bid_usd: 'real?',
    updated_at: 'integer',
  },
  lots: {
    lot_key: 'text',
    platform: 'text',
    lot_number: 'text',
    vin: 'text?',
    title: 'text?',
    year: 'integer?',
    make: 'text?',
    model: 'text?',
    location: 'text?',
    current_bid_usd: 'real?',
    buy_now_usd: 'real?',
    sale_price_usd: 'real?',
    state: 'text?',
    lot_status: 'text?',
    lot_sub_status: 'text?',
    auction_at: 'integer?',
    normalized: 'text',
    raw: 'text',
    raw_hash: 'text',
    notes: 'text default',
    first_seen_at: 'integer',
    last_observed_at: 'integer',
    last_sold_status: 'text?',
    tags: 'text default',
    content_hash: 'text?',
    pruned_at: 'integer?',
    raw_z: 'blob?',
  },
  market_comps: {
    band: 'text',
    source: 'text',
    platform: 'text',
    make: 'text',
    model: 'text',
    year_from: 'integer',
    year_to: 'integer',
    fetched_at: 'integer?',
    lot_keys: 'text default',
    requests: 'integer default',
    pages: 'integer default',
    error: 'text?',
    error_at: 'integer?',
  },
  observations: {
    id: 'id',
    lot_key: 'text',
    observed_at: 'integer',
    source: 'text',
    raw_hash: 'text',
    raw: 'text?',
    last_seen_at: 'integer?',
    seen: 'integer default',
    raw_z: 'blob?',
  },
  photos: {
    url: 'text',
    lot_key: 'text?',
    sha256: 'text',
    content_type: 'text',
    bytes: 'integer',
    fetched_at: 'integer',
  },
  poll_runs: {
    id: 'id',
    target: 'text',
    started_at: 'integer',
    finished_at: 'integer?',
    status: 'text',
    requests: 'integer default',
    records: 'integer default',
    changes: 'integer default',
    complete: 'integer?',
    error_code: 'text?',
    error_message: 'text?',
  },
  quota: {
    id: 'id',
    snapshot: 'text',
    updated_at: 'integer',
  },
  request_log: {
    id: 'id',
    at: 'integer',
    endpoint: 'text',
    status: 'integer?',
    duration_ms: 'integer',
    bytes: 'integer',
    attempt: 'integer',
    error_code: 'text?',
    quota_id: 'text?',
    user_id: 'integer?',
  },
  saved_searches: {
    id: 'id',
    name: 'text',
    params: 'text',
    schedule: 'text',
    rules: 'text',
    max_pages: 'integer default',
    paused: 'integer default',
    is_example: 'integer default',
    baseline_done: 'integer default',
    created_at: 'integer',
    updated_at: 'integer',
    last_run_at: 'integer?',
    last_ok_at: 'integer?',
    last_result_count: 'integer?',
    last_complete: 'integer?',
    consecutive_failures: 'integer default',
    last_error_code: 'text?',
    last_error: 'text?',
    covered_until: 'integer?',
    sweep_from: 'integer?',
    created_by: 'integer?',
    updated_by: 'integer?',
    sweep_cursor: 'text?',
  },
  search_members: {
    search_id: 'integer',
    lot_key: 'text',
    first_seen_at: 'integer',
    last_seen_at: 'integer',
  },
  secrets: {
    name: 'text',
    ciphertext: 'blob',
    updated_at: 'integer',
  },
  settings: {
    key: 'text',
    value: 'text',
    updated_at: 'integer',
  },
  sign_in_throttle: {
    key: 'text',
    failures: 'integer',
    last_failure_at: 'integer',
    locked_until: 'integer',
  },
  user_prefs: {
    user_id: 'integer',
    key: 'text',
    value: 'text',
    updated_at: 'integer',
  },
  user_sessions: {
    id_hash: 'text',
    user_id: 'integer',
    csrf: 'text',
    created_at: 'integer',
    last_seen_at: 'integer',
    expires_at: 'integer',
  },
  users: {
    id: 'id',
    login: 'text',
    name: 'text',
    role: 'text',
    password_hash: 'text',
    disabled: 'integer default',
    created_at: 'integer',
    updated_at: 'integer',
    last_sign_in_at: 'integer?',
  },
  watches: {
    id: 'id',
    kind: 'text',
    vin: 'text?',
    lot_key: 'text?',
    label: 'text default',
    rules: 'text',
    is_example: 'integer default',
    created_at: 'integer',
    updated_at: 'integer',
    last_checked_at: 'integer?',
    consecutive_failures: 'integer default',
    last_error: 'text?',
    paused: 'integer default',
    created_by: 'integer?',
    updated_by: 'integer?',
  },
} as const satisfies Record<string, Record<string, ColumnSpec>>;

/** The name of a table of the store. */
export type TableName = keyof typeof TABLES;

/** The TypeScript type of a family's values (times are integer ms, amounts REAL USD, JSON documents text). */
type ValueOf<F> = F extends 'integer' | 'real'
  ? number
  : F extends 'text'
    ? string
    : F extends 'blob'
      ? Buffer
      : never;
/** A spec without its ` default`: the value, or the value or null. */
type Plain<S> = S extends `${infer F}?` ? ValueOf<F> | null : ValueOf<S>;

/** The Kysely column type of a ColumnSpec: `Generated<…>` for `id` and for columns with a default. */
export type ColumnOf<S extends ColumnSpec> = S extends 'id'
  ? Generated<number>
  : S extends `${infer P} default`
    ? Generated<Plain<P>>
    : Plain<S>;

/** The Kysely table type (a row's columns) of the table `T`, derived from TABLES. */
export type TableOf<T extends TableName> = {
  -readonly [C in keyof (typeof TABLES)[T]]: (typeof TABLES)[T][C] extends ColumnSpec
    ? ColumnOf<(typeof TABLES)[T][C]>
    : never;
};

export type AlertReadsTable = TableOf<'alert_reads'>;
export type AlertsTable = TableOf<'alerts'>;
export type CacheTable = TableOf<'cache'>;
export type CallAnswersTable = TableOf<'call_answers'>;
export type CallWatchesTable = TableOf<'call_watches'>;
export type ChangesTable = TableOf<'changes'>;
export type ChannelsTable = TableOf<'channels'>;
export type DeliveriesTable = TableOf<'deliveries'>;
export type LotFacetsTable = TableOf<'lot_facets'>;
export type LotShippingTable = TableOf<'lot_shipping'>;
export type LotUserPrefsTable = TableOf<'lot_user_prefs'>;
export type LotsTable = TableOf<'lots'>;
export type MarketCompsTable = TableOf<'market_comps'>;
export type ObservationsTable = TableOf<'observations'>;
export type PhotosTable = TableOf<'photos'>;
export type PollRunsTable = TableOf<'poll_runs'>;
export type QuotaTable = TableOf<'quota'>;
export type RequestLogTable = TableOf<'request_log'>;
export type SavedSearchesTable = TableOf<'saved_searches'>;
export type SearchMembersTable = TableOf<'search_members'>;
export type SecretsTable = TableOf<'secrets'>;
export type SettingsTable = TableOf<'settings'>;
export type SignInThrottleTable = TableOf<'sign_in_throttle'>;
export type UserPrefsTable = TableOf<'user_prefs'>;
export type UserSessionsTable = TableOf<'user_sessions'>;
export type UsersTable = TableOf<'users'>;
export type WatchesTable = TableOf<'watches'>;

/** The store's database for Kysely (`Kysely<DB>`): one table type per table of TABLES. */
export interface DB {
  alert_reads: AlertReadsTable;
  alerts: AlertsTable;
  cache: CacheTable;
  call_answers: CallAnswersTable;
  call_watches: CallWatchesTable;
  changes: ChangesTable;
  channels: ChannelsTable;
  deliveries: DeliveriesTable;
  lot_facets: LotFacetsTable;
  lot_shipping: LotShippingTable;
  lot_user_prefs: LotUserPrefsTable;
  lots: LotsTable;
  market_comps: MarketCompsTable;
  observations: ObservationsTable;
  photos: PhotosTable;
  poll_runs: PollRunsTable;
  quota: QuotaTable;
  request_log: RequestLogTable;
  saved_searches: SavedSearchesTable;
  search_members: SearchMembersTable;
  secrets: SecretsTable;
  settings: SettingsTable;
  sign_in_throttle: SignInThrottleTable;
  user_prefs: UserPrefsTable;
  user_sessions: UserSessionsTable;
  users: UsersTable;
  watches: WatchesTable;
}
