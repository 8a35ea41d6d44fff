import { FEE_LOADS, type FeeFileLoad, type FeeSchedule } from './fees';
import { titleGroupOf, type TitleGroup } from './titleGroup';
import type { Platform } from './vehicle';

/**
 * Which fee table a lot is charged from: its platform, its title document (clean or not, through titleGroupOf) and
 * the buyer's membership kind on that platform (held in Settings). Shared because core works the desk's figures out
 * with it and the Settings view lists the membership kinds. Pure; throws nothing.
 */

/**
 * The membership kinds a buyer can hold, per platform, with what they read in Settings. The kinds are fixed here, not
 * read from the fee files, so the settings stay readable when a fee file is broken; a kind the file has no tables for
 * (Copart licensed, IAAI public) has no known fees and the desk says so instead of giving a number.
 */
export const MEMBERSHIPS = {
  copart: {
    standard_secured: 'Non-licensed (standard), secured payment (wire transfer, debit card)',
    standard_unsecured: 'Non-licensed (standard), unsecured payment (credit card, PayPal)',
    licensed: 'Licensed business',
  },
  iaai: {
    licensed_standard_volume: 'Licensed, standard volume',
    licensed_high_volume: 'Licensed, high volume (25+ units and $75,000+ a year)',
    public: 'Non-licensed / public',
  },
} as const satisfies Record<Platform, Record<string, string>>;

export type Membership = { [P in Platform]: keyof (typeof MEMBERSHIPS)[P] & string };

/** The membership kinds of a platform, in the order Settings lists them. */
export function membershipKinds<P extends Platform>(p: P): Membership[P][] {
  return Object.keys(MEMBERSHIPS[p]) as Membership[P][];
}

/** The membership a buyer starts with on each platform (the first table the older settings chose by default). */
export const DEFAULT_MEMBERSHIP: Membership = {
  copart: 'standard_secured',
  iaai: 'licensed_standard_volume',
};

/**
 * The membership kind an older saved setting meant: settings once held the fee table itself per platform (Copart's
 * `standard_non_clean_secured` and so on); the payment kind is kept and the title part is now read from each lot.
 * An unknown value gives null (the caller keeps the default).
 */
export function membershipFromLegacy(platform: Platform, value: unknown): string | null {
  if (typeof value !== 'string') return null;
  if (value in MEMBERSHIPS[platform]) return value;
  if (platform === 'copart') {
    const m = /^standard_(?:non_)?clean_(secured|unsecured)$/.exec(value);
    return m ? `standard_${m[1]}` : null;
  }
  return null;
}

/** How the lot's title placed it: which side of the membership's tables it pays, and why. */
type TitleSide = 'clean' | 'non_clean' | 'stricter';

/** What the desk charges a lot: the table, its names and the sentence saying why; or no table and why not. */
export type FeeChoice =
  | {
      ok: true;
      schedule: FeeSchedule;
      /** The table's key in the fee file's `schedules`. */
      table_id: string;
      /** The table as the fee file names it ("Non-licensed, clean title, secured payment"). */
      label: string;
      /** "Copart non-clean title table, because the title document is SALVAGE CERTIFICATE". */
      reason: string;
      /** True when the title document was missing or unplaced and the stricter (dearer) table was used. */
      stricter: boolean;
      title_group: TitleGroup;
      /** The fee file's schedule version (YYYY-MM). */
      version: string;
    }
  | { ok: false; reason: string; title_group: TitleGroup };

const PLATFORM_NAME: Record<Platform, string> = { copart: 'Copart', iaai: 'IAAI' };

function sideOf(group: TitleGroup): TitleSide {
  if (group === 'clean') return 'clean';
  if (group === 'unknown') return 'stricter';
  return 'non_clean';
}

/**
 * The fee table a lot is charged from (source: data/fees/<platform>.json `memberships` and `schedules`, the
 * published buyer fee schedules; product reason: Copart charges clean and non-clean titles from different tables,
 * and a membership decides which tables apply).
 *
 * - the title document's name goes through titleGroupOf: `clean` pays the clean table, salvage and non-repairable the
 *   non-clean one; a missing or unplaced document pays the membership's stricter table, and the reason says so;
 * - a fee file that failed its schema gives no table: the reason names the file and what is wrong;
 * - a membership kind the file has no tables for (IAAI public) gives no table: the reason says its fees are not known.
 *
 * @param platform the lot's platform.
 * @param titleDocument the title document's name as received (`title_document.name`), or null.
 * @param membership the buyer's membership kind on that platform (Settings `desk.membership`).
 * @param loads the fee files as loaded (default FEE_LOADS; tests pass a broken one).
 * @returns a FeeChoice; throws nothing.
 */
export function feeTableFor(
  platform: Platform,
  titleDocument: string | null | undefined,
  membership: string,
  loads: Readonly<Record<Platform, FeeFileLoad>> = FEE_LOADS,
): FeeChoice {
  const name = PLATFORM_NAME[platform];
  const group = titleGroupOf(titleDocument);
  const load = loads[platform];
  if (!load.ok)
    return {
      ok: false,
      title_group: group,
      reason: `No ${name} fees: the fee file is broken. ${load.problem}. Fix or restore the file; Lotwatch gives no fee number until then.`,
    };
  const kinds = MEMBERSHIPS[platform] as Record<string, string>;
  const kindLabel = kinds[membership] ?? membership;
  const tables = load.file.memberships[membership];
  if (!tables)
    return {
      ok: false,
      title_group: group,
      reason: `${name} fees for a ${kindLabel.toLowerCase()} membership are not known: ${load.path} has no published table for it, so Lotwatch gives no fee number.`,
    };
  const side = sideOf(group);
  const key = side === 'stricter' ? tables.stricter : side;
  const tableId = tables[key];
  const schedule = load.file.schedules[tableId]!;
  const sameTable = tables.clean === tables.non_clean;
  const tableName = sameTable
    ? `${name} ${kindLabel.toLowerCase()} table`
    : `${name} ${key === 'clean' ? 'clean' : 'non-clean'} title table`;
  const doc = (titleDocument ?? '').trim();
  let reason: string;
  if (sameTable) reason = `${tableName}, the same for every title document`;
  else if (side !== 'stricter') reason = `${tableName}, because the title document is ${doc}`;
  else if (doc === '') reason = `stricter table (${tableName}): the title document is not known`;
  else
    reason = `stricter table (${tableName}): the title document ${doc} is neither a clean title nor a known salvage one`;
  return {
    ok: true,
    schedule,
    table_id: tableId,
    label: schedule.label,
    reason,
    stricter: side === 'stricter' && !sameTable,
    title_group: group,
    version: load.file.version,
  };
}
