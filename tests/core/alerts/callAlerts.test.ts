import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  callChangeAlerts,
  callFailingAlert,
  callShapeAlert,
  itemNoun,
  valueText,
} from '../../../src/core/alerts';
import type { AnswerChange, AnswerItem } from '../../../src/shared/callAnswer';
import { CallWatchConfigSchema, type CallWatchConfig } from '../../../src/shared/callWatch';
import { HOUR, NIGHT, QUIET_OFF, rules, T0 } from '../diff/fixtures';

const watch = { id: 7, name: 'Auction Garage', endpoint: 'GET /api/v1/vp/channel/videos' };
const video: AnswerItem = {
  key: 'dQw4w9WgXcQ',
  title: 'copart haul #212',
  url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  values: {},
};
const config = (fields: unknown[] = []): CallWatchConfig => CallWatchConfigSchema.parse({ fields });

const alerts = (
  changes: AnswerChange[],
  over: Partial<Parameters<typeof callChangeAlerts>[0]> = {},
): ReturnType<typeof callChangeAlerts> =>
  callChangeAlerts({
    watch,
    changes,
    config: config(),
    rules: rules(),
    quiet: QUIET_OFF,
    now: T0,
    tzOffsetMinutes: 0,
    alertsLastHour: 0,
    ...over,
  });

describe('callChangeAlerts texts and dedup keys', () => {
  it('a new video names the item and links it', () => {
    expect(alerts([{ kind: 'new_item', item: video }])).toEqual([
      {
        kind: 'call_new_item',
        delivery: 'now',
        reason: null,
        title: 'New video on “Auction Garage”: copart haul #212',
        body: 'It was not in the previous answer of GET /api/v1/vp/channel/videos.',
        dedup_key: 'call:7:new:dQw4w9WgXcQ',
        lot_key: null,
        url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      },
    ]);
  });

  it('a new item keeps its dedup key across runs, so a restart never repeats it', () => {
    const a = alerts([{ kind: 'new_item', item: video }], { now: T0 })[0]!;
    const b = alerts([{ kind: 'new_item', item: video }], { now: T0 + HOUR })[0]!;
    expect(b.dedup_key).toBe(a.dedup_key);
  });

  it('a removed item, without a link', () => {
    const item = { ...video, url: null };
    expect(alerts([{ kind: 'removed_item', item }])[0]).toMatchObject({
      kind: 'call_removed_item',
      title: 'Video gone from “Auction Garage”: copart haul #212',
      body: 'It was in the previous answer of GET /api/v1/vp/channel/videos and is not in this one.',
      dedup_key: `call:7:removed:dQw4w9WgXcQ:${T0}`,
      url: null,
    });
  });

  it('a root value changed, by its path or its label', () => {
    const w = { ...watch, endpoint: 'GET /api/v1/vp/youtube/video/playability' };
    const change: AnswerChange = {
      kind: 'value_changed',
      field: 1,
      item: null,
      before: 'OK',
      after: 'UNPLAYABLE',
      crossed: null,
    };
    const c = config([{ path: ['data', 'playable'] }, { path: ['data', 'status'] }]);
    expect(alerts([change], { watch: w, config: c })[0]).toMatchObject({
      kind: 'call_value_changed',
      title: '“Auction Garage”: data.status OK → UNPLAYABLE',
      body: 'It was OK in the previous answer of GET /api/v1/vp/youtube/video/playability and is UNPLAYABLE now.',
      dedup_key: `call:7:value:1:${''}:${T0}`,
      url: null,
    });
    const labelled = config([{ path: ['data', 'playable'] }, { path: ['data', 'status'], label: 'Status' }]);
    expect(alerts([change], { watch: w, config: labelled })[0]!.title).toBe(
      '“Auction Garage”: Status OK → UNPLAYABLE',
    );
  });

  it("an item's view count crossing the buyer's number names the item and links it", () => {
    const c = config([{ path: ['views'], in_items: true, crosses: 1_000_000, label: 'views' }]);
    const change: AnswerChange = {
      kind: 'value_changed',
      field: 0,
      item: video,
      before: 999_002,
      after: 1_000_001,
      crossed: 'up',
    };
    expect(alerts([change], { config: c })[0]).toMatchObject({
      title: '“Auction Garage” · copart haul #212: views crossed 1,000,000 (999,002 → 1,000,001)',
      body:
        'It went up past 1,000,000: 999,002 in the previous answer of GET /api/v1/vp/channel/videos, ' +
        '1,000,001 now.',
      dedup_key: `call:7:value:0:dQw4w9WgXcQ:${T0}`,
      url: video.url,
    });
    const down = alerts([{ ...change, before: 1_000_001, after: 12, crossed: 'down' }], { config: c })[0]!;
    expect(down.title).toBe('“Auction Garage” · copart haul #212: views crossed 1,000,000 (1,000,001 → 12)');
    expect(down.body.startsWith('It went down past 1,000,000: 1,000,001 in')).toBe(true);
  });

  it('an item key longer than 100 characters is hashed in the dedup key', () => {
    const key = `{"a":"${'x'.repeat(120)}"}`;
    const sha = createHash('sha1').update(key).digest('hex');
    const [n, r] = alerts([
      { kind: 'new_item', item: { ...video, key } },
      { kind: 'removed_item', item: { ...video, key } },
    ]);
    expect(n!.dedup_key).toBe(`call:7:new:${sha}`);
    expect(r!.dedup_key).toBe(`call:7:removed:${sha}:${T0}`);
    const exactly100 = 'k'.repeat(100);
    expect(alerts([{ kind: 'new_item', item: { ...video, key: exactly100 } }])[0]!.dedup_key).toBe(
      `call:7:new:${exactly100}`,
    );
  });
});

describe('itemNoun and valueText', () => {
  it.each([
    ['GET /api/v1/vp/channel/videos', 'video'],
    ['GET /api/v1/vp/channel/shorts', 'short'],
    ['GET /api/v1/vp/channel/livestreams', 'livestream'],
    ['GET /api/v1/vp/comments', 'comment'],
    ['GET /api/v1/vp/channel/posts', 'post'],
    ['GET /api/v1/vp/channel/podcasts', 'podcast'],
    ['GET /api/v1/vp/channel/playlists', 'playlist'],
    ['GET /api/v1/vp/discovery/search?q=x', 'result'],
    ['GET /api/v1/vp/discovery/trending', 'result'],
    ['GET /api/v1/vp/discovery/hashtag', 'result'],
    ['GET /api/v1/vp/channel/search', 'result'],
    ['GET /vehicles', 'vehicle'],
    ['GET /vehicles/{slugVin}/history', 'item'],
    ['GET /api/v1/vp/channel', 'item'],
    ['GET /constructor', 'item'],
    ['', 'item'],
  ])('%s -> %s', (endpoint, noun) => {
    expect(itemNoun(endpoint)).toBe(noun);
  });

  it('formats values for people', () => {
    expect(valueText(2025)).toBe('2025');
    expect(valueText(12_345)).toBe('12,345');
    expect(valueText(1.5)).toBe('1.5');
    expect(valueText(1e301)).toBe('1e+301');
    expect(valueText(true)).toBe('true');
    expect(valueText(null)).toBe('null');
    expect(valueText('')).toBe('""');
    expect(valueText('y'.repeat(100))).toBe(`${'y'.repeat(79)}…`);
  });

  it('a search result and a removed comment use their nouns', () => {
    const s = alerts([{ kind: 'new_item', item: video }], {
      watch: { ...watch, endpoint: 'GET /api/v1/vp/discovery/search' },
    });
    expect(s[0]!.title).toBe('New result on “Auction Garage”: copart haul #212');
    const c = alerts([{ kind: 'removed_item', item: video }], {
      watch: { ...watch, endpoint: 'GET /api/v1/vp/comments' },
    });
    expect(c[0]!.title).toBe('Comment gone from “Auction Garage”: copart haul #212');
  });
});

describe('callChangeAlerts delivery', () => {
  const one: AnswerChange[] = [{ kind: 'new_item', item: video }];
  const delivery = (over: Partial<Parameters<typeof callChangeAlerts>[0]>) =>
    alerts(one, over).map((a) => [a.delivery, a.reason]);

  it('muted: suppressed', () => {
    expect(delivery({ rules: rules({ muted: true }) })).toEqual([['suppressed', 'muted']]);
  });

  it('snoozed until later: suppressed; a snooze that is over: now', () => {
    expect(delivery({ rules: rules({ snooze_until: T0 + 1 }) })).toEqual([['suppressed', 'snoozed']]);
    expect(delivery({ rules: rules({ snooze_until: T0 }) })).toEqual([['now', null]]);
  });

  it("a lot's snooze-until-event, which a call never raises, does not silence it", () => {
    expect(delivery({ rules: rules({ snooze_until_event: 'sale_result' }) })).toEqual([['now', null]]);
  });

  it('the cap counts the last hour and the alerts before in the batch', () => {
    const cap = rules({ cap_per_lot_per_hour: 3 });
    expect(delivery({ rules: cap, alertsLastHour: 3 })).toEqual([['suppressed', 'cap']]);
    expect(delivery({ rules: cap, alertsLastHour: 2 })).toEqual([['now', null]]);
    const four = [1, 2, 3, 4].map((n): AnswerChange => ({
      kind: 'new_item',
      item: { ...video, key: `k${n}` },
    }));
    expect(alerts(four, { rules: cap, alertsLastHour: 1 }).map((a) => a.reason)).toEqual([
      null,
      null,
      'cap',
      'cap',
    ]);
  });

  it('quiet hours: digest; outside them: now', () => {
    // NIGHT: quiet 22:00–07:00; T0 is 14:00 UTC.
    expect(delivery({ quiet: NIGHT, tzOffsetMinutes: 0 })).toEqual([['now', null]]);
    expect(delivery({ quiet: NIGHT, now: T0 + 9 * HOUR, tzOffsetMinutes: 0 })).toEqual([
      ['digest', 'quiet_hours'],
    ]);
  });

  it('muted wins over quiet hours and the cap', () => {
    expect(
      delivery({ rules: rules({ muted: true, cap_per_lot_per_hour: 1 }), alertsLastHour: 5, quiet: NIGHT }),
    ).toEqual([['suppressed', 'muted']]);
  });
});

describe('call shape and failing alerts', () => {
  it('shape changed: says what is gone, keeps the last good answer, delivers now', () => {
    expect(callShapeAlert(watch, ['The value data.playable is gone from the answer.'], T0)).toEqual({
      kind: 'call_shape_changed',
      delivery: 'now',
      reason: null,
      title: 'The answer of “Auction Garage” changed shape',
      body:
        'The value data.playable is gone from the answer. Lotwatch keeps the last good answer and goes on checking; ' +
        'pick the list or values again if the service changed its answer.',
      dedup_key: `call_shape:7:${T0}`,
      lot_key: null,
      url: null,
    });
    expect(
      callShapeAlert(watch, 'not_json', T0).body.startsWith('The answer was not JSON. Lotwatch keeps'),
    ).toBe(true);
  });

  it('failing: paused itself, with the status and the service words, delivers now', () => {
    expect(callFailingAlert(watch, 3, 422, 'Unknown parameter: chanel_id.', T0)).toEqual({
      kind: 'call_failing',
      delivery: 'now',
      reason: null,
      title: 'Call watch “Auction Garage” paused itself',
      body: 'The last 3 calls were refused (HTTP 422): Unknown parameter: chanel_id. Check its parameters, then resume it.',
      dedup_key: `call_failing:7:${T0}`,
      lot_key: null,
      url: null,
    });
    expect(callFailingAlert(watch, 3, 404, '  ', T0).body).toBe(
      'The last 3 calls were refused (HTTP 404): no reason given. Check its parameters, then resume it.',
    );
  });
});
