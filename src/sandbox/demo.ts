import { DEMO_KEY, createSandbox, type Sandbox, type SandboxOptions } from './index';

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
 */
export function createDemoService(opts: SandboxOptions & { align?: () => number } = {}): DemoService {
  const { align, ...sandboxOptions } = opts;
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
