import sharp from 'sharp';
import { hash32 } from './rng';
import type { Lot } from './market';
import type { PhotoRef } from './records';

/**
 * Photos for the image proxy (spec "GET /image-proxy"): a real JPEG, PNG or WebP per lot and photo index, drawn
 * from an SVG (a gradient in the car's colour with its title) by sharp. Deterministic for (seed, lot, index, size,
 * format); the last few are kept in a small LRU because a UI asks for the same thumbnails again and again.
 */

const PAINT: Record<string, string> = {
  Black: '#1c1c1c',
  White: '#f2f2f2',
  Silver: '#c0c4c8',
  Gray: '#7d8186',
  Blue: '#1f4e9c',
  Red: '#b3202a',
  Green: '#2f6b3a',
  Brown: '#6b4a2f',
  Gold: '#c9a544',
  Orange: '#e07a1f',
  Yellow: '#e8cf3a',
  Beige: '#d9c9a3',
};

/**
 * A font size (px) at most `size` at which `text` fits in `room` px: sans-serif capitals and digits average about
 * 0.7 em wide (DejaVu Sans, which librsvg falls back to), so a long title shrinks rather than running off a
 * thumbnail's edges. Never under 6 px.
 */
export function fittedFontSize(text: string, size: number, room: number): number {
  return Math.max(6, Math.min(size, Math.floor(room / (0.72 * Math.max(1, text.length)))));
}

const esc = (s: string): string =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

export class ImageCache {
  private readonly cache = new Map<string, Buffer>();
  constructor(
    private readonly seed: number,
    private readonly max = 64,
  ) {}

  /** The encoded image; content type image/{ref.format}. */
  async render(lot: Lot, ref: PhotoRef): Promise<Buffer> {
    const key = `${lot.lotNumber}:${ref.idx}:${ref.width}x${ref.height}:${ref.format}`;
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    const { width: w, height: h } = ref;
    const paint = PAINT[lot.v.color] ?? '#888888';
    const hue = hash32(this.seed, Number(lot.lotNumber), ref.idx) % 360;
    const fs = Math.max(8, Math.round(h / 12));
    const caption = `${lot.platform.toUpperCase()} LOT ${lot.lotNumber} - ${ref.idx + 1}/${lot.photos}`;
    const titleFs = fittedFontSize(lot.title, fs, w * 0.92);
    const captionFs = fittedFontSize(caption, Math.round(fs * 0.8), w * 0.92);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},35%,78%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},30%,40%)"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>
<rect x="${w * 0.15}" y="${h * 0.45}" width="${w * 0.7}" height="${h * 0.22}" rx="${h * 0.06}" fill="${paint}" stroke="#222" stroke-width="2"/>
<rect x="${w * 0.3}" y="${h * 0.32}" width="${w * 0.4}" height="${h * 0.16}" rx="${h * 0.05}" fill="${paint}" stroke="#222" stroke-width="2"/>
<circle cx="${w * 0.3}" cy="${h * 0.68}" r="${h * 0.08}" fill="#111"/><circle cx="${w * 0.7}" cy="${h * 0.68}" r="${h * 0.08}" fill="#111"/>
<text x="${w / 2}" y="${fs * 1.5}" font-family="sans-serif" font-size="${titleFs}" text-anchor="middle" fill="#111">${esc(lot.title)}</text>
<text x="${w / 2}" y="${h - fs * 0.8}" font-family="sans-serif" font-size="${captionFs}" text-anchor="middle" fill="#fff">${esc(caption)}</text>
</svg>`;
    const img = sharp(Buffer.from(svg));
    const out = await (
      ref.format === 'png'
        ? img.png()
        : ref.format === 'webp'
          ? img.webp({ quality: 70 })
          : img.jpeg({ quality: 75 })
    ).toBuffer();
    this.cache.set(key, out);
    if (this.cache.size > this.max) this.cache.delete(this.cache.keys().next().value as string);
    return out;
  }
}
