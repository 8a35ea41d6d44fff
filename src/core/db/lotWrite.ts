import { createHash } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Vehicle } from '../../shared/vehicle';
import { lotKeyOf, type Change, type LotKey, type LotState } from '../../shared/watch';
import { toLotState } from '../diff';
import { rowToLotState, sameState, stateParams, type StateParams, type StateRow } from './lotStateRow';
import type { LotRecord } from './lotsRepo';
import { keepSeenPhotos } from './photosKept';

/*
 * What storing an observation of a lot writes, worked out without the database (docs/architecture.md "Two engines:
 * one store"): both LotsRepo (SQLite, synchronous) and the Kysely repository (SQLite or PostgreSQL) read the lot's
 * stored state, hand it here, and run the writes the plan names, so the two decide alike what changed.
 */

/** The columns LotsRepo writes for a stored record: a lot row but its user fields, with the time of the sight (ms). */
export interface LotParams extends StateParams {
  lot_key: string;
  platform: string;
  lot_number: string;
  title: string | null;
  year: number | null;
  make: string | null;
  model: string | null;
  location: string | null;
  /** The normalised record (Vehicle without `raw`) as JSON. */
  normalized: string;
  /** Always '' for a record written now: the raw record is in `raw_z`. */
  raw: string;
  raw_z: Buffer | null;
  raw_hash: string;
  content_hash: string | null;
  observed_at: number;
}

/** A raw record's JSON as stored: deflated (a fifth of the text or less). */
export const packRecord = (json: string): Buffer => deflateRawSync(Buffer.from(json, 'utf8'));

/** The JSON text of a stored record: `raw_z` inflated, else `raw` (rows stored before schema 90), else null. */
export function unpackRecord(r: { raw: string | null; raw_z: Buffer | null }): string | null {
  return r.raw_z ? inflateRawSync(r.raw_z).toString('utf8') : r.raw;
}

/**
 * Photo URLs kept per stored record. A lot page shows a gallery of a few dozen photos and real lots carry 10 to 40;
 * a record listing thousands (seen: 10,000, 37 MB per poll) would copy them into every observation. The count of
 * the whole list is kept beside the first ones (`media.photos_count`).
 */
export const MAX_STORED_PHOTOS = 50;

/**
 * A record as Lotwatch stores it: `media.photos` and every list under the raw record's `media` (photos, items,
 * thumbs, whatever the dialect calls them) cut to their first MAX_STORED_PHOTOS entries; the normalised media gets
 * `photos_count`, the length of the whole photo list. Returns the record itself when nothing was over the cap.
 * Pure; throws nothing.
 */
export function capStoredPhotos(
  v: Vehicle,
): Vehicle & { media: Vehicle['media'] & { photos_count?: number } } {
  const photos = v.media.photos;
  const raw = v.raw;
  const rawMedia =
    raw !== null && typeof raw === 'object' && !Array.isArray(raw)
      ? (raw as Record<string, unknown>)['media']
      : undefined;
  const longRawLists =
    rawMedia !== null && typeof rawMedia === 'object' && !Array.isArray(rawMedia)
      ? Object.entries(rawMedia as Record<string, unknown>).filter(
          ([, x]) => Array.isArray(x) && x.length > MAX_STORED_PHOTOS,
        )
      : [];
  if (photos.length <= MAX_STORED_PHOTOS && longRawLists.length === 0) return v;
  const cut = (list: unknown[]) => list.slice(0, MAX_STORED_PHOTOS);
  const cappedRaw =
    longRawLists.length === 0
      ? raw
      : {
          ...(raw as Record<string, unknown>),
          media: {
            ...(rawMedia as Record<string, unknown>),
            ...Object.fromEntries(longRawLists.map(([k, x]) => [k, cut(x as unknown[])])),
          },
        };
  return {
    ...v,
    media: { ...v.media, photos: cut(photos) as string[], photos_count: photos.length },
    raw: cappedRaw,
  };
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** A record about to be stored: the diff's projection of it (`next`) and the lot's key. */
export interface KeyedObservation {
  key: LotKey;
  next: LotState;
}

/**
 * The state a record projects to (toLotState in src/core/diff, seen at `observedAt` ms) and the key of its lot, or
 * null for a record without platform or lot number (it cannot be keyed). Pure; throws nothing.
 */
export function keyObservation(vehicle: Vehicle, observedAt: number): KeyedObservation | null {
  const next = toLotState(vehicle, observedAt);
  return next === null ? null : { key: lotKeyOf(next.platform, next.lot_number), next };
}

/**
 * Whether storing `vehicle` needs the stored record's normalised JSON: only a record without photos does, to keep
 * the photos seen before (keepSeenPhotos). Lets an async repository read that JSON only when it is wanted.
 */
export const needsStoredMedia = (vehicle: Vehicle): boolean => vehicle.media.photos.length === 0;

/** The writes of one observation (see planObservation). */
export type ObservationPlan =
  | {
      /** The record's content equals the stored one: no new row and no copy. */
      kind: 'seen';
      prev: LotState;
      next: LotState;
      /**
       * The state columns to write again (an older projection wrote them), or null when only `last_observed_at`
       * moves. Either way the lot's last observation is marked seen; when none is left (the retention pass collapsed
       * them), a new one starts with `rawHash` and no copy.
       */
      restate: (StateParams & { lot_key: string; observed_at: number }) | null;
      rawHash: string;
    }
  | {
      /** A new lot ('insert') or a changed record ('update': the replaced record first moves into its observation). */
      kind: 'insert' | 'update';
      prev: LotState | null;
      next: LotState;
      /** The lot row to write; a new observation of it starts with `lot.raw_hash` and no copy. */
      lot: LotParams;
    };

/**
 * What LotsRepo.observe writes for `vehicle`, keyed as `k` (keyObservation), given the lot's stored state row
 * (`prevRow`, null for a new lot) and a reader of its stored normalised JSON (called only for a record without
 * photos, see needsStoredMedia). The record is stored with its photo lists capped (capStoredPhotos) and the photos
 * seen before kept (keepSeenPhotos); whether it changed is decided on the normalised record's sha256, not the raw
 * bytes. Pure but for the reader; throws nothing.
 */
export function planObservation(
  vehicle: Vehicle,
  k: KeyedObservation,
  prevRow: StateRow | null,
  storedJson: () => string | null,
  observedAt: number,
): ObservationPlan {
  const { key, next } = k;
  const v = keepSeenPhotos(capStoredPhotos(vehicle), storedJson);
  const { raw: _raw, ...normalized } = v;
  const normalizedJson = JSON.stringify(normalized);
  const contentHash = sha256(normalizedJson);
  if (prevRow !== null && prevRow.content_hash === contentHash) {
    // The same record projects to the same state: the diff sees no change even on a row whose columns an older
    // projection wrote, and those columns are brought in line once.
    const prev: LotState = { ...next, observed_at: prevRow.last_observed_at };
    const restate = sameState(rowToLotState(prevRow), prev)
      ? null
      : { ...stateParams(next), lot_key: key, observed_at: observedAt };
    return { kind: 'seen', prev, next, restate, rawHash: prevRow.raw_hash };
  }
  const rawJson = JSON.stringify(v.raw ?? null);
  return {
    kind: prevRow ? 'update' : 'insert',
    prev: prevRow ? rowToLotState(prevRow) : null,
    next,
    lot: {
      lot_key: key,
      platform: next.platform,
      lot_number: next.lot_number,
      title: v.title,
      year: v.year,
      make: v.make,
      model: v.model,
      location: v.location.display,
      ...stateParams(next),
      normalized: normalizedJson,
      raw: '',
      raw_z: packRecord(rawJson),
      raw_hash: sha256(rawJson),
      content_hash: contentHash,
      observed_at: observedAt,
    },
  };
}

/** The columns of a `changes` row for a timeline entry (`before`/`after` as JSON text). */
export interface ChangeParams {
  lot_key: string;
  kind: string;
  field: string | null;
  before: string;
  after: string;
  related_lot_key: string | null;
  vin: string | null;
  observed_at: number;
  search_id: number | null;
  outcome: string | null;
}

/** The row LotsRepo.insertChange writes for `c`, found by the saved search `searchId` (or none). Pure. */
export function changeParams(c: Change, searchId: number | null): ChangeParams {
  return {
    lot_key: c.lot_key,
    kind: c.kind,
    field: c.field,
    before: JSON.stringify(c.before),
    after: JSON.stringify(c.after),
    related_lot_key: c.related_lot_key,
    vin: c.vin,
    observed_at: c.observed_at,
    search_id: searchId,
    outcome: c.outcome,
  };
}

/** One observation as LotsRepo.bids reads it: its time (ms), its stored copy, hash, and whether it is the newest. */
export interface BidObservation {
  observed_at: number;
  raw: string | null;
  raw_z: Buffer | null;
  raw_hash: string;
  /** 1 for the lot's newest observation (highest id), else 0. */
  latest: number;
}

/**
 * A lot's bid history ([time ms, bid USD or null], oldest first) from its observations (oldest first), the lot's
 * own row (its record and hash; null when not stored) and its timeline's bid changes (oldest first): the timeline's
 * bids from before the first observation, then one per observation with a record. Pure; throws on a stored record
 * that is not JSON.
 */
export function bidHistory(
  observations: readonly BidObservation[],
  lot: { raw: string | null; raw_z: Buffer | null; raw_hash: string } | null,
  bidChanges: readonly { observed_at: number; after: string | null }[],
): [number, number | null][] {
  const bidOf = (json: string | null): number | null => {
    const v = json === null ? null : (JSON.parse(json) as { pricing?: { current_bid_usd?: unknown } } | null);
    const bid = v?.pricing?.current_bid_usd;
    return typeof bid === 'number' ? bid : null;
  };
  const observed: [number, number | null][] = [];
  for (const o of observations) {
    const stored = unpackRecord(o);
    // The newest observation holds no copy when its record is the lot's own.
    const own = stored === null && o.latest === 1 && lot !== null && o.raw_hash === lot.raw_hash;
    if (stored !== null) observed.push([o.observed_at, bidOf(stored)]);
    else if (own) observed.push([o.observed_at, bidOf(unpackRecord(lot))]);
  }
  const first = observed[0]?.[0] ?? Infinity;
  const fromTimeline = bidChanges
    .filter((c) => c.observed_at < first)
    .map((c): [number, number | null] => {
      const after = c.after === null ? null : (JSON.parse(c.after) as unknown);
      return [c.observed_at, typeof after === 'number' ? after : null];
    });
  return [...fromTimeline, ...observed];
}

/**
 * The normalised record of a stored lot row with its raw record (parsed), key, sights (ms), notes and tags: what
 * LotsRepo.getLotRecord returns. Pure; throws on a stored record that is not JSON.
 */
export function lotRecordOf(
  key: LotKey,
  r: {
    normalized: string;
    raw: string | null;
    raw_z: Buffer | null;
    first_seen_at: number;
    last_observed_at: number;
    notes: string;
    tags: string;
  },
): LotRecord {
  return {
    ...(JSON.parse(r.normalized) as Vehicle),
    raw: JSON.parse(unpackRecord(r) ?? 'null') as unknown,
    lot_key: key,
    first_seen_at: r.first_seen_at,
    last_observed_at: r.last_observed_at,
    notes: r.notes,
    tags: r.tags,
  };
}
