import { useEffect, useState } from 'react';
import { useApi } from '../api/ApiContext';

const memo = new Map<string, string>();
/** Photos that could not be had in this session, with when (ms): core would refuse them for a day anyway. */
const failedAt = new Map<string, number>();
const RETRY_AFTER_MS = 86_400_000;

const recentlyFailed = (url: string) => {
  const t = failedAt.get(url);
  return t !== undefined && Date.now() - t < RETRY_AFTER_MS;
};

/**
 * A lot photo loaded through the contract (`photos.get`: the image proxy once, then the disk cache), so it works
 * offline once seen. Shows a neutral placeholder while loading or when the photo cannot be had; a photo that
 * failed is not asked for again in this session (core, for its part, does not ask the service again for a day).
 */
export function Photo({
  url,
  lotKey,
  alt,
  className,
}: {
  url: string | null;
  lotKey?: string;
  alt: string;
  className?: string;
}) {
  const api = useApi();
  const [src, setSrc] = useState<string | null>(url ? (memo.get(url) ?? null) : null);
  const [failed, setFailed] = useState(() => url !== null && recentlyFailed(url));
  useEffect(() => {
    if (!url || memo.has(url) || recentlyFailed(url)) return;
    let live = true;
    void api.invoke('photos.get', { url, ...(lotKey ? { lot_key: lotKey } : {}) }).then((r) => {
      if (r.ok) memo.set(url, r.value.data_url);
      else failedAt.set(url, Date.now());
      if (!live) return;
      if (r.ok) setSrc(r.value.data_url);
      else setFailed(true);
    });
    return () => {
      live = false;
    };
  }, [api, url, lotKey]);
  if (src) return <img src={src} alt={alt} className={className} />;
  return (
    <div
      className={`photo-placeholder ${className ?? ''}`}
      role="img"
      aria-label={failed ? `${alt} (no photo)` : alt}
    >
      {failed ? 'No photo' : ''}
    </div>
  );
}
