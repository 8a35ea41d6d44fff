import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ApiInputError,
  BadResponseError,
  IncompleteResponseError,
  NetworkError,
  TimeoutError,
  UnauthorizedError,
  type ApiClient,
} from '../../src/core/api';
import { checkSearchParams } from '../../src/core/api/validate';
import { damagedFileError, diskFullError, emptyFileError, openFailure } from '../../src/core/db/integrity';
import { unreachableError } from '../../src/core/db/pg/open';
import { databaseTarget } from '../../src/core/db/target';
import {
  BadInputError,
  DatabaseFromFutureError,
  DemoSpeedError,
  LotwatchError,
  databaseErrorOf,
} from '../../src/core/errors';
import { AlreadyRunningError } from '../../src/core/instanceLock';
import { ConflictError } from '../../src/core/owners';
import { silentLogger } from '../../src/core/log';
import { dispatch, type Handlers } from '../../src/core/rpc';
import { DEFAULT_WATCH_RULES, parseRules } from '../../src/core/watchlist/rules';
import { ERROR_CODES, type ErrorCode, type ErrorPayload } from '../../src/shared/ipc/errors';
import { DEFAULT_SETTINGS } from '../../src/shared/settings';
import { plainZodMessage } from '../../src/shared/zodMessages';
import { errorText } from '../../src/renderer/src/lib/messages';
import { makeCore } from '../helpers/core';
import { setup } from '../core/api/helpers';

/*
 * The rules of docs/writing-guide.md that a program can check, on every error code of the contract and on core's
 * own error texts. Each payload is built the way the app builds it: service errors through the real client and
 * transport (a MockAgent answers with the status), `bad_input` through the real dispatcher and validators, the app's
 * own codes from their constructors, or, where a shell or the renderer writes the text inline, from that source
 * line. Each goes through `errorText`, the renderer's one place for error texts, and the text a buyer reads
 * (message + advice) must pass every rule.
 */

// ---------------------------------------------------------------------------------------------------------------
// The checks

/** The sentences of a text, split after `.`, `!` or `?` followed by a space. */
function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A sentence reduced for comparison: lower case, no punctuation, single spaces. */
function norm(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * What a buyer types or reads as an address is not a code name: web addresses, email addresses and file paths
 * (anything with a slash) are taken out before looking for field and code names.
 */
function withoutAddresses(text: string): string {
  return text
    .replace(/\bhttps?:\/\/\S+/g, ' ')
    .replace(/\S+@\S+\.\S+/g, ' ')
    .replace(/\S*[/\\]\S*/g, ' ');
}

/**
 * Dotted words a buyer may read: abbreviations. A dotted token is otherwise a JSON path or a method name
 * (`rules.bid_above_usd`, `quietHours.start`, `vehicles.search`), which rule 2 forbids. Numbers such as 1.5 never
 * match, since both sides must start with a letter.
 */
const DOTTED_WORDS = new Set(['e.g', 'i.e']);

/** The error codes that are code words, not English ("bad_input"); single words such as "network" may be used. */
const CODE_WORDS = ERROR_CODES.filter((c) => c.includes('_'));

/** An action: a verb opening a sentence or a clause (after `;` or `:`), maybe after an opening "To …," / "If …,". */
const ACTION_VERBS = [
  'Enter',
  'Check',
  'Try',
  'Wait',
  'Open',
  'Choose',
  'Turn',
  'Change',
  'Correct',
  'Add',
  'Remove',
  'Update',
  'Restart',
  'Free',
  'Restore',
  'Paste',
  'Save',
  'Select',
  'Use',
  'Quit',
  'Close',
  'Allow',
  'Ask',
  'Start',
  'Set',
  'Install',
  'Reload',
  'Fix',
  'Fill',
  'Keep',
  'Move',
  'Give',
];
const ACTION = new RegExp(
  `(?:^|[.!?;:]\\s+)(?:(?:to|if|when)\\s[^,.;:]*,\\s+)?(?:please\\s+)?(?:${ACTION_VERBS.join('|')})\\b`,
  'i',
);
const SELF_ACTION = /Lotwatch (tries again by itself|waits)/;

/** Every rule a text breaks: empty when it follows the guide. */
function violations(message: string, advice: string | null): string[] {
  const text = advice ? `${message} ${advice}` : message;
  const out: string[] = [];
  const plain = withoutAddresses(text);
  // (a) No raw field or code names, no programmer's words, no stack.
  const snake = plain.match(/\b[a-z]+_[a-z_]+\b/);
  if (snake) out.push(`a snake_case name: ${snake[0]}`);
  for (const m of plain.matchAll(/\b[A-Za-z_]\w*\.[A-Za-z_]\w*\b/g)) {
    if (!DOTTED_WORDS.has(m[0].toLowerCase())) out.push(`a dotted path: ${m[0]}`);
  }
  for (const word of ['undefined', 'null', 'NaN', '[object', 'Error:']) {
    if (new RegExp(`(^|[^\\w])${word.replace(/[[\]]/g, '\\$&')}($|[^\\w])`).test(text)) out.push(`"${word}"`);
  }
  if (/^\s*at\s/m.test(text) || /\(\S+:\d+:\d+\)/.test(text)) out.push('a stack frame');
  for (const code of CODE_WORDS)
    if (new RegExp(`\\b${code}\\b`).test(text)) out.push(`the code name ${code}`);
  // (b) Once: no sentence of the advice repeats one of the message, nor any sentence itself.
  const all = [...sentencesOf(message), ...sentencesOf(advice ?? '')].map(norm).filter(Boolean);
  const twice = all.find((s, i) => all.indexOf(s) !== i);
  if (twice) out.push(`a sentence said twice: "${twice}"`);
  // (c) An action is named.
  if (!ACTION.test(text) && !SELF_ACTION.test(text)) out.push('no action named');
  // (d) Dates as dates.
  if (/\d{4}-\d{2}-\d{2}T/.test(text)) out.push('an ISO timestamp');
  return out;
}

/** What a buyer reads for a payload, checked; the failure names the case and the text. */
function expectGuide(label: string, payload: ErrorPayload): void {
  const { message, advice } = errorText(payload);
  const text = advice ? `${message} ${advice}` : message;
  if (process.env['SHOW_TEXTS']) console.log(`${label}\n  ${text}`);
  expect(violations(message, advice), `${label}: ${text}`).toEqual([]);
}

describe('the checks themselves', () => {
  it.each([
    ['the doubled server text', 'The service had a problem (HTTP 502). Try again later.', 'Try again later.'],
    [
      'a raw field key',
      'rules.bid_above_usd: Invalid input: expected number, received string',
      'Correct it.',
    ],
    ['a code name', 'The request failed (bad_input).', 'Try again.'],
    ['no action', 'The service had a problem (HTTP 502).', null],
    ['an ISO date', 'The quota is used up until 2026-12-12T00:00:00Z.', 'Wait until then.'],
    ['a programmer word', 'The bid is null.', 'Enter a bid.'],
    ['a stack frame', 'Boom.\n    at dispatch (src/core/rpc.ts:12:3)', 'Try again.'],
  ])('catch %s', (_label, message, advice) => {
    expect(violations(message, advice)).not.toEqual([]);
  });

  it.each([
    ['the guide example', 'The auction data service had a problem (HTTP 502).', ADVICE_EXAMPLE],
    ['a labelled field', 'Year from: enter a whole number from 1900 to 2100.', null],
    ['an address', 'Enter a full address, for example https://ntfy.sh/topic or buyer@example.com.', null],
    ['a path', 'The data file /home/me/.lotwatch/lotwatch.sqlite is damaged. Restore a backup.', null],
  ])('pass %s', (_label, message, advice) => {
    expect(violations(message, advice)).toEqual([]);
  });
});

const ADVICE_EXAMPLE = 'Try again in a minute; saved searches and watches try again by themselves.';

// ---------------------------------------------------------------------------------------------------------------
// Payloads, built the way the app builds them

function handlers(over: Partial<Handlers> = {}): Handlers {
  return { ...({} as Handlers), 'settings.update': () => DEFAULT_SETTINGS, ...over };
}

async function refused(method: string, input: unknown, over: Partial<Handlers> = {}): Promise<ErrorPayload> {
  const r = await dispatch(handlers(over), method, input, silentLogger);
  if (r.ok) throw new Error(`${method} was not refused`);
  return r.error;
}

/** The message an inline `code: 'x', message: '…'` / `err('x', '…')` / `envelope('x', '…')` in `file` writes. */
function inlineMessages(file: string, code: ErrorCode): string[] {
  const src = readFileSync(file, 'utf8');
  const found = [
    ...src.matchAll(new RegExp(`(?:err|envelope)\\(\\s*'${code}',\\s*'((?:[^'\\\\]|\\\\.)+)'`, 'g')),
    ...src.matchAll(new RegExp(`code: '${code}', message: '((?:[^'\\\\]|\\\\.)+)'`, 'g')),
    ...src.matchAll(new RegExp(`new LotwatchError\\(\\s*'${code}',\\s*'((?:[^'\\\\]|\\\\.)+)'`, 'g')),
  ].map((m) => (m[1] ?? '').replace(/\\'/g, "'"));
  return found;
}

const sqliteError = (code: string) => Object.assign(new Error(`${code}: disk trouble`), { code });
const DATA = '/home/buyer/.config/lotwatch';
const FILE = `${DATA}/lotwatch.sqlite`;

/** The service's answers, through the real client and transport (no retries, so each status answers once). */
async function serviceErrors(): Promise<[string, ErrorPayload][]> {
  const out: [string, ErrorPayload][] = [];
  const caught = async (label: string, p: Promise<unknown>) => {
    try {
      await p;
      throw new Error(`${label}: no error`);
    } catch (e) {
      if (!(e instanceof LotwatchError)) throw e;
      out.push([label, e.toPayload()]);
    }
  };
  const env = setup({ retry: { maxRetries: 0 } });
  const c: ApiClient = env.client;
  const answer = async (
    label: string,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    env.on('/vehicles', status, body, headers);
    await caught(label, c.searchVehicles());
  };
  await answer('400', 400, { ok: false, message: 'The url must be a valid URL.' });
  await answer('401', 401, { ok: false, error: 'Unauthenticated.' });
  await answer('403', 403, { ok: false, message: 'Your plan does not include this endpoint.' });
  env.on('/vehicles/12345678', 404, { ok: false, message: 'Vehicle not found.' });
  await caught('404', c.getVehicle('12345678'));
  const perPage = 'The per page field must not be greater than 20.';
  await answer('422 with a field', 422, { ok: false, message: perPage, errors: { per_page: [perPage] } });
  const vin = 'The vin field must be 17 characters.';
  await answer('422 with two fields', 422, {
    ok: false,
    message: vin,
    errors: { vin: [vin], year_from: ['Bad.'] },
  });
  await answer('422 without fields', 422, { ok: false, message: 'The given data was invalid.' });
  await answer('422 with an unknown field', 422, { ok: false, errors: { colour_code: ['Unknown.'] } });
  await answer(
    '429 with Retry-After',
    429,
    { ok: false, message: 'Too Many Attempts.' },
    { 'retry-after': '3' },
  );
  await answer('429 without Retry-After', 429, { ok: false, message: 'Too Many Attempts.' });
  await answer('429 with a long Retry-After', 429, { ok: false }, { 'retry-after': '86400' });
  const spent = {
    ok: false,
    message: 'API request limit reached for current subscription period.',
    limit: 100,
  };
  await answer('429 quota spent', 429, { ...spent, used: 100, remaining: 0 });
  await answer(
    '429 quota spent until a date',
    429,
    { ...spent, used: 100, remaining: 0 },
    { 'retry-after': '2592000' },
  );
  for (const s of [500, 502, 503]) await answer(String(s), s, { ok: false, message: 'Server Error' });
  await answer('an HTML page', 200, '<html><body>Hello</body></html>', { 'content-type': 'text/html' });
  await answer('not JSON', 200, 'ok', { 'content-type': 'application/json' });
  await answer('a drifted envelope', 200, { ok: true, data: null });
  await answer('a 302', 302, '', {});
  env.pool
    .intercept({ path: (p: string) => p.startsWith('/api/v1/vehicle-auction/vehicles'), method: 'GET' })
    .replyWithError(
      Object.assign(new Error('connect ECONNREFUSED 203.0.113.9:443'), { code: 'ECONNREFUSED' }),
    );
  await caught('network', c.searchVehicles());
  const noKey = setup({ apiKey: () => undefined, retry: { maxRetries: 0 } });
  await caught('401 before sending: no key', noKey.client.searchVehicles());
  await caught('bad_input before sending', c.searchVehicles({ year_from: 1800 } as never));
  await env.agent.close();
  await noKey.agent.close();
  return out;
}

/** Where an alert channel may not send, and a secret kept for another server, refused by a real core. */
async function channelRefusals(): Promise<[string, ErrorPayload][]> {
  const { core, cleanup } = makeCore({ autoStart: false, demoExamples: false, ownPorts: () => [48123] });
  await core.ready;
  const email = (host: string, port: number, over: object = {}) => ({
    name: 'Office',
    config: {
      type: 'email',
      host,
      port,
      security: 'none',
      username: 'me',
      from: 'me@example.com',
      to: 'me@example.com',
    },
    ...over,
  });
  const refusedBy = async (input: unknown): Promise<ErrorPayload> => {
    const r = await core.invoke('channels.save', input);
    if (r.ok) throw new Error('channels.save was not refused');
    return r.error;
  };
  const out: [string, ErrorPayload][] = [
    ['a channel to a metadata address', await refusedBy(email('169.254.169.254', 25))],
    ['a channel to no host', await refusedBy(email('0.0.0.0', 25))],
    ['a channel to Lotwatch itself', await refusedBy(email('127.0.0.1', 48123))],
  ];
  const saved = await core.call('channels.save', email('127.0.0.1', 2525, { secret: 'pw' }) as never);
  out.push([
    'a channel moved without its password',
    await refusedBy(email('10.0.0.9', 2525, { id: saved.id })),
  ]);
  await cleanup();
  return out;
}

/** Every error code's payloads, as the app builds them. */
async function payloadsByCode(): Promise<Record<ErrorCode, [string, ErrorPayload][]>> {
  const by = Object.fromEntries(ERROR_CODES.map((c) => [c, []])) as unknown as Record<
    ErrorCode,
    [string, ErrorPayload][]
  >;
  const add = (label: string, p: ErrorPayload) => by[p.code].push([label, p]);

  // bad_input: the contract's own check, a handler's (the alert rules), the client's before sending.
  add('settings: a number for text', await refused('settings.update', { serviceUrl: 42 }));
  add('settings: text for a number', await refused('settings.update', { requestsPerDay: 'ten' }));
  add('settings: an unknown theme', await refused('settings.update', { theme: 'purple' }));
  add('settings: two bad fields', await refused('settings.update', { theme: 'purple', demoMode: 'yes' }));
  add('settings: a field no one knows', await refused('settings.update', { colour: 'red' }));
  add(
    'settings: quiet hours',
    await refused('settings.update', { quietHours: { enabled: true, start: '25:00', end: '07:00' } }),
  );
  add('settings: not a URL', await refused('settings.update', { serviceUrl: 'x'.repeat(10) }));
  add(
    'alert rules: text for an amount',
    await refused(
      'watchlist.setRules',
      { id: 1, rules: { bid_above_usd: '5000' } },
      { 'watchlist.setRules': (i) => parseRules(i.rules, DEFAULT_WATCH_RULES) as never },
    ),
  );
  add(
    'alert rules: a percent out of range',
    await refused(
      'watchlist.setRules',
      { id: 1, rules: { cap_per_lot_per_hour: 99 } },
      { 'watchlist.setRules': (i) => parseRules(i.rules, DEFAULT_WATCH_RULES) as never },
    ),
  );
  add(
    'search: checked before sending',
    await refused(
      'vehicles.search',
      { params: { year_from: 'abc' } },
      {
        'vehicles.search': (i) => checkSearchParams(i.params as never) as never,
      },
    ),
  );
  add(
    'a saved search with 0 pages',
    await refused('searches.estimate', { schedule: '*/30 * * * *', max_pages: 0 }),
  );
  add('an empty watch target', await refused('watchlist.add', { target: '' }));
  add(
    'a channel with no mail server',
    await refused('channels.save', {
      name: 'Office',
      config: { type: 'email', host: '', from: 'me@example.com', to: 'not an address' },
    }),
  );
  add('a key too short', await refused('key.set', { key: 'abc' }));
  for (const [label, p] of await channelRefusals()) add(label, p);

  // App codes, from the dispatcher and their constructors.
  add('an unknown method', await refused('settings.drop', {}));
  add(
    'a handler that throws',
    await refused('settings.get', undefined, {
      'settings.get': () => {
        throw new Error('boom');
      },
    }),
  );
  add(
    'a handler whose answer breaks the contract',
    await refused('settings.get', undefined, { 'settings.get': () => ({ theme: 42 }) as never }),
  );
  add('a newer data file', new DatabaseFromFutureError(FILE, 14, 12).toPayload());
  add(
    'a newer PostgreSQL database',
    new DatabaseFromFutureError(
      'postgres://lotwatch:***@db.example.com:5432/team',
      14,
      12,
      'postgres',
    ).toPayload(),
  );
  const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });
  for (const e of [
    pgError('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.5:5432'),
    pgError('ENOTFOUND', 'getaddrinfo ENOTFOUND db.example.com'),
    new Error('Connection terminated due to connection timeout'),
    pgError('28P01', 'password authentication failed for user "team"'),
    pgError('28000', 'role "team" does not exist'),
    pgError('3D000', 'database "lotwatch" does not exist'),
    pgError('53300', 'sorry, too many clients already'),
    pgError('57P03', 'the database system is starting up'),
    pgError('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'),
    new Error('Connection terminated unexpectedly'),
  ]) {
    const address = 'postgres://team:***@db.example.com:5432/lotwatch';
    add(
      `a PostgreSQL database: ${e.message}`,
      unreachableError(address, e, { timeoutMs: 10_000 }).toPayload(),
    );
  }
  for (const address of ['postgres://team:pw@db.example.com:5432', 'mysql://team@db/lotwatch']) {
    try {
      databaseTarget(address, {}, FILE);
    } catch (e) {
      add(`a database address: ${address}`, (e as LotwatchError).toPayload());
    }
  }
  for (const code of ['SQLITE_FULL', 'SQLITE_READONLY', 'SQLITE_IOERR_WRITE', 'SQLITE_CORRUPT']) {
    add(`running: ${code}`, databaseErrorOf(sqliteError(code))!.toPayload());
  }
  add('opening: empty file', emptyFileError(FILE).toPayload());
  add('opening: damaged file', damagedFileError(FILE, 'database disk image is malformed').toPayload());
  add('opening: disk full', diskFullError(FILE, 5 * 1048576).toPayload());
  add('opening: read-only', openFailure(FILE, sqliteError('SQLITE_READONLY')).toPayload());
  add('opening: disk error', openFailure(FILE, sqliteError('SQLITE_IOERR_READ')).toPayload());
  add(
    'opening: anything else',
    openFailure(FILE, new Error('Could not locate the bindings file.')).toPayload(),
  );
  const holder = {
    pid: 4242,
    shell: 'headless' as const,
    started_at: Date.UTC(2026, 10, 22, 9, 30),
    host: 'pc',
    proc_start: null,
  };
  add(
    'already running',
    new AlreadyRunningError(DATA, { ...holder, url: 'http://127.0.0.1:5199/' }).toPayload(),
  );
  add(
    'already running: desktop',
    new AlreadyRunningError(DATA, { ...holder, shell: 'electron', url: null }).toPayload(),
  );
  add(
    'already running: cannot tell',
    new AlreadyRunningError(DATA, { ...holder, url: null }, true).toPayload(),
  );
  // Nothing in the app raises `not_implemented` yet: a payload as a handler would build it.
  add(
    'not implemented',
    new LotwatchError('not_implemented', 'This version of Lotwatch cannot do that yet.').toPayload(),
  );
  // A save made on an older copy of a saved search or a watch (src/core/owners.ts), by a member and by the same one.
  add('a save on an older copy', new ConflictError('Dana', Date.UTC(2026, 5, 10, 12, 1), 0).toPayload());
  add(
    'a save on an older copy of your own',
    new ConflictError('you', Date.UTC(2026, 5, 10), -300).toPayload(),
  );
  // Texts the shells and the renderer write inline, read from their source.
  for (const [file, code] of [
    ['src/main/shell.ts', 'forbidden_sender'],
    ['src/main/shell.ts', 'internal'],
    ['src/headless/server.ts', 'internal'],
    ['src/core/app.ts', 'internal'],
    ['src/renderer/src/lib/useCall.ts', 'cancelled'],
  ] as const) {
    const messages = inlineMessages(file, code);
    for (const m of messages) add(`${file}: ${code}`, { code, message: m, retryable: code === 'cancelled' });
  }
  // Service codes, through the real client.
  for (const [label, p] of await serviceErrors()) add(label, p);
  add('timeout', new TimeoutError('/vehicles', 20_000).toPayload());
  add(
    'an answer cut off',
    new IncompleteResponseError('/vehicles', 200, 1200, 48_000, new Error('closed')).toPayload(),
  );
  return by;
}

let byCode: Record<ErrorCode, [string, ErrorPayload][]>;

beforeAll(async () => {
  byCode = await payloadsByCode();
});

describe('every error code reads as the writing guide says', () => {
  it.each(ERROR_CODES.map((c) => [c]))('%s', (code) => {
    const cases = byCode[code];
    expect(cases.length, `no payload built for ${code}`).toBeGreaterThan(0);
    for (const [label, payload] of cases) expectGuide(`${code} (${label})`, payload);
  });

  it('builds the service codes from the real transport (a status per code)', () => {
    for (const c of [
      'bad_request',
      'unauthorized',
      'forbidden',
      'not_found',
      'validation',
      'rate_limited',
      'server',
    ]) {
      expect(byCode[c as ErrorCode].length, c).toBeGreaterThan(0);
    }
  });

  it('says the service status, and the spent quota and the doubled 502 the way the guide shows', () => {
    const server = byCode.server.find(([l]) => l === '502')![1];
    const t = errorText(server);
    // The guide's example word for word; the service's own text ("Server Error") stays in the log.
    expect(`${t.message} ${t.advice}`).toBe(
      'The auction data service had a problem (HTTP 502). ' + ADVICE_EXAMPLE,
    );
    const internal = errorText(byCode.server.find(([l]) => l === '500')![1]);
    expect(`${internal.message} ${internal.advice}`).toBe(
      'The auction data service had an internal error (HTTP 500). ' + ADVICE_EXAMPLE,
    );
    const rules = byCode.bad_input.find(([l]) => l === 'alert rules: text for an amount')![1];
    expect(rules.message).toBe('Bid rises to (USD): enter a number.');
    expect(rules.fields).toHaveProperty(['rules.bid_above_usd']);
  });
});

describe("core's own error texts", () => {
  // Every LotwatchError subclass core raises, constructed directly with realistic details, read as the buyer
  // reads it (through errorText).
  const cases: [string, LotwatchError][] = [
    ['no key (the transport)', new UnauthorizedError('/vehicles', null, null)],
    ['network', new NetworkError('/vehicles', new Error('getaddrinfo ENOTFOUND apibara.tech'))],
    ['timeout of a minute', new TimeoutError('/vehicles', 60_000)],
    ['a reason with nothing', new BadResponseError('/vehicles', 'expected a JSON object, got null', 200)],
    [
      'a cursor given twice',
      new BadResponseError('/vehicles', 'the service returned a cursor it had already given'),
    ],
    [
      'an image that is not one',
      new BadResponseError('/image-proxy', 'content type "text/plain" is not a JPEG, PNG or WebP image', 200),
    ],
    ['a cut off answer without a length', new IncompleteResponseError('/vehicles', 200, 512, null, null)],
    [
      'the client: one field',
      new ApiInputError({ slugVin: ['Must be a VIN, a lot number or a vehicle slug.'] }),
    ],
    [
      'the client: two fields',
      new ApiInputError({
        vin: ['Give a VIN or a lot number.'],
        lot_number: ['Give a VIN or a lot number.'],
      }),
    ],
    [
      'the client: an unknown parameter',
      new ApiInputError({ colour: ['Not a parameter of this endpoint.'] }),
    ],
    [
      'a plain bad input',
      new BadInputError('That vehicle is already on your watchlist.', {
        target: ['Already on your watchlist.'],
      }),
    ],
    ['demo speed at start', new DemoSpeedError(600, 'start', DATA)],
    ['demo speed on switch', new DemoSpeedError(600, 'switch')],
  ];
  it.each(cases)('%s', (label, e) => {
    expectGuide(label, e.toPayload());
  });
});

describe("zod's own messages, in plain words (src/shared/zodMessages.ts)", () => {
  const first = (schema: z.ZodType, input: unknown) => schema.safeParse(input).error?.issues[0]?.message;
  it.each([
    ['a number for text', z.number(), 'x', 'Enter a number.'],
    ['text for a number', z.string(), 5, 'Enter text.'],
    ['a fraction for a whole number', z.number().int(), 1.5, 'Enter a whole number.'],
    ['a number out of its range', z.number().int().min(1).max(60), 0, 'Enter a whole number from 1 to 60.'],
    ['a number over its range', z.number().min(1).max(60).nullable(), 99, 'Enter a number from 1 to 60.'],
    ['a number below its floor', z.number().nonnegative(), -1, 'Enter a number of at least 0.'],
    ['a number above its ceiling', z.number().max(10_000_000), 2e7, 'Enter a number of at most 10,000,000.'],
    ['a number not above 0', z.number().positive(), 0, 'Enter a number greater than 0.'],
    ['too few characters', z.string().min(3), 'a', 'Enter at least 3 characters.'],
    ['too many characters', z.string().max(1), 'ab', 'Keep it to 1 character or fewer.'],
    ['a value not listed', z.enum(['a', 'b']), 'c', 'Choose one of the listed values.'],
    ['not an email address', z.string().email(), 'x', 'Enter a full address.'],
    ['not a URL', z.string().url(), 'x', 'Enter a full address.'],
    ['an unknown field', z.object({}).strict(), { a: 1 }, 'This request has a field Lotwatch does not know.'],
    ['anything else', z.string().regex(/^a$/), 'b', 'This value is not valid.'],
    [
      "a schema's own message",
      z.number().min(1, 'Allow at least 1 request a day.'),
      0,
      'Allow at least 1 request a day.',
    ],
  ])('%s', (_label, schema, input, message) => {
    expect(first(schema, input)).toBe(message);
  });

  it('answers every issue kind with a sentence', () => {
    expect(plainZodMessage({ code: 'custom', input: 1, path: [] } as never)).toBe('This value is not valid.');
  });
});
