import { z } from 'zod';
import { SEARCH_ENUMS, toSpecValue, type SearchEnumValue } from './vehicleParams';

/**
 * Local refinements: filters Lotwatch applies itself to the lots a GET /vehicles search returns, for what buyers
 * see on lots but the specification does not let Lotwatch send. The one case today is damage: the specification's
 * `damage` takes nine values (Fire, Hail, Theft, Water, Chemical, Rollover, Mechanical, Vandalized, Repossession;
 * spec "GET /vehicles: query parameters"), while the records' primary damage mostly reads "Front end", "Rear end",
 * "All over", "Minor dent/scratches" (docs/service-contract.md "Records": `condition.primary_damage`).
 * Such a value is NEVER sent; Lotwatch keeps a lot only when its primary damage is one of the picked kinds.
 * The search form, a manual search's results (core explore) and a saved search's new matches (core polls) all use
 * this module, so they cannot disagree on what a refinement keeps. Pure: core and the renderer both import it.
 */

/**
 * Damage kinds buyers see as a lot's primary damage that the specification's `damage` cannot search, spelled as the
 * real service's records spell them (docs/service-contract.md "Records": "Front end", "All over", "Left Front";
 * the sandbox's catalog copies them). Offered by the form even when the metadata lists none of them, since the
 * real metadata's damage list holds only the filter values (docs/service-contract.md "Filters").
 */
export const LOCAL_DAMAGE_KINDS = [
  'Front end',
  'Rear end',
  'Left side',
  'Right side',
  'Left Front',
  'Right Front',
  'Left Rear',
  'Right Rear',
  'All over',
  'Minor dent/scratches',
  'Normal wear',
  'Undercarriage',
  'Top/roof',
] as const;

/** The one line the form shows beside a local choice, and the title of each such choice. */
export const LOCAL_FILTER_NOTE = 'Filtered by Lotwatch: the service cannot search this damage.';

/**
 * The refinements of one search, as the form, the contract and the store carry them beside its GET /vehicles
 * parameters. `damage`: primary-damage words (1 to 100 characters, at most 50), any spelling; a lot is kept when
 * its primary damage equals one of them, ignoring case and separators. Empty or absent: no refinement.
 */
export const LocalRefinementsSchema = z
  .object({
    damage: z
      .array(
        z.string().trim().min(1, 'Must not be empty.').max(100, 'Must be at most 100 characters.'),
        'Must be a list.',
      )
      .max(50, 'At most 50 values.'),
  })
  .partial()
  .strict();

/** See LocalRefinementsSchema, e.g. `{ damage: ['Front end', 'Hail'] }`. */
export type LocalRefinements = z.infer<typeof LocalRefinementsSchema>;

/** One word for comparing damage spellings: lower case, letters and digits only ("Minor Dent/Scratches" = "minordentscratches"). */
function word(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

/** True when the refinements keep every lot (nothing to filter). */
export function isUnrefined(r: LocalRefinements | null | undefined): boolean {
  return !r?.damage?.length;
}

/**
 * Whether the specification lets Lotwatch send `value` as `damage` (case and separators ignored). A value it does
 * not list can only be a local refinement.
 */
export function isSendableDamage(value: string): boolean {
  return toSpecValue('damage', value) !== null;
}

/**
 * The damage values a buyer picked, split into what is sent and what Lotwatch filters itself:
 * - only specification values picked: they are sent as `damage` (spelled the specification's way), no refinement;
 * - any other value picked: NOTHING is sent as `damage`, and every picked value (specification ones included)
 *   becomes the local refinement. The picks are alternatives ("Hail or Front end"), and sending `damage=Hail`
 *   would drop the front-end lots before Lotwatch could keep them.
 * Blank values and repeats are dropped. Never throws.
 */
export function splitDamage(picked: readonly string[]): {
  sent: SearchEnumValue<'damage'>[];
  local: string[];
} {
  const vs = [...new Set(picked.map((v) => v.trim()).filter(Boolean))];
  const spec = vs.map((v) => toSpecValue('damage', v));
  if (spec.every((v): v is SearchEnumValue<'damage'> => v !== null)) return { sent: spec, local: [] };
  return { sent: [], local: vs };
}

/**
 * A search as the form gives it (GET /vehicles parameters, whose `damage` may hold any damage word) split into the
 * parameters to send and the local refinements: see splitDamage. Other parameters pass untouched. Never throws.
 */
export function splitSearch<P extends Record<string, unknown>>(
  params: P,
): { params: Omit<P, 'damage'> & { damage?: SearchEnumValue<'damage'>[] }; refine: LocalRefinements } {
  const raw = params['damage'];
  const { damage: _d, ...rest } = params;
  if (!Array.isArray(raw)) return { params: rest, refine: {} };
  const { sent, local } = splitDamage(raw.map(String));
  return {
    params: { ...rest, ...(sent.length ? { damage: sent } : {}) },
    refine: local.length ? { damage: local } : {},
  };
}

/**
 * The form's view of a saved search: its sent `damage` and its local damage refinement in one list again (the
 * inverse of splitSearch), so the damage field shows every pick. Never throws.
 */
export function joinSearch(
  params: Readonly<Record<string, unknown>>,
  refine: LocalRefinements | null | undefined,
): Record<string, unknown> {
  if (isUnrefined(refine)) return { ...params };
  const sent = Array.isArray(params['damage']) ? params['damage'].map(String) : [];
  return { ...params, damage: [...new Set([...sent, ...(refine?.damage ?? [])])] };
}

/**
 * Whether a lot passes the refinements: with a damage refinement, its primary damage (the record's `damage`,
 * docs/service-contract.md "Records": `condition.primary_damage`) must equal one of the picked words, ignoring case and separators;
 * a lot without a primary damage does not pass. Secondary damage is not read: a buyer picking "Front end" wants
 * lots whose main damage is the front. Never throws.
 */
export function passesRefinements(
  lot: { readonly damage?: string | null },
  r: LocalRefinements | null | undefined,
): boolean {
  const wanted = r?.damage;
  if (!wanted?.length) return true;
  const d = lot.damage ? word(lot.damage) : '';
  return d !== '' && wanted.some((w) => word(w) === d);
}

/** The specification's damage values, for a form that lists them before the local kinds. */
export const SENDABLE_DAMAGE: readonly string[] = SEARCH_ENUMS.damage;
