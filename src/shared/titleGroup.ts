/**
 * The title group of a lot: what its title document lets a buyer do with the car, in the three groups buyers price
 * by (a clean title, a salvage title that may be rebuilt and registered, a document that allows parts or scrap
 * only). Read from the title document's name as the service sends it (real `sale_document.name`, e.g. "SALVAGE -
 * REPAIRABLE-COLLISION", "MV-907A", "CERTIFICATE OF DESTRUCTION"; docs/service-contract.md "Records"), pure and
 * zod-free so comparable sales, the fees by title and the renderer name a group the same way.
 */

/** The three groups, and `unknown` for a document Lotwatch cannot place (never guessed into a group). */
export const TITLE_GROUPS = ['clean', 'salvage_repairable', 'non_repairable', 'unknown'] as const;
export type TitleGroup = (typeof TITLE_GROUPS)[number];

/** What a buyer reads for each group. */
export const TITLE_GROUP_LABEL: Readonly<Record<TitleGroup, string>> = {
  clean: 'clean title',
  salvage_repairable: 'salvage, repairable',
  non_repairable: 'non-repairable (parts or scrap only)',
  unknown: 'title group unknown',
};

/**
 * Documents that allow parts or scrap only: non-repairable, certificate of destruction, junk, parts only,
 * dismantler or scrap certificates. Checked first: "NON-REPAIRABLE" contains "REPAIRABLE".
 */
const NON_REPAIRABLE =
  /\bNON[\s-]*REPAIRABLE\b|\bNOT[\s-]+REPAIRABLE\b|DESTRUCTION|\bJUNK\b|\bPARTS[\s-]+ONLY\b|\bSCRAP\b|DISMANTL|\bCRUSH|\bIRREPARABLE\b|\bNON[\s-]*REBUILDABLE\b/;

/**
 * Salvage documents a car may be rebuilt from, and rebuilt titles: salvage (any state's wording), repairable,
 * rebuilt or reconstructed, flood, and New York's MV-907A salvage certificate (in the real survey's records).
 */
const SALVAGE_REPAIRABLE =
  /SALVAGE|\bREPAIRABLE\b|\bREBUIL[DT]|RECONSTRUCT|\bFLOOD\b|\bMV[\s-]*907A\b|\bTOTAL[\s-]+LOSS\b|\bREPAIRED\b/;

/** Clean titles: clean, clear, an original or certificate of title without a brand. */
const CLEAN =
  /\bCLEAN\b|\bCLEAR\b|\bORIGINAL\b|^CERTIFICATE OF TITLE$|^TITLE$|^MV[\s-]*1\b|\bCERT(IFICATE)? OF TITLE\b/;

/**
 * The title group of a title document's name (case and spacing ignored): non-repairable words first, then salvage
 * and rebuilt words, then clean words; anything else (a bill of sale, an unknown state form, no document) is
 * `unknown`, never guessed.
 *
 * @param name the title document's name as received, or null.
 * @returns the group. Throws nothing.
 */
export function titleGroupOf(name: string | null | undefined): TitleGroup {
  const t = (name ?? '').trim().toUpperCase().replace(/\s+/g, ' ');
  if (t === '') return 'unknown';
  if (NON_REPAIRABLE.test(t)) return 'non_repairable';
  if (SALVAGE_REPAIRABLE.test(t)) return 'salvage_repairable';
  if (CLEAN.test(t)) return 'clean';
  return 'unknown';
}
