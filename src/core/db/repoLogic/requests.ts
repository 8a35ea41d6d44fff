import type { QuotaSnapshot } from '../../../shared/vehicle';

/*
 * The request log's and quota snapshot's logic that is not SQL, shared by the SQLite repository (requestsRepo.ts)
 * and the Kysely one (kysely/requestsRepo.ts), so both engines read and write the same way.
 */

/** The quota snapshot as stored in `quota.snapshot` (JSON text). Pure. */
export function quotaText(q: QuotaSnapshot): string {
  return JSON.stringify(q);
}

/** A stored `quota.snapshot` as the snapshot it was. Pure. @throws SyntaxError for text that is not JSON. */
export function quotaOf(text: string): QuotaSnapshot {
  return JSON.parse(text) as QuotaSnapshot;
}
