import type { Vehicle } from '../../shared/vehicle';

/**
 * The photos of a lot outlive its sale. The real service's finished records (an Ended search, a lot page after the
 * sale) may come without images (docs/service-contract.md "History"), and a stored record is replaced whole by
 * the next one, so the photos seen while the lot was open would be lost just when a buyer compares it. When `next`
 * has no photo and the stored record (`storedJson`, its normalised JSON, read only then) had some, `next` keeps the
 * stored `media.photos` (and `photos_count`); any photo in `next` replaces them as sent.
 *
 * @returns `next`, or a copy with the stored photos. Throws nothing (an unreadable stored record keeps none).
 */
export function keepSeenPhotos<V extends Vehicle>(next: V, storedJson: () => string | null): V {
  if (next.media.photos.length > 0) return next;
  const json = storedJson();
  if (json === null) return next;
  let media: unknown;
  try {
    media = (JSON.parse(json) as { media?: unknown } | null)?.media;
  } catch {
    return next;
  }
  if (typeof media !== 'object' || media === null) return next;
  const m = media as { photos?: unknown; photos_count?: unknown };
  const photos = Array.isArray(m.photos) ? m.photos.filter((p): p is string => typeof p === 'string') : [];
  if (photos.length === 0) return next;
  const count = typeof m.photos_count === 'number' ? { photos_count: m.photos_count } : {};
  return { ...next, media: { ...next.media, photos, ...count } };
}
