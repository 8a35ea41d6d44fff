import type { ApiClient } from '../api';
import type { Clock } from '../clock';
import type { PhotoCache } from '../db/photoCache';
import { LotwatchError } from '../errors';
import type { HandlerGroup } from '../handlerGroups';
import type { LotsService } from './service';

/** What the lots handlers need beyond the service: the photo cache, and the client once it is set up. */
export interface LotHandlerDeps {
  lots: LotsService;
  photos: PhotoCache;
  clock: Clock;
  /** The client for the current key and mode, or null. */
  client(): ApiClient | null;
  /** Resolves once the client for the current mode is set up (calls that reach the service wait for it). */
  ready: Promise<void>;
}

type LotMethods =
  | 'lots.get'
  | 'photos.get'
  | 'library.search'
  | 'vehicles.get'
  | 'vehicles.history'
  | 'vehicles.attempts'
  | 'vehicles.related'
  | 'shipping.get';

/**
 * Lots: a stored lot with its timeline, the offline library, photos (cached on disk; a failed photo is not asked
 * for again for a day), and the live calls of the lot page, each storing what it fetched. Throws not_found,
 * unauthorized without a client, ApiError from the service.
 */
export function lotHandlers(c: LotHandlerDeps): HandlerGroup<LotMethods> {
  return {
    'lots.get': (i) => c.lots.lotDetail(i.lot_key),
    'library.search': (i) => c.lots.searchLibrary(i),
    'photos.get': async (i) => {
      let p = c.photos.read(i.url);
      if (!p) {
        await c.ready;
        const client = c.client();
        if (!client) {
          throw new LotwatchError(
            'not_found',
            'This photo is not cached. Add an API key or turn on Demo mode to load it.',
          );
        }
        // A photo that failed is not asked for again for a day: each try is a request of the user's quota.
        if (c.photos.recentFailure(i.url, c.clock.now())) {
          throw new LotwatchError(
            'not_found',
            'This photo could not be loaded. Lotwatch tries it again after a day.',
          );
        }
        try {
          const img = await client.fetchImage(i.url);
          p = c.photos.write(i.url, i.lot_key ?? null, img.bytes, img.contentType, c.clock.now());
        } catch (e) {
          // Refused before sending (a malformed URL) costs nothing, so only failures of a sent request count.
          if ((e as LotwatchError).code !== 'bad_input')
            c.photos.recordFailure(i.url, (e as LotwatchError).code ?? 'internal', c.clock.now());
          throw e;
        }
      }
      return {
        data_url: `data:${p.contentType};base64,${p.bytes.toString('base64')}`,
        content_type: p.contentType,
        cached: p.cached,
      };
    },
    'vehicles.get': async (i) => {
      await c.ready;
      return c.lots.get(i);
    },
    'vehicles.history': async (i) => {
      await c.ready;
      return c.lots.history(i);
    },
    'vehicles.attempts': async (i) => {
      // Offline from the store: waiting for the client only when the service is asked.
      if (i.ask) await c.ready;
      return c.lots.attempts(i);
    },
    'vehicles.related': async (i) => {
      await c.ready;
      return c.lots.related(i);
    },
    'shipping.get': async (i) => {
      await c.ready;
      return c.lots.shipping(i);
    },
  };
}
