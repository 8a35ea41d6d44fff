// @vitest-environment jsdom
import { inputsOf, installFake, render } from './views/fakeApi';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { SpendNoticeHost } from '../../src/renderer/src/components/SpendNotice';
import { useCaller } from '../../src/renderer/src/lib/useCall';
import { createAppStore } from '../../src/renderer/src/app/appStore';
import { StatusSchema, type Method, type MethodInput } from '../../src/shared/ipc/contract';
import type { Settings } from '../../src/shared/settings';
import { okResult, type FakeHandlers } from './fakeBridge';

afterEach(cleanup);

function status(keySet = true, remaining: number | null = 57) {
  return StatusSchema.parse({
    mode: 'live',
    key: { set: keySet, storage: 'the system keychain' },
    quota:
      remaining === null
        ? null
        : {
            at: 0,
            limit: 100,
            baseLimit: 100,
            extraLimit: 0,
            used: 100 - remaining,
            remaining,
            periodStart: null,
            periodEnd: null,
            perPageLimit: 20,
            rateLimit: 3,
            rateRemaining: 2,
          },
    budget: {
      allowedPerDay: 3,
      spentLast24h: 0,
      projectedNext24h: 0,
      basis: 'quota',
      periodRemaining: remaining,
      periodEnd: null,
    },
    scale: 1,
    running: true,
    paused_until: null,
    pause_reason: null,
  });
}

/** A stand-in for a view: a button that makes one contract call and shows how it ended. */
function Harness<M extends Method>({
  method,
  input,
  label,
}: {
  method: M;
  input: MethodInput<M>;
  label: string;
}) {
  const [out, setOut] = useState('');
  const call = useCaller();
  return (
    <div>
      <button
        type="button"
        onClick={() =>
          void call(method, input).then((r) => setOut(r.ok ? 'sent' : `not sent: ${r.error.code}`))
        }
      >
        {label}
      </button>
      <output aria-label={`${label} result`}>{out}</output>
    </div>
  );
}

async function mount(settings: Partial<Settings>, handlers: FakeHandlers = {}, keySet = true) {
  const fake = installFake({
    settings,
    handlers: {
      'status.get': () => okResult(status(keySet)),
      'vehicles.search': () => okResult({ lots: [], meta: null, warnings: [] }),
      // The harness never reads the lot: any answer will do.
      'vehicles.get': () => okResult({} as never),
      ...handlers,
    },
  });
  const store = createAppStore(fake.bridge);
  await act(() => store.getState().load());
  fake.bridge.on((e) => {
    if (e.name === 'settings.changed') store.setState({ settings: e.payload });
  });
  render(
    <>
      <Harness method="vehicles.search" input={{ params: { make: 'FORD' } }} label="Search" />
      <Harness method="vehicles.get" input={{ id: 'copart:45416833', refresh: true }} label="Open lot" />
      <Harness method="lots.get" input={{ lot_key: 'copart:45416833' }} label="Stored lot" />
      <SpendNoticeHost store={store} />
    </>,
  );
  return fake;
}

const result = (label: string) => screen.getByRole('status', { name: `${label} result` });

describe('SpendNoticeHost · the one-time "this uses a request" notice', () => {
  it('with a real key: says so before the first search, remembers Continue in settings, then never nags', async () => {
    const fake = await mount({ demoMode: false });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    const notice = await screen.findByRole('alertdialog');
    expect(
      within(notice).getByText(
        'Searching uses 1 request of your quota for each page of results (57 left this period).',
      ),
    ).toBeTruthy();
    expect(inputsOf(fake, 'vehicles.search')).toEqual([]);
    fireEvent.click(within(notice).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(result('Search').textContent).toBe('sent'));
    expect(inputsOf(fake, 'vehicles.search')).toHaveLength(1);
    expect(inputsOf(fake, 'settings.update')).toEqual([{ spendNoticesSeen: ['vehicles.search'] }]);
    expect(fake.settings.spendNoticesSeen).toEqual(['vehicles.search']);
    expect(screen.queryByRole('alertdialog')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(inputsOf(fake, 'vehicles.search')).toHaveLength(2));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    // Each kind of action says so once: opening a lot live is another.
    fireEvent.click(screen.getByRole('button', { name: 'Open lot' }));
    expect(await screen.findByText(/^Opening a lot live uses 1 request of your quota/)).toBeTruthy();
  });

  it('Cancel sends nothing (a lot opens from its stored copy) and asks again next time', async () => {
    const fake = await mount({ demoMode: false });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(result('Search').textContent).toBe('not sent: cancelled'));
    expect(inputsOf(fake, 'vehicles.search')).toEqual([]);
    expect(inputsOf(fake, 'settings.update')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Open lot' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(result('Open lot').textContent).toBe('sent'));
    expect(inputsOf(fake, 'vehicles.get')).toEqual([{ id: 'copart:45416833', refresh: false }]);

    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByRole('alertdialog')).toBeTruthy();
  });

  it('says nothing in Demo mode, for what costs nothing, once seen, or without a key', async () => {
    let fake = await mount({ demoMode: true });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(result('Search').textContent).toBe('sent'));
    cleanup();

    fake = await mount({ demoMode: false, spendNoticesSeen: ['vehicles.search'] });
    fireEvent.click(screen.getByRole('button', { name: 'Stored lot' }));
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(result('Search').textContent).toBe('sent'));
    expect(inputsOf(fake, 'lots.get')).toHaveLength(1);
    cleanup();

    fake = await mount({ demoMode: false }, {}, false);
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(inputsOf(fake, 'vehicles.search')).toHaveLength(1));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('without the quota known yet, leaves out the count', async () => {
    await mount({ demoMode: false }, { 'status.get': () => okResult(status(true, null)) });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(
      await screen.findByText('Searching uses 1 request of your quota for each page of results.'),
    ).toBeTruthy();
  });
});
