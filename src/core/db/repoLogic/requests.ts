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

/**
 * The request budget's view of the request log (RequestsRepo.spendOf): `spentSince` and `sentSince` of the quota
 * `quotaId()` names, read again at each call (the key can change). `spentFor` and `sentFor` are the repository's
 * per-quota reads; N and L are what they return (numbers on SQLite, promises of them on the async engines). Pure.
 */
export function spendVia<N, L>(
  quotaId: () => string | null,
  spentFor: (quotaId: string | null, since: number) => N,
  sentFor: (quotaId: string | null, since: number) => L,
): { spentSince: (since: number) => N; sentSince: (since: number) => L } {
  return {
    spentSince: (since) => spentFor(quotaId(), since),
    sentSince: (since) => sentFor(quotaId(), since),
  };
}
