// @vitest-environment jsdom
import { frozenAtNow, inputsOf, installFake, render } from './fakeApi';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createAppStore } from '../../../src/renderer/src/app/appStore';
import { explainKeyError, SettingsView } from '../../../src/renderer/src/features/settings/SettingsView';
import { StatusSchema, type Status } from '../../../src/shared/ipc/contract';
import type { ErrorCode } from '../../../src/shared/ipc/errors';
import { errResult, okResult, type FakeHandlers } from '../fakeBridge';
import { savedSearch } from './fixtures';

frozenAtNow('#/settings');

const SECRET = 'lw_live_7f3a9c2e51d04b88a6e1';

function status(keySet: boolean, mode: Status['mode'] = 'live'): Status {
  return StatusSchema.parse({
    mode,
    key: { set: keySet, storage: 'the system keychain' },
    quota: null,
    budget: {
      allowedPerDay: 1000,
      spentLast24h: 120,
      projectedNext24h: 400,
      basis: 'default',
      periodRemaining: null,
      periodEnd: null,
    },
    scale: 1,
    running: true,
    paused_until: null,
    pause_reason: null,
  });
}

async function mount(handlers: FakeHandlers) {
  const fake = installFake({ settings: { demoMode: false }, handlers });
  const store = createAppStore(fake.bridge);
  await act(() => store.getState().load());
  render(<SettingsView store={store} />);
  await screen.findByText(/key is set\./);
  return fake;
}

function keyInput(): HTMLInputElement {
  return screen.getByLabelText(/^(API key|Replace the key)$/, { selector: 'input' }) as HTMLInputElement;
}

describe('SettingsView · API key', () => {
  it('takes the key in a password field', async () => {
    await mount({ 'status.get': () => okResult(status(false)) });
    expect(keyInput().type).toBe('password');
    expect(keyInput().autocomplete).toBe('off');
  });

  it('"Save key" calls key.set with the key and never shows it back', async () => {
    let keySet = false;
    const fake = await mount({
      'status.get': () => okResult(status(keySet)),
      'key.set': () => {
        keySet = true;
        return okResult({ ok: true as const });
      },
    });
    fireEvent.change(keyInput(), { target: { value: SECRET } });
    // Show unmasks the draft while typing; saving masks it again.
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(keyInput().type).toBe('text');
    fireEvent.click(screen.getByRole('button', { name: 'Save key' }));
    expect(
      await screen.findByText('Key saved. Use "Test key" to check that the service accepts it.'),
    ).toBeTruthy();
    expect(inputsOf(fake, 'key.set')).toEqual([{ key: SECRET }]);

    // The status follows (a key is set), and the field is empty and still masked.
    await screen.findByText('A key is set.');
    const input = screen.getByLabelText('Replace the key', { selector: 'input' }) as HTMLInputElement;
    expect(input.value).toBe('');
    expect(input.type).toBe('password');
    // The key appears nowhere on the page: not as text, not in any field or attribute.
    expect(document.body.textContent).not.toContain(SECRET);
    expect(document.body.innerHTML).not.toContain(SECRET);
    for (const el of document.querySelectorAll('input')) expect(el.value).not.toContain(SECRET);
  });

  it('"Test key" shows the quota period as dates, not raw ISO times', async () => {
    await mount({
      'status.get': () => okResult(status(true)),
      'key.test': () =>
        okResult({
          ok: true,
          usage: { period: { from: '2026-11-01T12:00:00Z', to: '2026-12-01T12:00:00Z' }, used: 3 },
        }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Test key' }));
    const result = await screen.findByText('The service accepted the key.');
    const box = result.closest('.key-result') as HTMLElement;
    expect(box.textContent).toContain('Nov 1, 2026');
    expect(box.textContent).toContain('Dec 1, 2026');
    expect(box.textContent).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
  });

  it('keeps a refused key in the field and shows the field message', async () => {
    const fake = await mount({
      'status.get': () => okResult(status(false)),
      'key.set': () =>
        errResult('bad_input', 'invalid', { fields: { key: ['That is too short to be an API key.'] } }),
    });
    fireEvent.change(keyInput(), { target: { value: 'abc' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save key' }));
    await waitFor(() => expect(keyInput().getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('That is too short to be an API key.')).toBeTruthy();
    expect(inputsOf(fake, 'key.set')).toEqual([{ key: 'abc' }]);
    expect(keyInput().type).toBe('password');
  });

  it("says when the stored key belongs to another service, and asks for this one's", async () => {
    await mount({
      'status.get': () =>
        okResult(
          StatusSchema.parse({
            ...status(false),
            key: { set: false, storage: 'the system keychain', stored_for: 'https://apibara.tech' },
          }),
        ),
    });
    expect(screen.getByText('No key is set.')).toBeTruthy();
    expect(
      screen.getByText(
        /Your key was saved for https:\/\/apibara\.tech and is not sent to the Service URL below/,
      ),
    ).toBeTruthy();
    expect(keyInput().placeholder).toMatch(/Paste the key/);
  });

  it.each<[ErrorCode, string, string]>([
    ['unauthorized', 'The service refused this key.', 'copy it again from your account'],
    [
      'rate_limited',
      'The key is known, but its quota or rate limit is reached right now.',
      'Wait a moment and test again',
    ],
    [
      'network',
      'The service could not be reached, so the key was not checked.',
      'Check the connection and the Service URL',
    ],
  ])('explains a %s answer to "Test key" in words', async (code, title, advice) => {
    const raw = `HTTP ${code} from GET /usage`;
    const fake = await mount({
      'status.get': () => okResult(status(true)),
      'key.test': () => errResult(code, raw, { retryable: true }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Test key' }));
    const notice = await screen.findByRole('alert');
    expect(within(notice).getByText(title)).toBeTruthy();
    expect(notice.textContent).toContain(advice);
    expect(notice.textContent).not.toContain(raw);
    expect(inputsOf(fake, 'key.test')).toHaveLength(1);
  });
});

describe('explainKeyError', () => {
  const e = (code: ErrorCode, message = 'raw message') => explainKeyError({ code, message, retryable: true });

  it('maps unauthorized, rate_limited and network (and timeout) to their sentences', () => {
    expect(e('unauthorized').title).toBe('The service refused this key.');
    expect(e('rate_limited').title).toBe(
      'The key is known, but its quota or rate limit is reached right now.',
    );
    expect(e('network').title).toBe('The service could not be reached, so the key was not checked.');
    expect(e('timeout')).toEqual(e('network'));
    for (const c of ['unauthorized', 'rate_limited', 'network'] as const)
      expect(e(c).title).not.toBe('raw message');
  });

  it('says a spent quota (a 429 not worth retrying) with its date, not "wait a moment"', () => {
    const spent = "Your plan's monthly requests are used up until 12 December.";
    expect(explainKeyError({ code: 'rate_limited', message: spent, retryable: false })).toEqual({
      title: spent,
      advice: 'The key itself works. To go on before then, change the plan on the service.',
    });
  });

  it('falls back to the error message for other codes', () => {
    expect(e('server', 'The service had a problem (503).')).toEqual({
      title: 'The service had a problem (503).',
      advice: 'Try again in a moment.',
    });
  });
});

describe('SettingsView · Demo examples when Demo mode is turned off', () => {
  const exampleSearch = savedSearch({
    id: 3,
    name: 'Example: Tesla Model 3',
    is_example: true,
    paused: true,
    next_run_at: null,
  });
  const exampleWatches = [1, 2, 3].map((id) => ({ id, is_example: true }));

  async function turnDemoOff(handlers: FakeHandlers) {
    const fake = installFake({
      settings: { demoMode: true },
      handlers: {
        'status.get': () => okResult(status(true, 'demo')),
        'searches.list': () => okResult([exampleSearch, savedSearch({ id: 4, name: 'Mine' })]),
        // Only is_example is read from the watch list.
        'watchlist.list': () => okResult(exampleWatches as never),
        // And Demo mode's example watched call (only is_example is read).
        'callWatches.list': () => okResult([{ id: 7, is_example: true }] as never),
        ...handlers,
      },
    });
    const store = createAppStore(fake.bridge);
    await act(() => store.getState().load());
    render(<SettingsView store={store} />);
    fireEvent.click(await screen.findByRole('checkbox', { name: /Demo mode/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    const question = await screen.findByRole('group', { name: /Demo mode is off/ });
    expect(question.textContent).toContain(
      'Its examples (1 saved search, 3 watched lots and 1 watched call) are paused so that they do not use your key',
    );
    expect(inputsOf(fake, 'settings.update')).toEqual([expect.objectContaining({ demoMode: false })]);
    return { fake, question };
  }

  it('asks, and "Remove them" removes them', async () => {
    const { fake, question } = await turnDemoOff({
      'examples.remove': () => okResult({ searches: 1, watches: 3, calls: 1 }),
    });
    fireEvent.click(within(question).getByRole('button', { name: 'Remove them' }));
    expect(
      await screen.findByText(
        'Removed the Demo examples (1 saved search, 3 watched lots and 1 watched call).',
      ),
    ).toBeTruthy();
    expect(inputsOf(fake, 'examples.remove')).toHaveLength(1);
    expect(screen.queryByRole('group', { name: /Demo mode is off/ })).toBeNull();
  });

  it('"Keep them paused" keeps them (core paused them when Demo mode went off)', async () => {
    const { fake, question } = await turnDemoOff({});
    fireEvent.click(within(question).getByRole('button', { name: 'Keep them paused' }));
    expect(
      await screen.findByText('The Demo examples stay paused; they run again only in Demo mode.'),
    ).toBeTruthy();
    expect(inputsOf(fake, 'examples.remove')).toEqual([]);
  });

  it('does not ask when there are no examples, or when Demo mode stays on', async () => {
    const fake = installFake({
      settings: { demoMode: true },
      handlers: {
        'status.get': () => okResult(status(true, 'demo')),
        'searches.list': () => okResult([savedSearch({ id: 4, name: 'Mine' })]),
        'watchlist.list': () => okResult([]),
      },
    });
    const store = createAppStore(fake.bridge);
    await act(() => store.getState().load());
    render(<SettingsView store={store} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Save settings' }));
    await screen.findByText('Saved.');
    expect(inputsOf(fake, 'searches.list')).toEqual([]);
    fireEvent.click(screen.getByRole('checkbox', { name: /Demo mode/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(inputsOf(fake, 'watchlist.list')).toHaveLength(1));
    expect(screen.queryByRole('group', { name: /Demo mode is off/ })).toBeNull();
  });
});

describe('SettingsView · what Lotwatch keeps', () => {
  it('says the retention policy with the chosen days, and saves a new number of days', async () => {
    const fake = await mount({ 'status.get': () => okResult(status(true)) });
    const section = screen.getByRole('group', { name: 'What Lotwatch keeps' });
    const days = within(section).getByRole('spinbutton', {
      name: /Keep every observation of a lot for this many days/,
    });
    expect((days as HTMLInputElement).value).toBe('30');
    expect(section.textContent).toContain('30 days after a sale');
    expect(section.textContent).toContain(
      'The request log and poll history keep 30 days; alerts you have read keep 180 days.',
    );
    expect(section.textContent).toContain('At most 50 photo addresses are kept per lot');
    fireEvent.change(days, { target: { value: '90' } });
    expect(section.textContent).toContain('90 days after a sale');
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await screen.findByText('Saved.');
    expect(inputsOf(fake, 'settings.update')).toEqual([expect.objectContaining({ retentionDays: 90 })]);
  });
});

describe('SettingsView · shipping and destinations', () => {
  it('saves "Cheapest port of each lot" and a destination row with its ocean freight and duty', async () => {
    const fake = await mount({ 'status.get': () => okResult(status(true)) });
    fireEvent.change(screen.getByRole('combobox', { name: 'Port for landed cost' }), {
      target: { value: 'cheapest' },
    });
    const dest = screen.getByRole('group', { name: 'Destinations' });
    fireEvent.click(within(dest).getByRole('button', { name: 'Add a destination' }));
    // A destination leaves from a port: the Moto/ATV rate is not one. Your own port may be it (a motorcycle
    // buyer's shipping figure), named as a rate.
    const optionsOf = (select: HTMLElement) =>
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent);
    const destPort = within(dest).getByRole('combobox', { name: 'Destination 1: port' });
    expect(optionsOf(destPort)).not.toContain('Moto/ATV');
    expect(optionsOf(destPort)).toContain('Los Angeles');
    expect(optionsOf(screen.getByRole('combobox', { name: 'Port' }))).toContain(
      'Moto/ATV rate, motorcycles and ATVs only',
    );
    fireEvent.change(destPort, {
      target: { value: 'Houston' },
    });
    fireEvent.change(within(dest).getByRole('textbox', { name: 'Destination 1: country' }), {
      target: { value: 'Mexico' },
    });
    fireEvent.change(within(dest).getByRole('spinbutton', { name: 'Destination 1: ocean freight (USD)' }), {
      target: { value: '950' },
    });
    fireEvent.change(within(dest).getByRole('spinbutton', { name: 'Destination 1: duty (% of the bid)' }), {
      target: { value: '15' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(inputsOf(fake, 'settings.update')).toHaveLength(1));
    expect(inputsOf(fake, 'settings.update')[0]!.desk).toMatchObject({
      port_choice: 'cheapest',
      destinations: [{ port: 'Houston', country: 'Mexico', ocean_freight_usd: 950, duty_percent: 15 }],
    });
  });
});
