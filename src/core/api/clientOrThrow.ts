import { LotwatchError } from '../errors';
import type { ApiClient } from './client';

/** What a call that needs the service says when there is no client: no key for this service, and Demo mode off. */
export const NO_CLIENT_MESSAGE =
  'No API key is set. Add your key in Settings, or turn on Demo mode to use the simulated market.';

/**
 * The client for the current key and mode, for a call that must reach the service (a search, a check, a console
 * call). The one place the "no key" answer is written, so every domain says it the same way.
 * @throws LotwatchError `unauthorized` when there is no client (no key for the service URL's origin, Demo mode off).
 */
export function clientOrThrow(client: ApiClient | null): ApiClient {
  if (!client) throw new LotwatchError('unauthorized', NO_CLIENT_MESSAGE);
  return client;
}

/** How a domain module reaches the service: the client as it is now (null without one), or it or the "no key" error. */
export interface ClientAccess {
  /** The client for the current key and mode, or null. */
  client(): ApiClient | null;
  /** The client, or the one "no key" error (`clientOrThrow`). @throws LotwatchError `unauthorized`. */
  clientOrThrow(): ApiClient;
}
