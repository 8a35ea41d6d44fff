import { z } from 'zod';

/**
 * The Library's facets: what a buyer sorts stored lots on, each read from the normalised record
 * (src/shared/vehicle.ts; the real service's `condition`, `sale_document`, `seller` and `auction` parts,
 * docs/service-contract.md). Values are the record's own words ("Hail", "SALVAGE - REPAIRABLE-COLLISION",
 * "Run and Drive"), except `keys` and `export` ("yes" | "no") and `sale_month` (YYYY-MM of the sale date).
 */
export const LIBRARY_FACETS = [
  'damage',
  'secondary_damage',
  'title_document',
  'run_condition',
  'keys',
  'seller_type',
  'export',
  'sale_result',
  'sale_month',
] as const;
export type LibraryFacet = (typeof LIBRARY_FACETS)[number];

/** A facet's heading in the Library. */
export const FACET_LABELS: Readonly<Record<LibraryFacet, string>> = {
  damage: 'Primary damage',
  secondary_damage: 'Secondary damage',
  title_document: 'Title document',
  run_condition: 'Run condition',
  keys: 'Keys',
  seller_type: 'Seller type',
  export: 'Export',
  sale_result: 'Sale result',
  sale_month: 'Sale date',
};

/**
 * The values picked per facet: a lot passes a facet when its value is one of the picked ones (any of them), and the
 * filter when it passes every facet with a pick. An empty or missing list is no filter.
 */
export const FacetSelectionSchema = z.partialRecord(
  z.enum(LIBRARY_FACETS),
  z.array(z.string().max(200)).max(100),
);
export type FacetSelection = z.infer<typeof FacetSelectionSchema>;

/**
 * How many lots of the current query carry each value of each facet, most first. A facet's counts apply every
 * other facet's pick but not its own, so the buyer sees what picking another value of it would add. Lots whose
 * record does not say are not counted.
 */
export const FacetCountsSchema = z.array(
  z.object({
    facet: z.enum(LIBRARY_FACETS),
    values: z.array(z.object({ value: z.string(), count: z.number().int() })),
  }),
);
export type FacetCounts = z.infer<typeof FacetCountsSchema>;

/** Whether any facet has a picked value. */
export function hasFacetPick(sel: FacetSelection | undefined): boolean {
  return sel !== undefined && Object.values(sel).some((v) => v !== undefined && v.length > 0);
}
