// @vitest-environment jsdom
import { frozenAtNow, inputsOf, installFake, render, testStore } from './fakeApi';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ConsoleView } from '../../../src/renderer/src/features/console/ConsoleView';
import {
  callStatusText,
  CallWatchesSection,
  costPerDay,
} from '../../../src/renderer/src/features/calls/CallWatchesSection';
import { scheduleCostText } from '../../../src/renderer/src/features/search/ScheduleCost';
import {
  autoItemKey,
  callWatchName,
  largestList,
} from '../../../src/renderer/src/features/calls/answerPaths';
import { AlertsView } from '../../../src/renderer/src/features/alerts/AlertsView';
import { SavedSearchesView } from '../../../src/renderer/src/features/saved/SavedSearchesView';
import { CallWatchViewSchema } from '../../../src/shared/ipc/contract/callWatches';
import type { CallWatchView, MethodOutput } from '../../../src/shared/ipc/contract';
import { errResult, okResult, type FakeHandlers } from '../fakeBridge';
import { alert, MINUTE, NOW } from './fixtures';

frozenAtNow();

const CHANNEL = 'UCx4Gk2vQ9pLm7RtZs3Yb8Nw';
const VIDEOS = 'GET /api/v1/vp/channel/videos';
const endpoints = [
  {
    name: VIDEOS,
    group: 'video-platform' as const,
    path_params: [],
    query_params: [],
    description: 'channel videos',
  },
];

/** A channel's videos as the service might answer: three videos, and a shorter list beside them. */
const answer = {
  data: {
    channel: { id: CHANNEL, title: 'Auction Garage' },
    items: [
      { videoId: 'v1', title: 'copart haul #210', viewCount: 950, playable: true },
      { videoId: 'v2', title: 'copart haul #211', viewCount: 400, playable: true },
      { videoId: 'v3', title: 'iaai run', viewCount: 120, playable: false },
    ],
    related: [{ id: 'p1' }],
  },
};

/** searches.estimate as core answers it: 48 runs a day of a 1,000-a-day share. */
const EVERY_30_MIN: MethodOutput<'searches.estimate'> = {
  runs_per_week: 336,
  runs_per_day: 48,
  requests_per_day: 48,
  allowed_per_day: 1000,
  planned_per_day: 0,
  basis: 'quota',
  schedule_error: null,
};
const estimate = () => okResult(EVERY_30_MIN);

function watchView(over: Partial<CallWatchView> = {}): CallWatchView {
  return CallWatchViewSchema.parse({
    id: 4,
    name: `Channel videos · channel_id=${CHANNEL}`,
    target: { endpoint: VIDEOS, path: {}, query: { channel_id: CHANNEL } },
    config: {},
    schedule: '*/30 * * * *',
    rules: {},
    paused: false,
    paused_reason: null,
    is_example: false,
    created_at: NOW - 600 * MINUTE,
    last_run_at: NOW - 5 * MINUTE,
    last_ok_at: NOW - 5 * MINUTE,
    next_run_at: NOW + 25 * MINUTE,
    last_status: 200,
    consecutive_failures: 0,
    last_error: null,
    list_path: ['data', 'items'],
    item_key: 'videoId',
    items: 3,
    requests_per_day: 48,
    alerts_24h: 0,
    ...over,
  });
}

/** Calls the channel-videos endpoint in the console with channel_id typed, and opens "Watch this call". */
async function openDialog(handlers: FakeHandlers = {}) {
  const fake = installFake({
    handlers: {
      'console.endpoints': () => okResult(endpoints),
      'status.get': () => okResult(null as never),
      'console.call': () =>
        okResult({ status: 200, json: answer, duration_ms: 80, requests: 1, remaining: 900 }),
      'searches.estimate': estimate,
      ...handlers,
    },
  });
  render(<ConsoleView />);
  fireEvent.change(await screen.findByRole('textbox', { name: 'Parameter 1 name' }), {
    target: { value: 'channel_id' },
  });
  fireEvent.change(screen.getByRole('textbox', { name: 'Parameter 1 value' }), {
    target: { value: CHANNEL },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Call' }));
  fireEvent.click(await screen.findByRole('button', { name: 'Watch this call' }));
  const dialog = await screen.findByRole('dialog', { name: 'Watch this call' });
  return { fake, dialog };
}

describe('answer paths', () => {
  it('as core finds it: the largest list of records, else the largest array; ties to the shallower', () => {
    expect(largestList(answer)).toEqual({ path: ['data', 'items'], count: 3 });
    expect(largestList({ a: { b: [{}, {}] }, c: [{}, {}] })).toEqual({ path: ['c'], count: 2 });
    // Tags (strings) are no list of records while a list of records exists, however long.
    expect(largestList({ tags: ['a', 'b', 'c', 'd'], items: [{ id: 1 }] })).toEqual({
      path: ['items'],
      count: 1,
    });
    expect(largestList([1, 2])).toEqual({ path: [], count: 2 });
    expect(largestList({ playable: true, items: [] })).toEqual({ path: ['items'], count: 0 });
    expect(largestList({ playable: true })).toBeNull();
  });

  it('the automatic key is the first of id, videoId, url that most items carry', () => {
    expect(autoItemKey([{ videoId: 'a', id: null }, { videoId: 'b' }])).toBe('videoId');
    expect(autoItemKey([{ id: 1 }, { url: 'u' }, { url: 'v' }])).toBe('url');
    expect(autoItemKey([{ title: 'x' }])).toBeNull();
  });

  it('names a watch by the endpoint and its first parameter, the id whole', () => {
    expect(callWatchName(VIDEOS, {}, { channel_id: CHANNEL })).toBe(`Channel videos · channel_id=${CHANNEL}`);
    expect(callWatchName('GET /vehicles/{slugVin}', { slugVin: '5YJ3E1EA7KF317000' }, {})).toBe(
      'Vehicles · slugVin=5YJ3E1EA7KF317000',
    );
    // Past the 120 characters a name holds, the id is not cut: the name is the endpoint alone.
    expect(callWatchName(VIDEOS, {}, { channel_id: 'x'.repeat(200) })).toBe('Channel videos');
  });
});

describe('Watch this call', () => {
  it('offers the largest list by default, the name with the whole id, and the cost per day', async () => {
    const { dialog } = await openDialog();
    const d = within(dialog);
    expect((d.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe(
      `Channel videos · channel_id=${CHANNEL}`,
    );
    const list = d.getByRole('combobox', { name: 'List to watch' }) as HTMLSelectElement;
    expect(list.selectedOptions[0]?.textContent).toBe('data.items · 3 items (the largest list)');
    expect([...list.options].map((o) => o.textContent)).toContain('data.related · 1 item');
    const key = d.getByRole('combobox', { name: 'Keyed by' }) as HTMLSelectElement;
    expect(key.selectedOptions[0]?.textContent).toBe('Automatic (videoId)');
    expect(
      await d.findByText(/About 48 requests a day \(1 call × 48 runs\) of your 1,000-a-day share/),
    ).toBeTruthy();
  });

  it('on a free plan starts from the most frequent schedule that fits its 3-a-day share', async () => {
    const runsPerDay: Record<string, number> = {
      '*/30 * * * *': 48,
      '0 * * * *': 24,
      '0 */6 * * *': 4,
      '0 8 * * *': 1,
    };
    const { dialog } = await openDialog({
      'searches.estimate': (i) =>
        okResult({
          ...EVERY_30_MIN,
          runs_per_week: runsPerDay[i!.schedule]! * 7,
          runs_per_day: runsPerDay[i!.schedule]!,
          requests_per_day: runsPerDay[i!.schedule]! * i!.max_pages,
          allowed_per_day: 3,
        }),
    });
    const d = within(dialog);
    expect(
      await d.findByText(
        'Every day at 8:00: the most often it fits your 3-a-day share beside what your saved searches and watches already need. Choose more often and Lotwatch would skip runs.',
      ),
    ).toBeTruthy();
    expect((d.getByRole('combobox', { name: 'Schedule' }) as HTMLSelectElement).value).toBe('0 8 * * *');
    expect(await d.findByText(/About 1 request a day \(1 call × 1 run\) of your 3-a-day share/)).toBeTruthy();
  });

  it('a value clicked in a list item becomes a per-item watched value; submit sends the exact target', async () => {
    const { fake, dialog } = await openDialog({
      'callWatches.create': (i) => okResult(watchView({ name: i!.name })),
    });
    const d = within(dialog);
    // Every value of the answer is a button, so the keyboard reaches it (Tab, then Enter or Space).
    const views = d.getByRole('button', { name: 'Watch data.items[0].viewCount: 950' });
    expect(views.tagName).toBe('BUTTON');
    fireEvent.click(views);
    const watched = d.getByRole('list', { name: 'Watched values' });
    expect(watched.textContent).toContain('viewCount in every item');
    // The same field of every item shows as picked.
    expect(
      d.getByRole('button', { name: 'Watch data.items[2].viewCount: 120' }).getAttribute('aria-pressed'),
    ).toBe('true');
    fireEvent.change(d.getByRole('spinbutton', { name: 'Alert only when viewCount crosses' }), {
      target: { value: '1000' },
    });
    fireEvent.click(d.getByRole('button', { name: 'Watch data.channel.title: "Auction Garage"' }));
    fireEvent.click(d.getByRole('checkbox', { name: /Removed items/ }));
    fireEvent.click(d.getByRole('button', { name: 'Watch this call' }));
    await screen.findByRole('dialog', { name: 'Call watched' });
    expect(inputsOf(fake, 'callWatches.create')).toEqual([
      {
        name: `Channel videos · channel_id=${CHANNEL}`,
        target: { endpoint: VIDEOS, path: {}, query: { channel_id: CHANNEL } },
        config: {
          list_path: null,
          item_key: null,
          alert_new: true,
          alert_removed: true,
          fields: [
            { path: ['viewCount'], in_items: true, label: null, crosses: 1000 },
            { path: ['data', 'channel', 'title'], in_items: false, label: null, crosses: null },
          ],
        },
        schedule: '*/30 * * * *',
      },
    ]);
  });

  it('another list and key field go as chosen; a bad schedule shows at the schedule field', async () => {
    const { fake, dialog } = await openDialog({
      'callWatches.create': () =>
        errResult('bad_input', 'Check the schedule.', {
          fields: { schedule: ['Not a valid cron expression: it needs five parts.'] },
        }),
    });
    const d = within(dialog);
    fireEvent.change(d.getByRole('combobox', { name: 'List to watch' }), {
      target: { value: JSON.stringify(['data', 'related']) },
    });
    fireEvent.change(d.getByRole('combobox', { name: 'Keyed by' }), { target: { value: 'id' } });
    fireEvent.change(d.getByRole('combobox', { name: 'Schedule' }), { target: { value: 'custom' } });
    fireEvent.change(d.getByRole('textbox', { name: /Cron expression/ }), { target: { value: '*/15 *' } });
    fireEvent.click(d.getByRole('button', { name: 'Watch this call' }));
    const msg = await d.findByText('Not a valid cron expression: it needs five parts.');
    expect(d.getByRole('textbox', { name: /Cron expression/ }).getAttribute('aria-invalid')).toBe('true');
    expect(msg.className).toContain('field-error');
    const sent = inputsOf(fake, 'callWatches.create')[0];
    expect(sent?.schedule).toBe('*/15 *');
    expect(sent?.config).toMatchObject({ list_path: ['data', 'related'], item_key: 'id' });
  });
});

describe('Watched calls list', () => {
  it('says each state in words, and the cost a day as requests', () => {
    expect(callStatusText(watchView()).text).toBe('Running');
    expect(callStatusText(watchView({ paused: true, paused_reason: 'buyer' })).text).toBe('Paused by you');
    expect(callStatusText(watchView({ last_run_at: null })).text).toBe('Not run yet');
    expect(callStatusText(watchView({ consecutive_failures: 2, last_error: 'HTTP 503.' }))).toEqual({
      text: 'Failed 2 times in a row — HTTP 503.',
      tone: 'danger',
    });
    expect(costPerDay(48)).toBe('48 requests a day');
    expect(costPerDay(1)).toBe('1 request a day');
    expect(costPerDay(5 / 7)).toBe('0.7 requests a day');
    const e = { ...EVERY_30_MIN, runs_per_week: 5, runs_per_day: 5 / 7, requests_per_day: 5 / 7 };
    expect(scheduleCostText(e, 1, 'call').cost).toBe(
      'About 5 requests a week (1 call × 5 runs), about 1 a day, of your 1,000-a-day share.',
    );
  });

  it('shows the call whole, its cost a day, and a watch that paused itself with the reason and Resume', async () => {
    const failing = watchView({
      id: 9,
      name: 'Playability',
      target: {
        endpoint: 'GET /api/v1/vp/vp/video/playability',
        path: {},
        query: { videoId: 'dQw4w9WgXcQ' },
      },
      paused: true,
      paused_reason: 'failing',
      consecutive_failures: 3,
      last_status: 404,
      last_error: 'The service has no such video (HTTP 404).',
      requests_per_day: 24,
      items: null,
      list_path: null,
    });
    const fake = installFake({
      handlers: {
        'callWatches.list': () => okResult([watchView(), failing]),
        'callWatches.setPaused': (i) => okResult({ ...failing, paused: i!.paused, paused_reason: null }),
      },
    });
    render(<CallWatchesSection />);
    const table = await screen.findByRole('table', { name: 'Watched calls' });
    const row = within(table).getByRole('row', { name: 'Playability' });
    expect(row.textContent).toContain(
      'Paused: the service refused it 3 times — The service has no such video (HTTP 404).',
    );
    expect(row.textContent).toContain('GET /api/v1/vp/vp/video/playabilityvideoId=dQw4w9WgXcQ');
    expect(row.textContent).toContain('24 requests a day');
    const first = within(table).getByRole('row', { name: `Channel videos · channel_id=${CHANNEL}` });
    expect(first.textContent).toContain('48 requests a day');
    expect(first.textContent).toContain(`channel_id=${CHANNEL}`);
    expect(first.textContent).toContain('in data.items');
    fireEvent.click(within(row).getByRole('button', { name: 'Resume Playability' }));
    await waitFor(() => expect(inputsOf(fake, 'callWatches.setPaused')).toEqual([{ id: 9, paused: false }]));
  });

  it('a Demo example outside Demo mode says it runs only there: no next run, no cost, no Pause or Resume', async () => {
    const example = watchView({
      id: 5,
      name: 'Auction Garage: new videos',
      is_example: true,
      waits_for_demo: true,
      next_run_at: null,
      requests_per_day: 0,
    });
    installFake({ handlers: { 'callWatches.list': () => okResult([example]) } });
    render(<CallWatchesSection />);
    const table = await screen.findByRole('table', { name: 'Watched calls' });
    const row = within(table).getByRole('row', { name: 'Auction Garage: new videos' });
    expect(row.textContent).toContain('Only in Demo mode');
    expect(row.textContent).toContain('Next: in Demo mode');
    expect(row.textContent).toContain('0 requests a day');
    expect(row.textContent).not.toContain('Running');
    expect(within(row).queryByRole('button', { name: /^(Pause|Resume) / })).toBeNull();
  });

  it('"Remove examples" on Saved searches counts the example watched call, removes it and reloads the list', async () => {
    let calls = [watchView({ name: 'Auction Garage: new videos', is_example: true })];
    const fake = installFake({
      handlers: {
        'searches.list': () => okResult([]),
        'callWatches.list': () => okResult(calls),
        'examples.remove': () => {
          calls = [];
          return okResult({ searches: 0, watches: 0, calls: 1 });
        },
      },
    });
    render(<SavedSearchesView store={testStore()} />);
    const table = await screen.findByRole('table', { name: 'Watched calls' });
    expect(within(table).getByRole('row', { name: 'Auction Garage: new videos' }).textContent).toContain(
      'Example',
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Remove examples (1)' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Remove examples' }));
    expect(
      await screen.findByText('Removed 0 example searches, 0 example watches and 1 example watched call.'),
    ).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('table', { name: 'Watched calls' })).toBeNull());
    expect(inputsOf(fake, 'examples.remove')).toHaveLength(1);
  });

  it('Edit opens the dialog over the last stored answer and saves with callWatches.update', async () => {
    const w = watchView({
      config: {
        list_path: null,
        item_key: null,
        alert_new: true,
        alert_removed: false,
        fields: [{ path: ['viewCount'], in_items: true, label: null, crosses: 1000 }],
      },
    });
    const fake = installFake({
      handlers: {
        'callWatches.list': () => okResult([w]),
        'callWatches.answer': () => okResult({ at: NOW - 5 * MINUTE, status: 200, json: answer }),
        'callWatches.update': (i) => okResult({ ...w, name: i!.name }),
        'searches.estimate': estimate,
      },
    });
    render(<CallWatchesSection />);
    fireEvent.click(await screen.findByRole('button', { name: `Edit ${w.name}` }));
    const dialog = await screen.findByRole('dialog', { name: `Edit · ${w.name}` });
    expect(within(dialog).getByRole('list', { name: 'Watched values' }).textContent).toContain('viewCount');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save call watch' }));
    await waitFor(() => expect(inputsOf(fake, 'callWatches.update')).toHaveLength(1));
    expect(inputsOf(fake, 'callWatches.update')[0]).toMatchObject({
      id: 4,
      target: w.target,
      paused: false,
      config: { fields: [{ path: ['viewCount'], in_items: true, crosses: 1000 }] },
    });
  });
});

describe('Inbox · watched calls', () => {
  it("groups a call's alerts under the call watch's name and links the item to open outside", async () => {
    installFake({
      handlers: {
        'alerts.list': () =>
          okResult({
            alerts: [
              alert({
                id: 1,
                lot_key: null,
                kind: 'call_new_item',
                source: 'call:4',
                title: 'New video on “Auction Garage”: copart haul #212',
                body: 'A new item in data.items.',
                url: 'https://video.example/watch?v=v4',
              }),
            ],
            unread: 1,
          }),
        'callWatches.list': () => okResult([watchView()]),
      },
    });
    render(<AlertsView />);
    expect(
      await screen.findByRole('heading', { name: `Channel videos · channel_id=${CHANNEL}` }),
    ).toBeTruthy();
    const link = screen.getByRole('link', { name: /^Open New video on “Auction Garage”/ });
    expect(link.getAttribute('href')).toBe('https://video.example/watch?v=v4');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(screen.getByText('New item')).toBeTruthy();
  });
});

describe('Watch this call · a refused value', () => {
  it("a number the contract refuses is said at its watched value, in the dialog's words", async () => {
    const { dialog } = await openDialog({
      'callWatches.create': () =>
        errResult('bad_input', 'Check the fields.', {
          fields: { 'config.fields.0.crosses': ['Invalid input: expected number, received string'] },
        }),
    });
    const d = within(dialog);
    fireEvent.click(d.getByRole('button', { name: 'Watch data.items[1].viewCount: 400' }));
    fireEvent.click(d.getByRole('button', { name: 'Watch this call' }));
    const item = (await d.findByText('Enter a number, or leave it empty to alert on any change.')).closest(
      'li',
    )!;
    expect(item.textContent).toContain('viewCount');
    expect(
      within(item)
        .getByRole('spinbutton', { name: 'Alert only when viewCount crosses' })
        .getAttribute('aria-invalid'),
    ).toBe('true');
  });
});
