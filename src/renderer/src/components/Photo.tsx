import { useEffect, useState } from 'react';
import { api } from '../api';

const memo = new Map<string, string>();

/**
 * A lot photo loaded through the contract (`photos.get`: the image proxy once, then the disk cache), so it works
 * offline once seen. Shows a neutral placeholder while loading or when the photo cannot be had.
 */
export function Photo({ url, lotKey, alt, className }: { url: string | null; lotKey?: string; alt: string; className?: string }) {
  const [src, setSrc] = useState<string | null>(url ? (memo.get(url) ?? null) : null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!url || memo.has(url)) return;
    let live = true;
    void api.invoke('photos.get', { url, ...(lotKey ? { lot_key: lotKey } : {}) }).then((r) => {
      if (!live) return;
      if (r.ok) {
        memo.set(url, r.value.data_url);
        setSrc(r.value.data_url);
      } else setFailed(true);
    });
    return () => {
      live = false;
    };
  }, [url, lotKey]);
  if (src) return <img src={src} alt={alt} className={className} />;
  return (
    <div className={`photo-placeholder ${className ?? ''}`} role="img" aria-label={failed ? `${alt} (no photo)` : alt}>
      {failed ? 'No photo' : ''}
    </div>
  );
}
