import { describe, expect, it } from 'vitest';
import {
  buildDigest,
  keyRejectedAlert,
  quotaLowAlert,
  searchEmptyAlert,
  searchFailingAlert,
  usd,
} from '../../../src/core/alerts';
import { T0 } from '../diff/fixtures';

describe('usd', () => {
  it('formats US dollars without cents', () => {
    expect(usd(12_300)).toBe('$12,300');
    expect(usd(0)).toBe('$0');
    expect(usd(999.6)).toBe('$1,000');
    expect(usd(1_250_000)).toBe('$1,250,000');
  });
});

describe('buildDigest', () => {
  const alerts = Array.from({ length: 7 }, (_, i) => ({ title: `Car ${i + 1} · bid $${i}`, body: 'b' }));

  it('summarises N alerts with the first few titles', () => {
    expect(buildDigest(alerts, T0)).toEqual({
      title: '7 alerts during quiet hours',
      body: 'Car 1 · bid $0\nCar 2 · bid $1\nCar 3 · bid $2\nand 4 more',
      dedup_key: `digest:${T0}`,
    });
  });

  it('handles one and a few alerts', () => {
    expect(buildDigest(alerts.slice(0, 1), T0).title).toBe('1 alert during quiet hours');
    expect(buildDigest(alerts.slice(0, 3), T0).body).toBe('Car 1 · bid $0\nCar 2 · bid $1\nCar 3 · bid $2');
    expect(buildDigest([], T0).title).toBe('No alerts during quiet hours');
  });
});

describe('system alerts', () => {
  it('key rejected: deliver now, once per UTC day', () => {
    const a = keyRejectedAlert(Date.UTC(2025, 4, 14, 23, 59));
    expect(a).toMatchObject({
      kind: 'key_rejected',
      delivery: 'now',
      lot_key: null,
      dedup_key: 'key_rejected:2025-05-14',
    });
    expect(keyRejectedAlert(Date.UTC(2025, 4, 14, 0, 0)).dedup_key).toBe(a.dedup_key);
    expect(keyRejectedAlert(Date.UTC(2025, 4, 15, 0, 0)).dedup_key).toBe('key_rejected:2025-05-15');
    expect(a.title).toMatch(/API key/);
  });

  it('quota low: at or under 10% of the limit, once per period', () => {
    const end = Date.UTC(2025, 4, 31);
    expect(quotaLowAlert({ limit: 1000, remaining: 101, periodEnd: end }, T0)).toBeNull();
    const a = quotaLowAlert({ limit: 1000, remaining: 100, periodEnd: end }, T0);
    expect(a).toMatchObject({
      kind: 'quota_low',
      delivery: 'now',
      lot_key: null,
      dedup_key: `quota_low:${end}`,
    });
    expect(a?.body).toBe(
      '100 of 1,000 requests left until May 31, 2025. Checks slow down to stay within the plan.',
    );
    expect(quotaLowAlert({ limit: 1000, remaining: 0, periodEnd: end }, T0 + 1)?.dedup_key).toBe(
      a?.dedup_key,
    );
  });

  it('quota low: nothing when the quota is unknown; a day key when the period end is', () => {
    expect(quotaLowAlert({ limit: null, remaining: 0, periodEnd: null }, T0)).toBeNull();
    expect(quotaLowAlert({ limit: 1000, remaining: null, periodEnd: null }, T0)).toBeNull();
    expect(quotaLowAlert({ limit: 0, remaining: 0, periodEnd: null }, T0)).toBeNull();
    expect(quotaLowAlert({ limit: 1000, remaining: 5, periodEnd: null }, T0)?.dedup_key).toBe(
      'quota_low:day:2025-05-14',
    );
  });

  it('search failing: only at exactly 3 consecutive failures', () => {
    const s = { id: 12, name: 'Audi under 10k' };
    for (const n of [0, 1, 2, 4, 5, 30]) expect(searchFailingAlert(s, n, 'timeout', T0)).toBeNull();
    const a = searchFailingAlert(s, 3, 'The service timed out', T0);
    expect(a).toMatchObject({
      kind: 'search_failing',
      delivery: 'now',
      lot_key: null,
      dedup_key: `search_failing:12:${T0}`,
    });
    expect(a?.title).toBe('Saved search “Audi under 10k” is failing');
    expect(a?.body).toBe('The last 3 checks failed: The service timed out');
  });

  it('search empty: the last run is 0 after three runs with results', () => {
    const s = { id: 'abc', name: 'S5' };
    const a = searchEmptyAlert(s, [5, 2, 1, 0], T0);
    expect(a).toMatchObject({
      kind: 'search_empty',
      delivery: 'now',
      lot_key: null,
      dedup_key: `search_empty:abc:${T0}`,
    });
    expect(searchEmptyAlert(s, [0, 5, 2, 1, 0], T0)?.kind).toBe('search_empty');
    expect(searchEmptyAlert(s, [5, 0, 1, 0], T0)).toBeNull();
    expect(searchEmptyAlert(s, [0, 0, 0, 0], T0)).toBeNull();
    expect(searchEmptyAlert(s, [5, 2, 1, 3], T0)).toBeNull();
    expect(searchEmptyAlert(s, [2, 1, 0], T0)).toBeNull();
    expect(searchEmptyAlert(s, [], T0)).toBeNull();
  });
});
