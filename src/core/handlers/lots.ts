import { LotwatchError } from '../errors';
import type { HandlerContext, HandlerGroup } from './context';

type LotMethods =
  | 'lots.get'
  | 'photos.get'
  | 'vehicles.search'
  | 'vehicles.filters'
  | 'vehicles.get'
  | 'vehicles.history'
  | 'vehicles.related'
  | 'shipping.get'
  | 'locations.list';

/**
 * Lots and vehicles: a stored lot with its timeline, photos (cached on disk; a failed photo is not asked for again
 * for a day), and the live calls of Search and the lot page, each storing what it fetched. Throws not_found,
 * unauthorized without a client, ApiError from the service.
 */
export function lotHandlers(c: HandlerContext): HandlerGroup<LotMethods> {
  return {
    'lots.get': (i) => c.service.lotDetail(i.lot_key),
    'photos.get': async (i) => {
      let p = c.photos.read(i.url);
      if (!p) {
        await c.ready;
        const client = c.client();
        if (!client) {
          throw new LotwatchError('not_found', 'This photo is not cached. Add an API key or turn on Demo mode to load it.');
        }
        // A photo that failed is not asked for again for a day: each try is a request of the user's quota.
        if (c.photos.recentFailure(i.url, c.clock.now())) {
          throw new LotwatchError('not_found', 'This photo could not be loaded. Lotwatch tries it again after a day.');
        }
        try {
          const img = await client.fetchImage(i.url);
          p = c.photos.write(i.url, i.lot_key ?? null, img.bytes, img.contentType, c.clock.now());
        } catch (e) {
          // Refused before sending (a malformed URL) costs nothing, so only failures of a sent request count.
          if ((e as LotwatchError).code !== 'bad_input') c.photos.recordFailure(i.url, (e as LotwatchError).code ?? 'internal', c.clock.now());
          throw e;
        }
      }
      return { data_url: `data:${p.contentType};base64,${p.bytes.toString('base64')}`, content_type: p.contentType, cached: p.cached };
    },
    'vehicles.search': async (i) => {
      await c.ready;
      return c.explore.search(i);
    },
    'vehicles.filters': async () => {
      await c.ready;
      return c.explore.filters();
    },
    'vehicles.get': async (i) => {
      await c.ready;
      return c.explore.get(i);
    },
    'vehicles.history': async (i) => {
      await c.ready;
      return c.explore.history(i);
    },
    'vehicles.related': async (i) => {
      await c.ready;
      return c.explore.related(i);
    },
    'shipping.get': async (i) => {
      await c.ready;
      return c.explore.shipping(i);
    },
    'locations.list': async (i) => {
      await c.ready;
      return c.explore.locations(i);
    },
  };
}
