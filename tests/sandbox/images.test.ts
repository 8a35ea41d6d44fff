import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fittedFontSize, ImageCache } from '../../src/sandbox/images';
import { Market } from '../../src/sandbox/market';
import { START } from './harness';

/**
 * The Demo market's photos draw the vehicle's title and a caption on a light gradient; a long title once ran off a
 * thumbnail's edges ("2010 HYUNDAI SONATA LIMITED" touched both). Dark text pixels in the outermost columns of the
 * photo are that overflow.
 */
async function darkPixelsAtEdges(png: Buffer, rows: [number, number]): Promise<number> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  let dark = 0;
  for (let y = rows[0]; y < rows[1]; y++) {
    for (const x of [0, 1, 2, info.width - 3, info.width - 2, info.width - 1]) {
      const i = (y * info.width + x) * info.channels;
      if ((data[i]! + data[i + 1]! + data[i + 2]!) / 3 < 60) dark++;
    }
  }
  return dark;
}

describe('Demo market photos', () => {
  it('shrink a long title to fit the photo and keep a short one at full size', () => {
    expect(fittedFontSize('2010 HYUNDAI SONATA LIMITED', 25, 368)).toBeLessThan(25);
    expect(fittedFontSize('2019 KIA SOUL', 25, 368)).toBe(25);
    expect(fittedFontSize('X'.repeat(500), 25, 100)).toBe(6);
  });

  it('draw the longest title of a market inside a 400 x 300 thumbnail', async () => {
    const m = new Market({ seed: 5, lots: 1500, startTime: START });
    const lot = [...m.lots].sort((a, b) => b.title.length - a.title.length)[0]!;
    expect(lot.title.length).toBeGreaterThan(24);
    const long = { ...lot, title: `${lot.title} LIMITED EDITION` };
    const png = await new ImageCache(5).render(long, {
      platform: lot.platform,
      id: lot.lotNumber,
      idx: 0,
      width: 400,
      height: 300,
      format: 'png',
    });
    // The title's band: font size h / 12 = 25 px, baseline at 1.5 of it.
    expect(await darkPixelsAtEdges(png, [0, 50])).toBe(0);
  });
});
