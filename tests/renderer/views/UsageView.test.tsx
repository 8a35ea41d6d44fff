// @vitest-environment jsdom
import { frozenAtNow, inputsOf, installFake, render } from './fakeApi';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { format, isSameDay } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { UsageView } from '../../../src/renderer/src/features/usage/UsageView';
import { StatusSchema } from '../../../src/shared/ipc/contract';
import { okResult } from '../fakeBridge';
import { AlertRulesSchema } from '../../../src/shared/watch';
import { HOUR, NOW, savedSearch, statusView } from './fixtures';

frozenAtNow();

// Noon UTC on 12 February 2025: the 12th in every time zone a test machine may have.
const END = Date.UTC(2025, 1, 12, 12, 0, 0);

/**
 * A live core whose polling is paused until END (`kind`, said as `reason`), on a plan of `limit` requests a month with
 * `remaining` left, `rateLimit` a second and `allowedPerDay` today; no requests sent yet.
 */
function pausedUntilEnd(o: {
  limit: number;
  remaining: number;
  rateLimit: number;
  allowedPerDay: number;
  kind: 'quota_spent' | 'rate_limited';
  reason: string;
}) {
  const quota = {
    at: NOW,
    limit: o.limit,
    baseLimit: o.limit,
    extraLimit: 0,
    used: 100,
    remaining: o.remaining,
  };
  installFake({
    settings: { demoMode: false },
    handlers: {
      'status.get': () =>
        okResult(
          StatusSchema.parse({
            mode: 'live',
            key: { set: true, storage: 'the system keychain' },
            quota: {
              ...quota,
              periodStart: null,
              periodEnd: END,
              perPageLimit: 20,
              rateLimit: o.rateLimit,
              rateRemaining: 0,
            },
            budget: {
              allowedPerDay: o.allowedPerDay,
              spentLast24h: 4,
              projectedNext24h: 12,
              basis: 'quota',
              periodRemaining: o.remaining,
              periodEnd: END,
            },
            scale: 1,
            running: true,
            paused_until: END,
            pause_reason: o.reason,
            pause_kind: o.kind,
          }),
        ),
      'requests.list': () => okResult({ rows: [], last24h: 0 }),
    },
  });
}

describe('UsageView · a spent monthly quota', () => {
  it('says until which date, once, and never as seconds to wait', async () => {
    pausedUntilEnd({
      limit: 100,
      remaining: 0,
      rateLimit: 3,
      allowedPerDay: 0,
      kind: 'quota_spent',
      reason: "Your plan's monthly requests are used up until 12 February 2025.",
    });
    render(<UsageView />);
    const said = await screen.findByText(
      /^Your plan's monthly requests are used up until 12 February 2025\./,
    );
    expect(said.textContent).toContain('wait until then and start again by themselves');
    expect(screen.getAllByText(/used up until/)).toHaveLength(1);
    expect(document.body.textContent).not.toMatch(/\d{5,} s|seconds/);
    expect(document.querySelector('#usage-quota + .usage-headline')?.textContent).toBe(
      '0 of 100 left until 12 February 2025',
    );
  });
});

describe('UsageView · a long rate-limit pause', () => {
  it('says when polling resumes with the year', async () => {
    pausedUntilEnd({
      limit: 30000,
      remaining: 29900,
      rateLimit: 10,
      allowedPerDay: 900,
      kind: 'rate_limited',
      reason: 'The auction data service is getting too many requests from your key (HTTP 429)',
    });
    render(<UsageView />);
    const said = await screen.findByText(/^Polling is paused until/);
    expect(said.textContent).toContain(`Polling is paused until ${format(END, 'd MMMM yyyy, HH:mm')} (`);
    expect(document.body.textContent).toContain('over the days until 12 February 2025.');
  });
});

describe('UsageView · pausing watching', () => {
  /** Status as core reports it: paused by the buyer while the settings say so. */
  function mount() {
    const fake = installFake({
      handlers: {
        'status.get': () => {
          const until = fake.settings.watchPausedUntil;
          return okResult(
            statusView({
              budget: { spentLast24h: 4, projectedNext24h: 40 },
              paused_until: until,
              pause_reason: until === null ? null : 'You paused watching.',
              pause_kind: until === null ? null : 'user',
              watching: until === null ? { kind: 'running' } : { kind: 'paused_by_buyer', until },
            }),
          );
        },
        'requests.list': () => okResult({ rows: [], last24h: 0 }),
      },
    });
    render(<UsageView />);
    return fake;
  }

  it('pauses for an hour from now, then says until when and resumes', async () => {
    const fake = mount();
    fireEvent.click(await screen.findByRole('button', { name: 'Pause for 1 hour' }));
    await waitFor(() =>
      expect(inputsOf(fake, 'settings.update')).toEqual([{ watchPausedUntil: NOW + HOUR }]),
    );
    // Core sends the new state of watching the moment the pause is set.
    act(() =>
      fake.emit({ name: 'watching.changed', payload: { kind: 'paused_by_buyer', until: NOW + HOUR } }),
    );
    const said = await screen.findByText(/^You paused watching until/);
    expect(said.textContent).toBe(
      `You paused watching until ${format(NOW + HOUR, 'MMM d, h:mm a')}. No check runs until then.`,
    );
    // Said once: not again as "Polling is paused" in the budget.
    expect(screen.queryByText(/Polling is paused/)).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Resume watching' }));
    await waitFor(() => expect(inputsOf(fake, 'settings.update')).toHaveLength(2));
    expect(inputsOf(fake, 'settings.update')[1]).toEqual({ watchPausedUntil: null });
    act(() => fake.emit({ name: 'watching.changed', payload: { kind: 'running' } }));
    expect(await screen.findByRole('button', { name: 'Pause for 1 hour' })).toBeTruthy();
    expect(screen.queryByText(/You paused watching/)).toBeNull();
  });

  it('pauses until the next 8:00 AM, local time', async () => {
    const fake = mount();
    const morning = new Date(NOW);
    morning.setHours(8, 0, 0, 0);
    if (morning.getTime() <= NOW) morning.setDate(morning.getDate() + 1);
    const label = isSameDay(morning, NOW) ? 'Pause until 8:00 AM' : 'Pause until tomorrow 8:00 AM';
    fireEvent.click(await screen.findByRole('button', { name: label }));
    await waitFor(() =>
      expect(inputsOf(fake, 'settings.update')).toEqual([{ watchPausedUntil: morning.getTime() }]),
    );
    expect(fake.settings.watchPausedUntil).toBe(morning.getTime());
  });
});

/** A status answer with this budget and quota (live mode, running). */
function statusWith(budget: Record<string, unknown>, quota: Record<string, unknown> | null = null) {
  return okResult(
    statusView({
      mode: 'live',
      key: { set: true, storage: 'the system keychain' },
      quota:
        quota === null
          ? null
          : {
              at: NOW,
              limit: 1000,
              baseLimit: 1000,
              extraLimit: 0,
              used: 0,
              remaining: 1000,
              periodStart: null,
              periodEnd: null,
              perPageLimit: 20,
              rateLimit: 3,
              rateRemaining: 3,
              ...quota,
            },
      budget: { projectedNext24h: 10, basis: 'quota', ...budget },
      pause_kind: null,
    }),
  );
}

/** A request log row `ago` ms before NOW with this status (null: no answer). */
function logRow(ago: number, status: number | null) {
  return {
    at: NOW - ago,
    endpoint: '/vehicles',
    status,
    duration_ms: 120,
    bytes: 2000,
    attempt: 1,
    error_code: status === 200 ? null : 'x',
    user_name: null,
  };
}

describe('UsageView · the service’s usage answer', () => {
  it('shows the plan period and every other date as dates, never as ISO text', async () => {
    installFake({
      handlers: {
        'status.get': () => statusWith({}),
        'requests.list': () => okResult({ rows: [], last24h: 0 }),
        'usage.fetch': () =>
          okResult({
            usage: {
              plan: { name: 'Basic' },
              period: { start: '2026-12-01T12:00:00Z', end: '2026-12-31T12:00:00Z' },
              used: 45,
              renews_on: '2027-01-01',
            },
          }),
      },
    });
    render(<UsageView />);
    fireEvent.click(await screen.findByRole('button', { name: 'Refresh from service' }));
    expect(await screen.findByText('Plan period: 1 – 31 December 2026.')).toBeTruthy();
    expect(screen.getByText('1 January 2027')).toBeTruthy();
    expect(screen.getByText('Basic')).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });
});

describe('UsageView · two counts of requests', () => {
  it('says what each counts, and why the service’s is lower when the period began less than a day ago', async () => {
    const start = NOW - 6 * HOUR;
    installFake({
      handlers: {
        'status.get': () =>
          statusWith(
            { spentLast24h: 232, projectedNext24h: 100 },
            { used: 45, remaining: 955, periodStart: start },
          ),
        // 200 answered before the period began, 30 after it, and 2 refused for the key after it.
        'requests.list': () =>
          okResult({
            rows: [
              ...Array.from({ length: 200 }, (_, i) => logRow(10 * HOUR + i * 1000, 200)),
              ...Array.from({ length: 30 }, (_, i) => logRow(HOUR + i * 1000, 200)),
              logRow(2 * HOUR, 401),
              logRow(2 * HOUR + 1, 401),
            ],
            last24h: 232,
          }),
      },
    });
    render(<UsageView />);
    expect(
      await screen.findByText(
        "Sent with this key in the last 24 hours: 232 requests, Lotwatch's own count (retries and failed requests included).",
      ),
    ).toBeTruthy();
    const used = screen.getByText(
      /^Used this period: 45 requests, the service's own count since the period began on /,
    );
    expect(used.textContent).toBe(
      `Used this period: 45 requests, the service's own count since the period began on ${format(start, 'd MMMM')}.`,
    );
    const why = screen.getByText(/^The service counts fewer than the 232 sent in the last 24 hours/);
    expect(why.textContent).toBe(
      `The service counts fewer than the 232 sent in the last 24 hours: the period began ${format(start, 'd MMMM, h:mm a')}, less than a day ago, and 200 requests went out before it; 2 requests got no answer or were refused (the key, or too many a second), and the service counts only the requests it accepted.`,
    );
    expect(document.body.textContent).not.toContain('Spent in the last 24 hours');
  });

  it('after another key, the chart says how many of its requests were this key’s, as the budget counts them', async () => {
    // Seven requests two hours ago went to the key before; none yet to this one.
    installFake({
      handlers: {
        'status.get': () => statusWith({ spentLast24h: 0, projectedNext24h: 0 }),
        'requests.list': () =>
          okResult({
            rows: Array.from({ length: 7 }, (_, i) => logRow(2 * HOUR + 60_000 + i * 1000, 200)),
            last24h: 0,
          }),
      },
    });
    render(<UsageView />);
    expect(
      await screen.findByText(
        "Sent with this key in the last 24 hours: 0 requests, Lotwatch's own count (retries and failed requests included).",
      ),
    ).toBeTruthy();
    const hour = format(NOW - 2 * HOUR - 60_000, 'HH:00');
    expect(
      screen.getByText(
        `7 requests in the last 24 hours (0 of them with this key; the rest with another key or in Demo mode); busiest hour ${hour} with 7.`,
      ),
    ).toBeTruthy();
  });

  it('with one key the chart and the budget agree, and the chart says nothing of other keys', async () => {
    installFake({
      handlers: {
        'status.get': () => okResult(statusView({ budget: { spentLast24h: 3 } })),
        'requests.list': () =>
          okResult({ rows: Array.from({ length: 3 }, (_, i) => logRow(HOUR + i * 1000, 200)), last24h: 3 }),
      },
    });
    render(<UsageView />);
    expect(
      await screen.findByText(
        "Sent in Demo mode in the last 24 hours: 3 requests, Lotwatch's own count (retries and failed requests included).",
      ),
    ).toBeTruthy();
    expect(await screen.findByText(/^3 requests in the last 24 hours; busiest hour/)).toBeTruthy();
  });
});

describe('UsageView · over the day’s allowance', () => {
  const audi = savedSearch({
    id: 3,
    name: 'Audi under 10k',
    params: { make: 'AUDI', price_max: 10_000 },
    schedule: '*/10 * * * *',
    max_pages: 5,
    last_result_count: 150,
    rules: AlertRulesSchema.parse({ bid_above_usd: 9000 }),
  });
  const tesla = savedSearch({ id: 7, schedule: '*/30 * * * *', last_result_count: 10 });
  const RUNS: Record<string, number> = {
    '*/10 * * * *': 144,
    '*/30 * * * *': 48,
    '0 * * * *': 24,
    '0 */6 * * *': 4,
    '0 8 * * *': 1,
  };

  function mount(allowedPerDay: number) {
    const fake = installFake({
      handlers: {
        // 144 runs × 5 pages for Audi, 48 × 1 page for Tesla: 768 a day.
        'status.get': () =>
          statusWith({ allowedPerDay, projectedNext24h: 768, spentLast24h: 40, basis: 'setting' }),
        'requests.list': () => okResult({ rows: [], last24h: 0 }),
        'searches.list': () => okResult([audi, tesla]),
        'searches.estimate': (i) => {
          const runs = RUNS[i?.schedule ?? ''] ?? 0;
          return okResult({
            runs_per_week: runs * 7,
            runs_per_day: runs,
            requests_per_day: runs * (i?.max_pages ?? 1),
            allowed_per_day: allowedPerDay,
            planned_per_day: 768,
            basis: 'setting' as const,
            schedule_error: null,
          });
        },
        'searches.update': (i) => okResult({ ...audi, schedule: i?.schedule ?? audi.schedule }),
        'searches.setPaused': () => okResult({ ...audi, paused: true }),
      },
    });
    render(<UsageView />);
    return fake;
  }

  it('says the need and the limit in words, names the costliest search, and slows it in one click', async () => {
    const fake = mount(200);
    expect(
      await screen.findByText(
        'At this pace Lotwatch would need 768 requests today; your limit is 200 a day.',
      ),
    ).toBeTruthy();
    expect(
      await screen.findByText(
        '“Audi under 10k” costs the most: about 720 requests a day (5 pages every 10 minutes).',
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/of 200 requests today/)).toBeNull();
    // Every hour: 48 + 24 × 5 = 168 a day, within 200.
    fireEvent.click(screen.getByRole('button', { name: 'Check “Audi under 10k” every hour instead' }));
    await waitFor(() => expect(inputsOf(fake, 'searches.update')).toHaveLength(1));
    expect(inputsOf(fake, 'searches.update')[0]).toEqual({
      id: 3,
      name: 'Audi under 10k',
      params: audi.params,
      schedule: '0 * * * *',
      max_pages: 5,
      paused: false,
      rules: audi.rules,
    });
    expect(await screen.findByText('“Audi under 10k” now runs every hour.')).toBeTruthy();
    const settings = screen.getByRole('link', { name: 'Raise your limit in Settings' });
    expect(settings.getAttribute('href')).toBe('#/settings');
  });

  it('offers the slowest schedule when nothing faster fits, and pausing', async () => {
    const fake = mount(1);
    expect(
      await screen.findByText('At this pace Lotwatch would need 768 requests today; your limit is 1 a day.'),
    ).toBeTruthy();
    expect(
      await screen.findByRole('button', { name: 'Check “Audi under 10k” once a day instead' }),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Pause “Audi under 10k”' }));
    await waitFor(() => expect(inputsOf(fake, 'searches.setPaused')).toEqual([{ id: 3, paused: true }]));
    expect(await screen.findByText('Paused “Audi under 10k”. Resume it in Saved searches.')).toBeTruthy();
  });

  it('says nothing of advice while the day fits', async () => {
    installFake({
      handlers: {
        'status.get': () => statusWith({ allowedPerDay: 1000, projectedNext24h: 640 }),
        'requests.list': () => okResult({ rows: [], last24h: 0 }),
      },
    });
    render(<UsageView />);
    expect(await screen.findByText('At this pace: 640 of the 1,000 requests allowed today')).toBeTruthy();
    expect(screen.queryByText(/costs the most/)).toBeNull();
  });
});
