import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSecretBox } from '../../src/core/secrets';
import { CALENDAR_SECRET, CalendarFeed, type SecretRows } from '../../src/headless/calendarFeed';
import { tempDir } from '../helpers/tmp';

// The calendar subscription's secret: stored encrypted, the same on every start, replaced only on request, and made
// anew (not a crash) when the key file that encrypted it was replaced.

function rows(): SecretRows & { map: Map<string, Buffer> } {
  const map = new Map<string, Buffer>();
  return {
    map,
    getSecret: async (n) => map.get(n) ?? null,
    setSecret: async (n, c) => void map.set(n, c),
  };
}

describe('CalendarFeed', () => {
  it('stores its secret encrypted and gives the same one to the next start', async () => {
    const d = tempDir();
    const r = rows();
    const box = new FileSecretBox(join(d.dir, 'secret.key'));
    const first = await new CalendarFeed({ rows: r, box, now: () => 1 }).load();
    expect(first).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(r.map.get(CALENDAR_SECRET)!.toString('latin1')).not.toContain(first);
    const again = new CalendarFeed({
      rows: r,
      box: new FileSecretBox(join(d.dir, 'secret.key')),
      now: () => 2,
    });
    expect(() => again.current()).toThrow('CalendarFeed.load');
    expect(await again.load()).toBe(first);
    expect(again.current()).toBe(first);
    expect(again.opens(first)).toBe(true);
    const renewed = await again.renew();
    expect(again.opens(first)).toBe(false);
    expect(again.opens(renewed)).toBe(true);
    expect(again.opens('')).toBe(false);
    d.cleanup();
  });

  it('makes a new secret when the stored one cannot be decrypted (the key file was replaced), and says so', async () => {
    const d = tempDir();
    const r = rows();
    const keyFile = join(d.dir, 'secret.key');
    const old = await new CalendarFeed({ rows: r, box: new FileSecretBox(keyFile), now: () => 1 }).load();
    rmSync(keyFile);
    const lost: string[] = [];
    const feed = new CalendarFeed({
      rows: r,
      box: new FileSecretBox(keyFile),
      now: () => 2,
      onLost: (e) => lost.push(e.message),
    });
    await feed.load();
    expect(feed.opens(old)).toBe(false);
    expect(feed.current()).not.toBe(old);
    expect(lost).toHaveLength(1);
    d.cleanup();
  });
});
