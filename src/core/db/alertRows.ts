import type { AlertKind, Delivery } from '../../shared/watch';

/*
 * The alerts' rows as both engines' repositories write them (AlertsRepo on the desktop's SQLite file,
 * KyselyAlertsRepo on either engine): said once here, so the two never disagree. No SQL here.
 */

/** A stored alert (the inbox and the outbox in one table). */
export interface AlertRow {
  id: number;
  dedup_key: string;
  kind: AlertKind;
  lot_key: string | null;
  change_id: number | null;
  source: string;
  title: string;
  body: string;
  reason: string | null;
  created_at: number;
  delivery: Delivery;
  /**
   * pending (to notify now), digest (held for the digest), claimed (being shown), delivered, suppressed, recovered
   * (claimed by a run that stopped before marking it shown: named in a recovery notice instead).
   */
  status: 'pending' | 'digest' | 'claimed' | 'delivered' | 'suppressed' | 'recovered';
  deliver_after: number | null;
  delivered_at: number | null;
  read_at: number | null;
  /** The link the alert carries (a call watch's new item), or null (lot alerts link their lot by lot_key). */
  url: string | null;
}

/** What an alert decision needs to be stored. */
export interface NewAlert {
  dedup_key: string;
  kind: AlertKind;
  lot_key: string | null;
  change_id: number | null;
  source: string;
  title: string;
  body: string;
  reason: string | null;
  delivery: Delivery;
  deliver_after: number | null;
  /** The link the alert carries (a call watch's item), or null. */
  url?: string | null;
}

/** The columns insertAlert writes (every column but the database's id and the later states). */
export type AlertInsert = Omit<AlertRow, 'id' | 'delivered_at' | 'read_at'>;

/**
 * The columns insertAlert writes for `a` at `now` (ms): the status its delivery starts in (`now`: pending, `digest`:
 * digest, `suppressed`: suppressed), and no link as null. Only the table's columns, whatever else `a` carries.
 */
export function alertInsert(a: NewAlert, now: number): AlertInsert {
  return {
    dedup_key: a.dedup_key,
    kind: a.kind,
    lot_key: a.lot_key,
    change_id: a.change_id,
    source: a.source,
    title: a.title,
    body: a.body,
    reason: a.reason,
    created_at: now,
    delivery: a.delivery,
    status: a.delivery === 'now' ? 'pending' : a.delivery === 'digest' ? 'digest' : 'suppressed',
    deliver_after: a.deliver_after,
    url: a.url ?? null,
  };
}
