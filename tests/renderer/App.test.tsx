// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../src/renderer/src/app/App';
import { createAppStore, VIEWS } from '../../src/renderer/src/app/appStore';
import { StatusSchema } from '../../src/shared/ipc/contract';
import { createFakeBridge, okResult } from './fakeBridge';

// Settings is a view loaded on demand (its code is split off the first paint): its first open in a run may take
// longer than findBy's default second on a busy machine.
const LAZY = { timeout: 5000 };

beforeEach(() => {
  window.location.hash = '';
});
afterEach(cleanup);

function setup(over?: Parameters<typeof createFakeBridge>[0]) {
  const fake = createFakeBridge(over);
  const store = createAppStore(fake.bridge);
  render(<App store={store} api={fake.bridge} />);
  return { fake, store };
}

describe('alerts in the browser shell', () => {
  it('shows an alert as a browser notification whose click opens the lot', async () => {
    const shown: { title: string; body?: string; onclick: (() => void) | null }[] = [];
    class FakeNotification {
      static permission = 'granted';
      onclick: (() => void) | null = null;
      constructor(title: string, opts?: { body?: string }) {
        shown.push(Object.assign(this, { title, body: opts?.body }));
      }
    }
    const original = globalThis.Notification;
    globalThis.Notification = FakeNotification as unknown as typeof Notification;
    try {
      const { fake, store } = setup();
      await waitFor(() => expect(store.getState().info?.shell).toBe('headless'));
      act(() =>
        fake.emit({
          name: 'notification.posted',
          payload: {
            tag: 'lotwatch-9',
            title: '2019 TESLA MODEL 3 · Sold for $14,000',
            body: 'copart lot 45416833',
            lot_key: 'copart:45416833',
          },
        }),
      );
      expect(shown.map((n) => n.title)).toEqual(['2019 TESLA MODEL 3 · Sold for $14,000']);
      // An alert core did not send as a notification (quiet hours, a cap, notifications off) lands in the inbox only.
      act(() =>
        fake.emit({
          name: 'alert.raised',
          payload: { id: 10, kind: 'bid_changed', title: 'held', body: '', lot_key: null },
        }),
      );
      expect(shown).toHaveLength(1);
      act(() => shown[0]?.onclick?.());
      expect(window.location.hash).toBe('#/lot/copart%3A45416833');
    } finally {
      globalThis.Notification = original;
    }
  });
});

describe('App frame', () => {
  it('shows every navigation entry and the Demo mode label', async () => {
    setup();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    for (const v of VIEWS) expect(nav.textContent).toContain(v.label);
    expect(await screen.findByText(/Demo mode/)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Search');
  });

  it('labels live mode when Demo mode is off', async () => {
    setup({ settings: { demoMode: false } });
    expect(await screen.findByText('Live service')).toBeTruthy();
    expect(screen.queryByText(/Demo mode ·/)).toBeNull();
  });

  it('switches views by hash link and by Ctrl+number', async () => {
    const { store } = setup();
    act(() => {
      window.location.hash = '#/alerts';
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    expect(store.getState().view).toBe('alerts');
    fireEvent.keyDown(window, { key: '0', ctrlKey: true });
    act(() => {
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    expect(window.location.hash).toBe('#/settings');
    expect(store.getState().view).toBe('settings');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Settings');
  });

  it('gives the chosen view the focus after Ctrl+number, never the page body', async () => {
    setup();
    const input = document.createElement('input');
    document.getElementById('content')!.appendChild(input);
    input.focus();
    fireEvent.keyDown(window, { key: '2', ctrlKey: true });
    act(() => {
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    input.remove();
    expect(document.activeElement).toBe(document.getElementById('content'));
  });

  it('applies the theme setting to the document', async () => {
    setup({ settings: { theme: 'dark' } });
    await waitFor(() => expect(document.documentElement.dataset['theme']).toBe('dark'));
  });

  it('shows a load failure as an alert', async () => {
    const fake = createFakeBridge();
    const store = createAppStore({
      ...fake.bridge,
      invoke: (async () => ({
        ok: false,
        error: { code: 'db_unavailable', message: 'Disk is gone.', retryable: false },
      })) as never,
    });
    render(<App store={store} api={fake.bridge} />);
    expect((await screen.findByRole('alert')).textContent).toMatch(/Disk is gone/);
  });
});

describe('Settings view', () => {
  it('saves a change through the contract and confirms it', async () => {
    window.location.hash = '#/settings';
    const { fake } = setup();
    const select = (await screen.findByRole('combobox', { name: 'Theme' }, LAZY)) as HTMLSelectElement;
    fireEvent.change(select, { target: { value: 'dark' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(fake.settings.theme).toBe('dark');
    expect(fake.calls.some((c) => c.method === 'settings.update')).toBe(true);
  });

  it('highlights the refused field and keeps the draft', async () => {
    window.location.hash = '#/settings';
    const { fake } = setup();
    const url = (await screen.findByRole('textbox', { name: 'Service URL' }, LAZY)) as HTMLInputElement;
    fireEvent.change(url, { target: { value: 'not a url' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(url.getAttribute('aria-invalid')).toBe('true'));
    expect(url.value).toBe('not a url');
    expect(fake.settings.serviceUrl).toMatch(/^https:/);
  });

  it('follows a change made elsewhere (settings.changed event)', async () => {
    window.location.hash = '#/settings';
    const { fake } = setup();
    const before = (await screen.findByRole('combobox', { name: 'Theme' }, LAZY)) as HTMLSelectElement;
    expect(before.value).toBe('system');
    await act(async () => {
      await fake.bridge.invoke('settings.update', { theme: 'light' });
    });
    expect((screen.getByRole('combobox', { name: 'Theme' }) as HTMLSelectElement).value).toBe('light');
  });
});

describe('the unread count wherever a person looks', () => {
  it('shows the count on Alerts in the navigation and in the document title, and follows unread.changed', async () => {
    const { fake } = setup({ unread: 3 });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(await within(nav).findByRole('link', { name: 'Alerts, 3 unread' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('(3) Lotwatch'));
    act(() => fake.setUnread(4));
    expect(within(nav).getByRole('link', { name: 'Alerts, 4 unread' })).toBeTruthy();
    expect(document.title).toBe('(4) Lotwatch');
    act(() => fake.setUnread(0));
    expect(within(nav).getByRole('link', { name: 'Alerts' })).toBeTruthy();
    expect(within(nav).queryByRole('link', { name: /unread/ })).toBeNull();
    expect(document.title).toBe('Lotwatch');
  });

  it('keeps an event that arrived before the first answer (the newer count wins)', async () => {
    let answer: (v: { ok: true; value: { count: number } }) => void = () => undefined;
    const { fake } = setup({ handlers: { 'alerts.unread': () => new Promise((r) => (answer = r)) } });
    act(() => fake.setUnread(7));
    await act(async () => answer({ ok: true, value: { count: 2 } }));
    expect(screen.getByRole('link', { name: 'Alerts, 7 unread' })).toBeTruthy();
    expect(document.title).toBe('(7) Lotwatch');
  });
});

describe('Offline in the header', () => {
  const status = (reachable: boolean | null) =>
    StatusSchema.parse({
      mode: 'demo',
      key: { set: false, storage: 'the system keychain' },
      quota: null,
      budget: {
        allowedPerDay: 3,
        spentLast24h: 0,
        projectedNext24h: 0,
        basis: 'quota',
        periodRemaining: null,
        periodEnd: null,
      },
      scale: 1,
      running: true,
      paused_until: null,
      pause_reason: null,
      service_reachable: reachable,
      watching: reachable === false ? { kind: 'offline' } : { kind: 'running' },
    });

  it('says Offline, with why, while the service cannot be reached, and drops it when it is back', async () => {
    const { fake } = setup({ handlers: { 'status.get': () => okResult(status(false)) } });
    const banner = screen.getByRole('banner');
    const badge = await within(banner).findByText('Offline');
    expect(badge.getAttribute('title')).toMatch(
      /cannot be reached; Lotwatch shows what it has stored and tries again/,
    );
    expect(badge.textContent).toMatch(/cannot be reached/);
    act(() => fake.emit({ name: 'watching.changed', payload: { kind: 'running' } }));
    expect(within(banner).queryByText('Offline')).toBeNull();
    act(() => fake.emit({ name: 'watching.changed', payload: { kind: 'offline' } }));
    expect(within(banner).getByText('Offline')).toBeTruthy();
  });

  it('says nothing while nobody knows yet or the service answers', async () => {
    setup({ handlers: { 'status.get': () => okResult(status(null)) } });
    expect(await screen.findByText(/Demo mode ·/)).toBeTruthy();
    expect(screen.queryByText('Offline')).toBeNull();
  });
});

describe('keyboard', () => {
  it('has a "Skip to main content" link first, which moves focus to the view', async () => {
    setup();
    const focusable = document.querySelectorAll<HTMLElement>(
      'a[href], button, input, select, textarea, [tabindex="0"]',
    );
    const skip = screen.getByRole('link', { name: 'Skip to main content' });
    expect(focusable[0]).toBe(skip);
    fireEvent.click(skip);
    expect(document.activeElement).toBe(screen.getByRole('main'));
    // The route stays as it was: the skip link does not touch the hash.
    expect(window.location.hash).toBe('');
  });

  it('moves focus into the view chosen in the navigation, so its keys work at once', async () => {
    setup();
    fireEvent.click(screen.getByRole('link', { name: 'Alerts' }));
    expect(document.activeElement).toBe(screen.getByRole('main'));
  });
});
