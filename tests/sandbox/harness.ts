import { afterAll, beforeAll } from 'vitest';
import { DEMO_KEY, createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index';

/** A started sandbox on 127.0.0.1 with a small market and a fake real-time clock the test moves by hand. */
export interface Harness {
  sb: Sandbox;
  /** {url}/api/v1/vehicle-auction */
  base: string;
  url: string;
  clock: { t: number };
  get(path: string, init?: { key?: string | null; base?: string }): Promise<Response>;
  json(
    path: string,
    init?: { key?: string | null; base?: string },
  ): Promise<{ status: number; body: Record<string, unknown>; res: Response }>;
  close(): Promise<void>;
}

export const START = Date.UTC(2026, 5, 1, 12, 0, 0);

/**
 * Starts a sandbox for a test. Its service shows every market change at once (`refresh: 'instant'`) unless the
 * test asks for the real-like lag: most tests check one change right after making it.
 */
export async function startHarness(opts: SandboxOptions = {}): Promise<Harness> {
  const clock = { t: START };
  const sb = createSandbox({
    seed: 7,
    lots: 3000,
    startTime: START,
    ratePerSecond: 0,
    testControl: true,
    refresh: 'instant',
    now: () => clock.t,
    ...opts,
  });
  const url = await sb.start(0, '127.0.0.1');
  const base = `${url}/api/v1/vehicle-auction`;
  const get = (path: string, init: { key?: string | null; base?: string } = {}): Promise<Response> => {
    const key = init.key === undefined ? (sb.keys[0] ?? DEMO_KEY) : init.key;
    return fetch(`${init.base ?? base}${path}`, { headers: key === null ? {} : { 'X-API-Key': key } });
  };
  return {
    sb,
    base,
    url,
    clock,
    get,
    async json(path, init) {
      const res = await get(path, init);
      const text = await res.text();
      return { status: res.status, body: JSON.parse(text) as Record<string, unknown>, res };
    },
    close: () => sb.dispose(),
  };
}

/** A record as a test reads it from a JSON body: any field, any shape (the test's assertions are the check). */
export type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * For a test file that compares the two dialects (call at its top level): before the first test starts two harnesses
 * on the same seed and market, one answering in the real service's shapes (the default) and one in the
 * specification's (`shape: 'spec'`), and hands them to `use`; after the last test closes both.
 */
export function bothDialects(use: (real: Harness, spec: Harness) => void): void {
  let both: Harness[] = [];
  beforeAll(async () => {
    both = await Promise.all([startHarness(), startHarness({ shape: 'spec' })]);
    use(both[0]!, both[1]!);
  });
  afterAll(() => Promise.all(both.map((h) => h.close())));
}

export const QUOTA_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-subscription-limit',
  'x-subscription-base-limit',
  'x-subscription-extra-limit',
  'x-subscription-used',
  'x-subscription-remaining',
  'x-subscription-period-start',
  'x-subscription-period-end',
  'x-per-page-limit',
];
