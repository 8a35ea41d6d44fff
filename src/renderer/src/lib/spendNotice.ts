import type { Method, MethodInput } from '../../../shared/ipc/contract';

/**
 * The one-time "this uses a request of your quota" notice (a real key's quota is as small as 100 requests a month,
 * docs/service-contract.md "Plans and quota"). Every contract call of the views goes through `call`/`useCall`, which
 * ask `beforeSpend` first; a host component (SpendNoticeHost, mounted once by the app frame) decides whether to say
 * so and waits for the user. Without a host (a view rendered alone) nothing is asked.
 */

/** What each action that sends a request reads as, before "(N left this period)". */
const ACTIONS: Partial<Record<Method, string>> = {
  'vehicles.search': 'Searching uses 1 request of your quota for each page of results',
  'vehicles.get':
    'Opening a lot live uses 1 request of your quota (and 1 more for its photo, the first time)',
  'vehicles.history': 'Loading sale history uses 1 request of your quota',
  'vehicles.attempts':
    "Asking the service for this VIN's attempts uses 1 request of your quota (2 when its sale history is empty)",
  'vehicles.related': 'Loading related lots uses 1 request of your quota',
  'shipping.get': 'Getting shipping prices uses 1 request of your quota',
  'locations.list': 'Listing auction locations uses 1 request of your quota',
  'console.call': 'Each call in the API console uses 1 request of your quota',
  'watchlist.add':
    'Adding a watch uses 1 request of your quota now (none for a lot read in the last minutes), and its checks come out of your daily budget',
  'watchlist.checkNow': 'Checking a watch now uses 1 request of your quota',
  'searches.runNow': 'Running a saved search now uses 1 request of your quota for each page it reads',
  'desk.marketComps':
    'Finding sold comparables on the service uses 1 request of your quota (2 when the first page is full), then none for a day',
};

/**
 * The notice's sentence for a call that spends quota, or null for one that does not (local reads; a lot opened
 * from the stored copy; Test key and Refresh usage, which say their cost beside their buttons).
 */
export function spendingAction<M extends Method>(
  method: M,
  input: MethodInput<M> | undefined,
): string | null {
  if (method === 'vehicles.get' && (input as MethodInput<'vehicles.get'> | undefined)?.refresh === false)
    return null;
  if (method === 'vehicles.attempts' && (input as MethodInput<'vehicles.attempts'> | undefined)?.ask !== true)
    return null;
  return ACTIONS[method] ?? null;
}

/** One question to the host: may `method` send its request? */
export interface SpendAsk {
  method: Method;
  /** The notice's sentence, e.g. "Searching uses 1 request of your quota for each page of results". */
  what: string;
}

let host: ((ask: SpendAsk) => Promise<boolean>) | null = null;

/** Installs the host that answers `beforeSpend`; returns the function that removes it. */
export function setSpendHost(h: (ask: SpendAsk) => Promise<boolean>): () => void {
  host = h;
  return () => {
    if (host === h) host = null;
  };
}

/**
 * Resolves true when the call may go ahead: it spends nothing, there is no host, or the host said yes (it has said
 * so before, Demo mode, or the user pressed Continue); false when the user chose not to send it.
 */
export async function beforeSpend<M extends Method>(
  method: M,
  input: MethodInput<M> | undefined,
): Promise<boolean> {
  const what = spendingAction(method, input);
  if (!what || !host) return true;
  return host({ method, what });
}
