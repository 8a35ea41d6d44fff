import { AlertRulesSchema, type AlertRules } from '../../shared/watch';

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

/** The id SQLite gave the row a statement inserted, as a number. */
export const insertedId = (r: { lastInsertRowid: number | bigint }): number => Number(r.lastInsertRowid);

/** The result row of a `SELECT count(*) AS n` statement. */
export interface CountRow {
  n: number;
}

/** Runs `fn` in one transaction (Store.transaction): no awaits inside; nested calls join the outer one. */
export type Transaction = <T>(fn: () => T) => T;
