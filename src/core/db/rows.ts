import { AlertRulesSchema, type AlertRules } from '../../shared/watch';
import { StoredSearchParamsSchema, type SearchParams } from '../../shared/queryParams';

/** A SQLite boolean (0/1) as a boolean; anything but 1 (or true) is false. */
export const bool = (v: unknown): boolean => v === 1 || v === true;

/**
 * Stored alert rules (JSON text) with the defaults for anything missing; a damaged or invalid rule set reads as
 * the defaults, so one bad row never stops the watch engine. Throws only for text that is not JSON at all.
 */
export function parseStoredRules(json: string): AlertRules {
  const r = AlertRulesSchema.safeParse(JSON.parse(json));
  return r.success ? r.data : AlertRulesSchema.parse({});
}

/**
 * A saved search's stored parameters (JSON text) as StoredSearchParamsSchema reads them: the object as it was saved
 * (checked by SearchParamsSchema then), or no parameters when the text is valid JSON but not an object (only a damaged
 * file could hold that; the stored text stays in the row and the search reads as one without filters, as it always
 * has). Throws only for text that is not JSON at all.
 */
export function parseStoredParams(json: string): SearchParams {
  const r = StoredSearchParamsSchema.safeParse(JSON.parse(json));
  return r.success ? r.data : {};
}

/** The id SQLite gave the row a statement inserted, as a number. */
export const insertedId = (r: { lastInsertRowid: number | bigint }): number => Number(r.lastInsertRowid);

/** The result row of a `SELECT count(*) AS n` statement. */
export interface CountRow {
  n: number;
}
