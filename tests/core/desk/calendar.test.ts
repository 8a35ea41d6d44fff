import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import {
  calendarSkipped,
  DEFAULT_CALENDAR_NAME,
  watchedSalesCalendar,
  type CalendarSale,
} from '../../../src/core/desk/calendar';

// The .ics export is parsed back with ical.js, a different iCalendar library than the one that writes it, so the
// test checks what a calendar client reads, not the writer's idea of it.

const NOW = Date.UTC(2024, 4, 10, 12, 0, 0);
const NOTES = 'Front damage; keys, maybe — check\nAsk the yard about the “salvage” title\\letter. Ünïcödé 🚗';
// Long enough, and multi-byte enough, that RFC 5545 folding has to cut lines next to multi-byte characters.
const LONG_NOTES = 'Überprüfung — ' + 'Hagelschaden, Motorhaube; ✓ 🚗 '.repeat(12);

function sale(over: Partial<CalendarSale> & Pick<CalendarSale, 'lot_key' | 'lot_number'>): CalendarSale {
  return {
    platform: 'copart',
    vin: null,
    title: '2018 HONDA CIVIC',
    auction_at: null,
    location: null,
    current_bid_usd: null,
    max_bid_usd: null,
    landed_cost_usd: null,
    notes: '',
    url: null,
    updated_at: Date.UTC(2024, 4, 1),
    ...over,
  };
}

const civic = sale({
  lot_key: 'copart:45416833',
  lot_number: '45416833',
  vin: '2HGFC2F59JH512345',
  title: '2018 HONDA CIVIC',
  auction_at: Date.UTC(2024, 4, 14, 14, 0, 0),
  location: 'DALLAS, TX; South',
  current_bid_usd: 4200,
  max_bid_usd: 6000,
  landed_cost_usd: 12300,
  notes: NOTES,
  url: 'https://www.copart.com/lot/45416833',
  updated_at: Date.UTC(2024, 4, 9, 8, 30, 0),
});
const camry = sale({
  lot_key: 'iaai:38877123',
  platform: 'iaai',
  lot_number: '38877123',
  title: '2020 TOYOTA CAMRY',
  auction_at: Date.UTC(2024, 4, 13, 15, 30, 0),
  location: 'Houston North',
  notes: LONG_NOTES,
  updated_at: Date.UTC(2024, 4, 8),
});
const unscheduled = sale({ lot_key: 'copart:50000001', lot_number: '50000001', title: '2015 FORD F-150' });

interface Parsed {
  calendar: ICAL.Component;
  events: Map<string, ICAL.Event>;
}

function parse(text: string): Parsed {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = new Map<string, ICAL.Event>();
  for (const vevent of calendar.getAllSubcomponents('vevent')) {
    const event = new ICAL.Event(vevent);
    events.set(event.uid, event);
  }
  return { calendar, events };
}

function only(events: Map<string, ICAL.Event>, uid: string): ICAL.Event {
  const event = events.get(uid);
  if (!event) throw new Error(`no event ${uid}`);
  return event;
}

describe('watchedSalesCalendar', () => {
  const text = watchedSalesCalendar([civic, unscheduled, camry], { now: NOW });
  const { calendar, events } = parse(text);

  it('has one event per sale with a time, under a UID stable per lot', () => {
    expect(calendar.getAllSubcomponents('vevent')).toHaveLength(2);
    expect([...events.keys()]).toEqual(['iaai:38877123@lotwatch', 'copart:45416833@lotwatch']);
    expect(calendarSkipped([civic, unscheduled, camry])).toEqual([unscheduled]);
    expect(text).not.toContain('50000001');
  });

  it('starts each event at the sale time, in UTC, for 30 minutes', () => {
    for (const s of [civic, camry]) {
      const event = only(events, `${s.lot_key}@lotwatch`);
      expect(event.startDate.toJSDate().getTime()).toBe(s.auction_at);
      expect(event.startDate.zone.tzid).toBe('UTC');
      expect(event.endDate.toJSDate().getTime() - event.startDate.toJSDate().getTime()).toBe(30 * 60_000);
    }
    expect(text).toContain('\r\nDTSTART:20240514T140000Z\r\n');
  });

  it('writes summary, location, description, URL and the stamps', () => {
    const event = only(events, 'copart:45416833@lotwatch');
    expect(event.summary).toBe('Sale: 2018 HONDA CIVIC · copart lot 45416833');
    expect(only(events, 'iaai:38877123@lotwatch').summary).toBe(
      'Sale: 2020 TOYOTA CAMRY · iaai lot 38877123',
    );
    expect(event.location).toBe('DALLAS, TX; South');
    expect(event.description).toBe(
      [
        'copart lot 45416833',
        'VIN: 2HGFC2F59JH512345',
        'Current bid: $4,200',
        'Max bid: $6,000',
        'Landed cost: $12,300',
        'https://www.copart.com/lot/45416833',
        '',
        'Notes:',
        NOTES,
      ].join('\n'),
    );
    expect(event.component.getFirstPropertyValue('url')).toBe('https://www.copart.com/lot/45416833');
    const time = (p: string): number =>
      (event.component.getFirstPropertyValue(p) as ICAL.Time).toJSDate().getTime();
    expect(time('dtstamp')).toBe(NOW);
    expect(time('last-modified')).toBe(civic.updated_at);
  });

  it('round-trips notes with ; , \\ line breaks and non-ASCII text exactly', () => {
    expect(only(events, 'copart:45416833@lotwatch').description.endsWith(`\nNotes:\n${NOTES}`)).toBe(true);
    expect(only(events, 'iaai:38877123@lotwatch').description.endsWith(`\nNotes:\n${LONG_NOTES}`)).toBe(true);
  });

  it('names the calendar and its producer', () => {
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe(DEFAULT_CALENDAR_NAME);
    expect(DEFAULT_CALENDAR_NAME).toBe('Lotwatch: watched sales');
    expect(calendar.getFirstPropertyValue('prodid')).toContain('Lotwatch');
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    const named = parse(watchedSalesCalendar([civic], { now: NOW, name: 'Buyer A sales' })).calendar;
    expect(named.getFirstPropertyValue('x-wr-calname')).toBe('Buyer A sales');
  });

  it('ends every line in CRLF and folds lines at 75 octets (RFC 5545 §3.1)', () => {
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    const lines = text.slice(0, -2).split('\r\n');
    for (const line of lines) {
      expect(line).not.toMatch(/[\r\n]/);
      expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    }
    // The long notes were folded (continuation lines start with a space), not left as one long line.
    expect(lines.filter((l) => l.startsWith(' ')).length).toBeGreaterThan(3);
    // No character was cut in two: each physical line is whole UTF-8 on its own (a cut surrogate pair would not be).
    for (const line of lines) expect(Buffer.from(line, 'utf8').toString('utf8')).toBe(line);
  });

  it('moves a rescheduled sale: same UID, new start, higher SEQUENCE', () => {
    const before = only(events, 'copart:45416833@lotwatch');
    const moved: CalendarSale = {
      ...civic,
      auction_at: Date.UTC(2024, 4, 21, 14, 0, 0),
      updated_at: Date.UTC(2024, 4, 10, 9, 15, 0),
    };
    const after = parse(watchedSalesCalendar([moved, unscheduled, camry], { now: NOW + 60_000 })).events;
    expect(after.size).toBe(2);
    const event = only(after, 'copart:45416833@lotwatch');
    expect(event.startDate.toJSDate().getTime()).toBe(moved.auction_at);
    expect(event.sequence).toBeGreaterThan(before.sequence);
    // The lot that did not move keeps its SEQUENCE, so clients see it as unchanged.
    expect(only(after, 'iaai:38877123@lotwatch').sequence).toBe(
      only(events, 'iaai:38877123@lotwatch').sequence,
    );
  });

  it('is the same text for the same sales in any order', () => {
    expect(watchedSalesCalendar([camry, civic, unscheduled], { now: NOW })).toBe(text);
  });

  it('leaves out a URL that ical-generator would escape, but keeps it in the description', () => {
    const url = 'https://www.iaai.com/VehicleDetail/38877123~US?a=1,2';
    const event = only(
      parse(watchedSalesCalendar([{ ...camry, url }], { now: NOW })).events,
      'iaai:38877123@lotwatch',
    );
    expect(event.component.getFirstPropertyValue('url')).toBeNull();
    expect(event.description).toContain(`\n${url}\n`);
  });

  it('throws a RangeError on a bad time or a duplicate lot', () => {
    expect(() => watchedSalesCalendar([civic], { now: Number.NaN })).toThrow(RangeError);
    expect(() =>
      watchedSalesCalendar([{ ...civic, updated_at: Number.POSITIVE_INFINITY }], { now: NOW }),
    ).toThrow(RangeError);
    expect(() => watchedSalesCalendar([civic, { ...civic }], { now: NOW })).toThrow(
      /two sales share lot_key/,
    );
    // No sale time is not an error: the sale is left out.
    expect(parse(watchedSalesCalendar([unscheduled], { now: NOW })).events.size).toBe(0);
  });
});
