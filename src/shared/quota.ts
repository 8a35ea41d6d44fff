import { format } from 'date-fns';

/**
 * How Lotwatch says that the plan's requests are used up (docs/service-contract.md "Plans and quota": a spent quota
 * lasts until the subscription period ends). One wording for the error, the alert and the Usage page, so the buyer
 * reads the same sentence everywhere. Dates read as dates ("12 December 2026") in this computer's time zone; a date
 * the buyer waits for carries its year, so a wait that a service stretched past this year never reads as a date
 * this year.
 */

/** `12 December` for a time in ms since the epoch (this computer's time zone); for dates in the past period. */
export function dayMonth(ms: number): string {
  return format(ms, 'd MMMM');
}

/** `12 December 2026` for a time in ms since the epoch (this computer's time zone): a day the buyer waits for. */
export function dayMonthYear(ms: number): string {
  return format(ms, 'd MMMM yyyy');
}

/** `12 December 2026, 14:30` for a time in ms since the epoch (this computer's time zone): when a wait ends. */
export function untilWords(ms: number): string {
  return format(ms, 'd MMMM yyyy, HH:mm');
}

/**
 * "Your plan's monthly requests are used up until 12 December 2026." When the period end is unknown (ms since the
 * epoch, or null), the sentence says "for this period" instead of a date. Throws nothing.
 */
export function quotaSpentSentence(periodEnd: number | null): string {
  return periodEnd === null
    ? "Your plan's monthly requests are used up for this period."
    : `Your plan's monthly requests are used up until ${dayMonthYear(periodEnd)}.`;
}
