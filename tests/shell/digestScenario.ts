import { expect } from 'vitest';
import type { MethodInput, MethodOutput, Method } from '../../src/shared/ipc/contract';
import type { FakeClock } from '../helpers/fakeClock';

const MIN = 60_000;

/** What the scenario needs of a running shell: typed calls, its fake clock, and a way to let the watcher run. */
export interface ShellUnderTest {
  call<M extends Method>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>>;
  clock: FakeClock;
  /** Runs everything due now and waits until the watcher is idle. */
  runDue(): Promise<void>;
  /** The notifications the shell's channel showed so far (titles). */
  shown(): string[];
}

/** `HH:MM` of t on this machine's clock (the shell reads quiet hours in the machine's time zone). */
const hhmm = (t: number) => {
  const d = new Date(t);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

/**
 * A buyer with quiet hours watches a lot that sells during them: nothing is shown while quiet; when the quiet hours
 * end, one digest notification, and the inbox holds one digest entry beside the held alerts; a later round shows
 * nothing more. Returns nothing; fails through expect.
 */
export async function digestAfterQuietHours(s: ShellUnderTest): Promise<void> {
  // Only the buyer's own watch: Demo mode's examples would add alerts of their own after the quiet hours.
  await s.call('examples.remove', undefined);
  const now = s.clock.now();
  // The list starts with lots whose sale time has just passed (a Demo world has been running for a while): page on
  // to the sales ahead.
  const lots: MethodOutput<'vehicles.search'>['lots'] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 10 && !lots.some((l) => (l.auction_at ?? 0) > now + 10 * MIN); i++) {
    const page = await s.call('vehicles.search', { params: {}, ...(cursor ? { cursor } : {}) });
    lots.push(...page.lots);
    cursor = page.meta?.next_cursor ?? undefined;
    if (!cursor) break;
  }
  const lot = lots
    .filter(
      (l) => l.auction_at !== null && l.auction_at > now + 10 * MIN && l.auction_at < now + 4 * 60 * MIN,
    )
    .sort((a, b) => a.auction_at! - b.auction_at!)[0];
  expect(lot, 'a Demo lot selling within hours').toBeDefined();
  const auctionAt = lot!.auction_at!;
  await s.call('watchlist.add', {
    target: lot!.lot_number,
    label: '',
    rules: { kinds: ['bid_changed', 'status_changed', 'sale_result'] },
  });
  const quietEnd = auctionAt + 2 * 60 * MIN;
  await s.call('settings.update', {
    quietHours: { enabled: true, start: hhmm(now - MIN), end: hhmm(quietEnd) },
  });
  const before = s.shown().length;
  // The sale happens in the quiet hours; the watcher sees its result there (the service shows a result some minutes
  // after the sale time: look every 5 minutes for the next hour and a half, all inside the quiet hours).
  for (let t = auctionAt + 5 * MIN; t <= auctionAt + 95 * MIN; t += 5 * MIN) {
    s.clock.advanceTo(t);
    await s.runDue();
  }
  const held = (await s.call('alerts.list', {})).alerts.filter((a) => a.status === 'digest');
  expect(held.map((a) => a.kind)).toContain('sale_result');
  expect(s.shown().length).toBe(before);
  // Quiet hours end: one digest, shown once.
  s.clock.advanceTo(quietEnd + MIN);
  await s.runDue();
  await s.runDue();
  const shown = s.shown().slice(before);
  expect(shown).toHaveLength(1);
  expect(shown[0]).toMatch(/^\d+ alerts? during quiet hours$/);
  const inbox = (await s.call('alerts.list', {})).alerts;
  const digests = inbox.filter((a) => a.kind === 'digest');
  expect(digests).toHaveLength(1);
  expect(digests[0]!.title).toBe(shown[0]);
  expect(inbox.filter((a) => a.status === 'digest')).toEqual([]);
}
