// @vitest-environment jsdom
import { frozenAtNow, inputsOf, installFake, render } from './fakeApi';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { format, isSameDay } from 'date-fns';
import { describe, expect, it } from 'vitest';
import type { AlertView } from '../../../src/shared/ipc/contract';
import { AlertsView } from '../../../src/renderer/src/features/alerts/AlertsView';
import { errResult, okResult } from '../fakeBridge';
import { AlertRulesSchema } from '../../../src/shared/watch';
import { alert, delivery, lotDetail, lotSummary, MINUTE, NOW, watch } from './fixtures';

frozenAtNow('#/alerts');

const TESLA = 'copart:45416833';
const FORD = 'iaai:39120001';

// Ford: the newest alert of all, but read. Tesla: older, with unread alerts. Lotwatch itself: one unread, oldest.
const inbox: AlertView[] = [
  alert({ id: 1, lot_key: TESLA, title: 'Tesla bid up', read: false, created_at: NOW - 50 * MINUTE }),
  alert({
    id: 2,
    lot_key: FORD,
    title: 'Ford sold',
    kind: 'sale_result',
    read: true,
    created_at: NOW - 2 * MINUTE,
  }),
  alert({
    id: 3,
    lot_key: TESLA,
    title: 'Tesla rescheduled',
    kind: 'rescheduled',
    read: false,
    created_at: NOW - 20 * MINUTE,
  }),
  alert({
    id: 4,
    lot_key: TESLA,
    title: 'Tesla status',
    kind: 'status_changed',
    read: true,
    created_at: NOW - 90 * MINUTE,
  }),
  alert({
    id: 5,
    lot_key: null,
    title: 'Quota low',
    kind: 'quota_low',
    source: 'lotwatch',
    read: false,
    created_at: NOW - 300 * MINUTE,
  }),
];

function listAnswer(alerts: AlertView[]) {
  return okResult({ alerts, unread: alerts.filter((a) => !a.read).length });
}

/** lots.get answers with stored titles for the group headings. */
function lotsGet(input: { lot_key: string } | undefined) {
  const key = input?.lot_key ?? '';
  if (key === TESLA)
    return okResult(lotDetail({ summary: lotSummary({ lot_key: TESLA, title: '2019 TESLA MODEL 3' }) }));
  return errResult('not_found', 'Not stored.');
}

function groupHeadings(): string[] {
  return screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent ?? '');
}

describe('AlertsView', () => {
  it('shows unread groups first, one group per lot with its own alerts, newest first', async () => {
    installFake({ handlers: { 'alerts.list': () => listAnswer(inbox), 'lots.get': lotsGet } });
    render(<AlertsView />);
    expect(await screen.findByText('3 unread')).toBeTruthy();
    await waitFor(() => expect(groupHeadings()[0]).toBe('2019 TESLA MODEL 3'));
    // Groups with unread alerts (newest first) come before the read-only Ford group, although Ford's is newest.
    expect(groupHeadings()).toEqual(['2019 TESLA MODEL 3', 'Lotwatch', 'IAAI · lot 39120001']);

    const tesla = screen.getByRole('list', { name: 'Alerts for 2019 TESLA MODEL 3' });
    const items = within(tesla).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('.al-title')?.textContent)).toEqual([
      'Tesla rescheduled',
      'Tesla bid up',
      'Tesla status',
    ]);
    expect(items.map((li) => li.getAttribute('aria-label')?.startsWith('Unread.'))).toEqual([
      true,
      true,
      false,
    ]);

    const ford = screen.getByRole('list', { name: 'Alerts for IAAI · lot 39120001' });
    expect(within(ford).getAllByRole('listitem')).toHaveLength(1);
    expect(within(ford).getByText('Ford sold')).toBeTruthy();
    const own = screen.getByRole('list', { name: 'Alerts for Lotwatch' });
    expect(within(own).getByText('Quota low')).toBeTruthy();
  });

  it('says an alert is held for quiet hours, and once sent, that it went out in their summary', async () => {
    const quiet = [
      alert({
        id: 11,
        title: 'Tesla bid up at night',
        delivery: 'digest',
        status: 'digest',
        reason: 'quiet_hours',
      }),
      alert({
        id: 12,
        title: 'Tesla sold at night',
        kind: 'sale_result',
        delivery: 'digest',
        status: 'delivered',
        reason: 'quiet_hours',
      }),
      alert({
        id: 13,
        lot_key: null,
        kind: 'digest',
        title: '2 alerts during quiet hours',
        source: '',
        status: 'delivered',
      }),
    ];
    installFake({ handlers: { 'alerts.list': () => listAnswer(quiet), 'lots.get': lotsGet } });
    render(<AlertsView />);
    const row = (title: string) => (screen.getByText(title).closest('li') as HTMLElement).textContent ?? '';
    await screen.findByText('Tesla bid up at night');
    expect(row('Tesla bid up at night')).toContain(
      ' · Held for quiet hours; arrives in one summary when they end',
    );
    expect(row('Tesla sold at night')).toContain(' · Sent in the quiet-hours summary');
    expect(row('Tesla sold at night')).not.toContain('Held');
    expect(row('2 alerts during quiet hours')).toContain('Summary');
    // No reason code, and the summary is never a "digest" (docs/writing-guide.md rule 1).
    expect(document.body.textContent).not.toMatch(/quiet_hours|digest/i);
  });

  it('says in one phrase why an alert was kept quiet, with the hourly limit from its rules', async () => {
    const kept = [
      alert({ id: 21, title: 'Muted bid', delivery: 'suppressed', status: 'suppressed', reason: 'muted' }),
      alert({
        id: 22,
        title: 'Snoozed bid',
        delivery: 'suppressed',
        status: 'suppressed',
        reason: 'snoozed',
      }),
      alert({
        id: 23,
        title: 'Busy bid',
        delivery: 'suppressed',
        status: 'suppressed',
        reason: 'cap',
        source: 'watch:4',
      }),
      alert({
        id: 24,
        title: 'Busy match',
        delivery: 'suppressed',
        status: 'suppressed',
        reason: 'cap',
        source: 'search:9',
      }),
    ];
    installFake({
      handlers: {
        'alerts.list': () => listAnswer(kept),
        'lots.get': lotsGet,
        'watchlist.list': () =>
          okResult([watch({ id: 4, rules: AlertRulesSchema.parse({ cap_per_lot_per_hour: 3 }) })]),
        'searches.list': () => okResult([]),
      },
    });
    render(<AlertsView />);
    const row = (title: string) => (screen.getByText(title).closest('li') as HTMLElement).textContent ?? '';
    await screen.findByText('Muted bid');
    expect(row('Muted bid')).toContain(' · Kept quiet: this lot was muted');
    expect(row('Snoozed bid')).toContain(' · Kept quiet: this lot was snoozed');
    await waitFor(() =>
      expect(row('Busy bid')).toContain(' · Kept quiet: more than 3 alerts for this lot within an hour'),
    );
    // A source whose rules are gone: the reason without a number.
    expect(row('Busy match')).toContain(' · Kept quiet: too many alerts for this lot within an hour');
    for (const title of ['Muted bid', 'Snoozed bid', 'Busy bid']) {
      expect(row(title)).not.toMatch(/\b(muted|snoozed|cap)\s·|·\s(muted|snoozed|cap)\b/);
      expect(row(title).match(/Kept quiet/g)).toHaveLength(1);
    }
  });

  it('"Mark all read" sends the ids of the unread alerts to alerts.markRead', async () => {
    let alerts = inbox;
    const fake = installFake({
      handlers: {
        'alerts.list': () => listAnswer(alerts),
        'lots.get': lotsGet,
        'alerts.markRead': (input) => {
          const ids = new Set(input?.ids);
          alerts = alerts.map((a) => (ids.has(a.id) ? { ...a, read: true } : a));
          return okResult({ unread: 0 });
        },
      },
    });
    render(<AlertsView />);
    await screen.findByText('3 unread');
    fireEvent.click(screen.getByRole('button', { name: 'Mark all read' }));
    expect(await screen.findByText('All read')).toBeTruthy();
    const sent = inputsOf(fake, 'alerts.markRead');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.read).toBe(true);
    expect([...(sent[0]?.ids ?? [])].sort()).toEqual([1, 3, 5]);
    expect((screen.getByRole('button', { name: 'Mark all read' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('opens the lot of an alert: the hash becomes #/lot/<lot_key>', async () => {
    installFake({
      handlers: {
        'alerts.list': () => listAnswer(inbox),
        'lots.get': lotsGet,
        'alerts.markRead': () => okResult({ unread: 2 }),
      },
    });
    render(<AlertsView />);
    fireEvent.click(await screen.findByRole('button', { name: 'IAAI · lot 39120001' }));
    expect(decodeURIComponent(window.location.hash)).toBe(`#/lot/${FORD}`);
    expect(window.location.hash).toBe(`#/lot/${encodeURIComponent(FORD)}`);
  });

  it('opens the lot from the alert itself with Enter and marks an unread alert read', async () => {
    const fake = installFake({
      handlers: {
        'alerts.list': () => listAnswer(inbox),
        'lots.get': lotsGet,
        'alerts.markRead': () => okResult({ unread: 2 }),
      },
    });
    render(<AlertsView />);
    const item = (await screen.findByText('Tesla bid up')).closest('li');
    if (!item) throw new Error('no alert item');
    fireEvent.keyDown(item, { key: 'Enter' });
    expect(decodeURIComponent(window.location.hash)).toBe(`#/lot/${TESLA}`);
    await waitFor(() => expect(inputsOf(fake, 'alerts.markRead')).toEqual([{ ids: [1], read: true }]));
  });

  it('answers its keys as soon as it opens, before anything in it has focus', async () => {
    const fake = installFake({
      handlers: {
        'alerts.list': () => listAnswer(inbox),
        'lots.get': lotsGet,
        'alerts.markRead': () => okResult({ unread: 2 }),
      },
    });
    render(<AlertsView />);
    await screen.findByText('Tesla rescheduled');
    expect(document.activeElement).toBe(document.body);
    // The first arrow lands on the first alert (unread first, newest first), the next moves on from there.
    // (The alert itself, by its id: the page's own text holds every title, so a text match would pass on the page.)
    const focusedAlert = () => (document.activeElement as HTMLElement | null)?.dataset.alertId;
    fireEvent.keyDown(document.body, { key: 'ArrowDown' });
    expect(focusedAlert()).toBe('3');
    expect(document.activeElement?.textContent).toMatch(/Tesla rescheduled/);
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowDown' });
    expect(focusedAlert()).toBe('1');
    expect(document.activeElement?.textContent).toMatch(/Tesla bid up/);
    // r and Enter act on the current alert from the page too.
    (document.activeElement as HTMLElement).blur();
    fireEvent.keyDown(document.body, { key: 'r' });
    await waitFor(() => expect(inputsOf(fake, 'alerts.markRead')).toEqual([{ ids: [1], read: true }]));
    (document.activeElement as HTMLElement).blur();
    fireEvent.keyDown(document.body, { key: 'Enter' });
    expect(decodeURIComponent(window.location.hash)).toBe(`#/lot/${TESLA}`);
  });

  it('leaves keys alone while focus is in a field or on a button', async () => {
    const fake = installFake({
      handlers: {
        'alerts.list': () => listAnswer(inbox),
        'lots.get': lotsGet,
        'alerts.markRead': () => okResult({ unread: 2 }),
      },
    });
    render(<AlertsView />);
    await screen.findByText('Tesla rescheduled');
    const button = screen.getByRole('button', { name: 'Mark all read' });
    button.focus();
    fireEvent.keyDown(button, { key: 'r' });
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(button);
    expect(inputsOf(fake, 'alerts.markRead')).toEqual([]);
    expect(window.location.hash).toBe('#/alerts');
  });

  it('says under an alert where it went besides the inbox, and follows deliveries as they change', async () => {
    // A time today reads "10:02 AM"; another day's, "Jan 16, 7:00 AM".
    const t = (ms: number) => format(ms, isSameDay(ms, NOW) ? 'h:mm a' : 'MMM d, h:mm a');
    let deliveries = [
      delivery({ id: 1, channel_name: 'Office email', status: 'sent', at: NOW - 28 * MINUTE }),
      delivery({
        id: 2,
        channel_name: 'My phone',
        status: 'held',
        attempts: 0,
        next_at: NOW + 30 * 60 * MINUTE,
      }),
      delivery({
        id: 3,
        channel_name: 'Discord',
        status: 'pending',
        attempts: 2,
        next_at: NOW + 7 * MINUTE,
        detail: 'The webhook address was refused (404).',
      }),
      delivery({
        id: 4,
        channel_name: 'Slack',
        status: 'skipped',
        attempts: 0,
        detail: 'Not a kind of alert this channel sends.',
      }),
      delivery({
        id: 5,
        channel_name: 'Dispatch',
        status: 'skipped',
        attempts: 0,
        detail: 'Muted: kept in the inbox only.',
      }),
    ];
    const fake = installFake({
      handlers: {
        'alerts.list': () =>
          listAnswer([
            alert({ id: 1, title: 'Tesla bid up', deliveries }),
            alert({ id: 2, title: 'Tesla rescheduled', kind: 'rescheduled', deliveries: [] }),
          ]),
        'lots.get': lotsGet,
      },
    });
    render(<AlertsView />);
    const chips = async () => {
      const item = (await screen.findByText('Tesla bid up')).closest('li') as HTMLElement;
      const list = within(item).getByRole('list', { name: 'Sent to alert channels' });
      return within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent);
    };
    expect(await chips()).toEqual([
      `Office email · Sent ${t(NOW - 28 * MINUTE)}`,
      `My phone · Held until ${format(NOW + 30 * 60 * MINUTE, 'MMM d, h:mm a')}`,
      `Discord · Retrying at ${t(NOW + 7 * MINUTE)} (The webhook address was refused (404).)`,
      // Channels that do not send it by design share one quiet chip; why is on hover (and in Settings' log).
      'Not sent to Slack, Dispatch',
    ]);
    const item = (await screen.findByText('Tesla bid up')).closest('li') as HTMLElement;
    expect(within(item).getByText('Not sent to Slack, Dispatch').getAttribute('title')).toBe(
      'Slack: Not a kind of alert this channel sends.\nDispatch: Muted: kept in the inbox only.',
    );
    // No line for an alert that went nowhere else.
    const other = screen.getByText('Tesla rescheduled').closest('li') as HTMLElement;
    expect(within(other).queryByRole('list')).toBeNull();

    deliveries = [delivery({ id: 3, channel_name: 'Discord', status: 'sent', attempts: 3, at: NOW })];
    act(() => fake.emit({ name: 'deliveries.changed', payload: { at: NOW } }));
    await waitFor(async () => expect(await chips()).toEqual([`Discord · Sent ${t(NOW)}`]));
  });
});
