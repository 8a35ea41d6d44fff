import { z } from 'zod';
import { FixedFee, OwnLineSchema } from './fees';
import { DEFAULT_MEMBERSHIP, MEMBERSHIPS, membershipFromLegacy, type Membership } from './feeTable';
import { DestinationsSchema, PORT_CHOICES, PortNameSchema } from './shipping';
import { PLATFORMS } from './vehicle';

/**
 * The buyer's desk (docs/architecture.md "The buyer's desk"): the user's cost settings for landed cost and max bid,
 * and their notes and tags on lots. Shared because Settings edits them, the lot page and the watchlist show the
 * figures they give, and core stores and exports them.
 */

/** The most tags one lot carries, and the longest tag (characters). */
export const MAX_TAGS = 20;
export const MAX_TAG_LENGTH = 40;
/** The longest note on one lot (characters): a page of text. */
export const MAX_NOTES_LENGTH = 10_000;

/**
 * Tags as the user typed them (`export, Needs title ,export`) to a clean list (`['export', 'Needs title']`): split on
 * commas, spaces collapsed, empty ones dropped, each once whatever its case (the first spelling wins). Pure; throws
 * nothing (a tag over MAX_TAG_LENGTH or more than MAX_TAGS are the schema's refusal, see TagsSchema).
 */
export function parseTags(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const part of text.split(',')) {
    const t = part.replace(/\s+/g, ' ').trim();
    if (!t || seen.has(t.toLowerCase())) continue;
    seen.add(t.toLowerCase());
    out.push(t);
  }
  return out;
}

/** A lot's tags as stored in `lots.tags` (comma-separated) and read back with parseTags. */
export function joinTags(tags: readonly string[]): string {
  return tags.join(',');
}

/** A lot's tags as the contract carries them: cleaned with parseTags, at most MAX_TAGS of MAX_TAG_LENGTH each. */
export const TagsSchema = z
  .array(
    z
      .string()
      .max(MAX_TAG_LENGTH, `Keep each tag to ${MAX_TAG_LENGTH} characters.`)
      .refine((t) => !t.includes(','), 'A tag cannot hold a comma.'),
  )
  .max(MAX_TAGS, `At most ${MAX_TAGS} tags on a lot.`)
  .transform((ts) => parseTags(ts.join(',')));

const kindsOf = <P extends keyof Membership>(p: P) =>
  Object.keys(MEMBERSHIPS[p]) as [Membership[P], ...Membership[P][]];

/**
 * The buyer's membership kind per platform (src/shared/feeTable.ts MEMBERSHIPS). Settings saved before held the fee
 * table itself (`standard_non_clean_secured`): such a value reads as the membership it meant (its payment kind); the
 * title part now comes from each lot's title document. An unknown kind is refused with a sentence.
 */
const MembershipSchema = z.preprocess(
  (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    const out: Record<string, unknown> = { ...o };
    for (const p of PLATFORMS) if (p in o) out[p] = membershipFromLegacy(p, o[p]) ?? o[p];
    return out;
  },
  z
    .object({
      copart: z
        .enum(kindsOf('copart'), 'Choose a Copart membership Lotwatch lists.')
        .default(DEFAULT_MEMBERSHIP.copart),
      iaai: z
        .enum(kindsOf('iaai'), 'Choose an IAAI membership Lotwatch lists.')
        .default(DEFAULT_MEMBERSHIP.iaai),
    })
    .strict(),
);

/**
 * How the user buys: their membership kind on each platform (which, with each lot's title document, picks the fee
 * table of data/fees/<platform>.json), the port their vehicles ship to (a port of the shipping endpoints) or each lot's
 * cheapest port, their ocean freight and duty per destination (src/shared/shipping.ts), fee lines
 * they never pay (`omit_fees`, e.g. the internet bid fee for a buyer in the yard) or always pay (`custom_fees`, e.g. a
 * broker's fee), and their own lines after the auction (ocean freight, duty as a percentage of the bid, repairs, a
 * margin). Amounts in USD.
 */
export const DeskSettingsSchema = z
  .object({
    membership: MembershipSchema.default({ ...DEFAULT_MEMBERSHIP }),
    port: PortNameSchema.default('Savannah'),
    /** `port`: every landed cost uses `port`; `cheapest`: each lot's cheapest priced port (resolveCosts). */
    port_choice: z.enum(PORT_CHOICES).default('port'),
    /** Ocean freight and duty per destination (port -> country), the buyer's own numbers; empty: not exporting. */
    destinations: DestinationsSchema.default([]),
    omit_fees: z.array(z.string().max(40)).max(20).default([]),
    custom_fees: z.array(FixedFee).max(20, 'At most 20 fee lines.').default([]),
    own_lines: z.array(OwnLineSchema).max(20, 'At most 20 lines.').default([]),
  })
  .strict();
export type DeskSettings = z.infer<typeof DeskSettingsSchema>;
