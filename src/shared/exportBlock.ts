import { z } from 'zod';
import { titleGroupOf } from './titleGroup';

/**
 * Titles that block export or registration: what an exporter must see before bidding on a lot. Read from the
 * normalised title document (src/shared/vehicle.ts `title_document`): the service's own export flag (real
 * `sale_document.export`, docs/service-contract.md "Searching ended lots": false on some salvage documents too) and
 * the document's name and IAAI's title brand, placed by titleGroupOf (src/shared/titleGroup.ts); the scrap-only
 * group is told apart here by its words. Pure, so core (summaries, alert texts, the "exportable title" rule) and the
 * renderer (marks, the Library filter) name a block the same way.
 */

/** Why a lot is blocked, most specific first: the document's own words before the service's export flag. */
export const EXPORT_BLOCK_REASONS = [
  'destruction',
  'parts_only',
  'junk',
  'non_repairable',
  'export_false',
] as const;
export type ExportBlockReason = (typeof EXPORT_BLOCK_REASONS)[number];

/**
 * A block: its reason, the mark's short words (`label`, e.g. "Certificate of destruction") and the sentence that
 * says why (`text`, the mark's tooltip and the alert's words).
 */
export const ExportBlockSchema = z.object({
  reason: z.enum(EXPORT_BLOCK_REASONS),
  label: z.string(),
  text: z.string(),
});
export type ExportBlock = z.infer<typeof ExportBlockSchema>;

/** The title document as the classifier reads it: any of the normalised fields, absent on records stored before. */
export interface TitleDocumentLike {
  name?: string | null;
  /** The service's export flag: false = the document does not let the car leave the country; null = not sent. */
  export?: boolean | null;
  /** IAAI's title brand (real `details.attributes.TitleBrand`), e.g. REPAIRABLE-COLLISION. */
  brand?: string | null;
}

/** The mark's words and the sentence for each reason. */
export const EXPORT_BLOCK_WORDS: Readonly<Record<ExportBlockReason, { label: string; text: string }>> = {
  destruction: {
    label: 'Certificate of destruction',
    text: 'Certificate of destruction: the car can never be registered or exported, only dismantled for parts or scrap.',
  },
  parts_only: {
    label: 'Parts only',
    text: 'Parts only: the car cannot be registered or exported as a vehicle.',
  },
  junk: {
    label: 'Junk title',
    text: 'Junk title: the car cannot be registered or exported as a vehicle.',
  },
  non_repairable: {
    label: 'Non-repairable',
    text: 'Non-repairable title: the car cannot be registered for the road again, and most countries refuse it.',
  },
  export_false: {
    label: 'Not exportable',
    text: 'The service marks this title document as not exportable: the car cannot leave the US on it.',
  },
};

const DESTRUCTION = /DESTRUCTION|\bCRUSH/;
const PARTS_ONLY = /\bPARTS[\s-]+ONLY\b/;
const JUNK = /\bJUNK\b/;

/** Which scrap-only reason a name or brand of the non-repairable group gives (titleGroupOf already placed it). */
function scrapReason(words: string): ExportBlockReason {
  const t = words.toUpperCase();
  if (DESTRUCTION.test(t)) return 'destruction';
  if (PARTS_ONLY.test(t)) return 'parts_only';
  if (JUNK.test(t)) return 'junk';
  return 'non_repairable';
}

/**
 * Whether a lot's title blocks export or registration, and why.
 *
 * In order: the document's name, then IAAI's title brand, placed by titleGroupOf: a scrap-only document (certificate
 * of destruction, parts only, junk, non-repairable, scrap or dismantler papers) blocks, told apart by its words;
 * else the service's export flag false blocks (`export_false`). When the words block and the flag is false too, the
 * sentence says both. A clean or salvage document with the flag true or not sent blocks nothing; so does no
 * document at all (nothing is guessed: see exportStatusOf for "not stated").
 *
 * @param doc the normalised title document (`name`, `export`, `brand`), or null/undefined.
 * @param titleBrand IAAI's title brand when the caller has it apart; defaults to `doc.brand`.
 * @returns null when nothing blocks, else the block. Throws nothing.
 */
export function exportBlock(
  doc: TitleDocumentLike | null | undefined,
  titleBrand: string | null | undefined = doc?.brand,
): ExportBlock | null {
  const flagFalse = doc?.export === false;
  for (const words of [doc?.name, titleBrand]) {
    if (typeof words !== 'string' || titleGroupOf(words) !== 'non_repairable') continue;
    const reason = scrapReason(words);
    const w = EXPORT_BLOCK_WORDS[reason];
    return {
      reason,
      label: w.label,
      text: flagFalse ? `${w.text} The service also marks it not exportable.` : w.text,
    };
  }
  if (flagFalse) return { reason: 'export_false', ...EXPORT_BLOCK_WORDS.export_false };
  return null;
}

/** A lot's export standing: blocked (see exportBlock), exportable (the service says so), or not stated. */
export type ExportStatus = 'blocked' | 'exportable' | 'not_stated';

/**
 * The export standing of a title document: `blocked` when exportBlock finds a block, `exportable` when the service's
 * flag is true, else `not_stated` (a specification-dialect record, or one stored before the flag was read).
 * Throws nothing.
 */
export function exportStatusOf(doc: TitleDocumentLike | null | undefined): ExportStatus {
  if (exportBlock(doc) !== null) return 'blocked';
  return doc?.export === true ? 'exportable' : 'not_stated';
}
