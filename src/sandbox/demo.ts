import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_KEY, createSandbox, type Sandbox, type SandboxOptions } from './index';

const DAY = 86_400_000;

/**
 * The start time of the Demo market kept in `<dataDir>/demo-market.json`, so that a restarted app finds the same
 * simulated world moved on to the present (the same lots, sold or not) rather than a new world that reuses the
 * old lot numbers. A world older than `maxAgeMs` (7 days by default; advancing costs about half a second a day)
 * or an unreadable file starts a new world at `now` (ms, floored to the minute) and records it.
 *
 * @returns the market start time, ms since the epoch. Throws nothing: a file that cannot be written only means the
 *   next start begins a new world.
 */
export function demoWorldStart(dataDir: string, now: number, maxAgeMs = 7 * DAY): number {
  const file = join(dataDir, 'demo-market.json');
  try {
    const saved = (JSON.parse(readFileSync(file, 'utf8')) as { startTime?: unknown }).startTime;
    if (typeof saved === 'number' && Number.isFinite(saved) && saved <= now && now - saved <= maxAgeMs) return saved;
  } catch {
    // No file yet, or an unreadable one: a new world.
  }
  const startTime = Math.floor(now / 60_000) * 60_000;
  try {
    writeFileSync(`${file}.tmp`, JSON.stringify({ startTime }));
    renameSync(`${file}.tmp`, file);
  } catch {
    // A read-only data folder: the world simply starts anew next time.
  }
  return startTime;
}

/** The built-in sandbox as Demo mode uses it: started on first use, on 127.0.0.1 and a free port. */
export interface DemoService {
  /** Starts the sandbox once (about half a second for 20,000 lots) and returns its base URL and key. */
  get(): Promise<{ baseUrl: string; apiKey: string }>;
  /** Stops the sandbox if it was started. */
  dispose(): Promise<void>;
}

/**
 * Creates the lazily started demo service for a shell (Electron or headless). The market runs at real time
 * (speed 1) by default, with auctions every few minutes, so a new user sees alerts soon. `align` returns the
 * watcher's current time; the market is moved forward to it once started, so their clocks agree to the ms.
 * Demo mode answers in the real service's shapes (`shape` 'real', the default), so the app meets in Demo what it
 * meets against the real service. The specification's dialect, for tests of it, comes from `shape: 'spec'` or,
 * for a shell started as is (headless, end-to-end runs), from the environment: LOTWATCH_SANDBOX_SHAPE=spec. An
 * unknown value makes `get()` reject with createSandbox's RangeError.
 */
export function createDemoService(opts: SandboxOptions & { align?: () => number } = {}): DemoService {
  const { align, ...rest } = opts;
  const fromEnv = process.env['LOTWATCH_SANDBOX_SHAPE'];
  const sandboxOptions: SandboxOptions = { ...rest, shape: rest.shape ?? ((fromEnv || 'real') as SandboxOptions['shape']) };
  let sb: Sandbox | undefined;
  let starting: Promise<{ baseUrl: string; apiKey: string }> | undefined;
  return {
    get() {
      starting ??= (async () => {
        sb = createSandbox({ ...sandboxOptions });
        await sb.start(0, '127.0.0.1');
        // The market's clock must read what the watcher's clock reads (both advance at the same speed after this).
        if (align) {
          const ahead = align() - sb.marketNow();
          if (ahead > 0) sb.advance(ahead);
        }
        return { baseUrl: sb.baseUrl as string, apiKey: sb.keys[0] ?? DEMO_KEY };
      })();
      return starting;
    },
    async dispose() {
      if (starting) await starting.catch(() => undefined);
      await sb?.dispose();
    },
  };
}
