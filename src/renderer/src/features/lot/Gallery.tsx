import { useState, type KeyboardEvent } from 'react';
import { Photo } from '../../components/Photo';
import { Modal } from '../../components/Modal';

/**
 * Lot photos: a large photo and a strip of thumbnails. Left/Right switch photos (in the strip and in the
 * large view); Enter on the photo opens the large view and Escape closes it. With `thumbs` off (a real key),
 * the strip shows numbers instead of images, so only the photo shown costs a request.
 */
export function Gallery({
  photos,
  lotKey,
  title,
  thumbs,
}: {
  photos: string[];
  lotKey: string;
  title: string;
  thumbs: boolean;
}) {
  const [index, setIndex] = useState(0);
  const [large, setLarge] = useState(false);
  if (!photos.length)
    return <div className="gallery-empty photo-placeholder">No photos listed for this lot</div>;
  const n = photos.length;
  const go = (d: number) => setIndex((i) => (i + d + n) % n);
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowRight') {
      e.preventDefault();
      go(1);
    } else if (e.key === 'ArrowLeft') {
      e.preventDefault();
      go(-1);
    }
  };
  const url = photos[index] ?? null;
  return (
    <div className="gallery" onKeyDown={onKey}>
      <button
        type="button"
        className="gallery-main"
        onClick={() => setLarge(true)}
        aria-label={`Photo ${index + 1} of ${n}: open the large view`}
      >
        <Photo
          url={url}
          lotKey={lotKey}
          alt={`${title}, photo ${index + 1} of ${n}`}
          className="gallery-img"
        />
        <span className="gallery-count">
          {index + 1} / {n}
        </span>
      </button>
      <div className="gallery-strip" role="group" aria-label="Photos">
        {photos.map((p, i) => (
          <button
            key={p}
            type="button"
            className={i === index ? 'gallery-thumb current' : 'gallery-thumb'}
            aria-label={`Photo ${i + 1}`}
            aria-current={i === index ? 'true' : undefined}
            onClick={() => setIndex(i)}
          >
            {thumbs ? (
              <Photo url={p} lotKey={lotKey} alt="" className="gallery-thumb-img" />
            ) : (
              <span>{i + 1}</span>
            )}
          </button>
        ))}
      </div>
      {large && (
        <Modal title={`${title}: photos`} onClose={() => setLarge(false)} className="lightbox">
          <div className="lightbox-body" onKeyDown={onKey}>
            <Photo
              url={url}
              lotKey={lotKey}
              alt={`${title}, photo ${index + 1} of ${n}`}
              className="lightbox-img"
            />
            <div className="lightbox-bar">
              <button type="button" onClick={() => go(-1)} aria-label="Previous photo">
                ←
              </button>
              <span>
                {index + 1} / {n} · ←/→ to browse, Esc to close
              </span>
              <button type="button" onClick={() => go(1)} aria-label="Next photo" data-autofocus>
                →
              </button>
              <button type="button" onClick={() => setLarge(false)}>
                Close
              </button>
            </div>
          </div>
        </Modal>
      )}
    </div>
  );
}
