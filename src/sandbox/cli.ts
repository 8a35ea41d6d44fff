import { parseArgs } from 'node:util';
import { DEMO_KEY, createSandbox } from './index';

// Entry of `npm run sandbox` (built to out/main/sandbox.js): the sandbox standalone, until SIGINT/SIGTERM.
const HELP = `Usage: npm run sandbox -- [--port 8787] [--host 127.0.0.1] [--seed 42] [--speed 1] [--lots 20000] [--key K]
       [--rate 40] [--quota 100000] [--shape real|spec] [--test-control]

Serves the simulated Vehicle Auction Data Service. --speed runs the market clock from 1x to 3600x real time.
Without --key it accepts the demo key ${DEMO_KEY}. --shape real (default) answers in the real service's shapes;
--shape spec in the specification's (flat fields, lot_status/lot_sub_status, history as records).`;

async function main(): Promise<number> {
  let a;
  try {
    a = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        seed: { type: 'string' },
        speed: { type: 'string' },
        lots: { type: 'string' },
        key: { type: 'string', multiple: true },
        rate: { type: 'string' },
        quota: { type: 'string' },
        shape: { type: 'string' },
        'test-control': { type: 'boolean' },
        help: { type: 'boolean' },
      },
    }).values;
  } catch (e) {
    console.error(`sandbox: ${(e as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (a.help) {
    console.log(HELP);
    return 0;
  }
  const num = (name: string, v: string | undefined, dflt: number, min: number, max: number): number => {
    if (v === undefined) return dflt;
    const n = Number(v);
    if (!Number.isFinite(n) || n < min || n > max)
      throw new Error(`--${name} must be a number from ${min} to ${max}, not ${v}`);
    return n;
  };
  let sandbox;
  let url;
  const t0 = performance.now();
  try {
    const port = num('port', a.port, 8787, 0, 65535);
    const shape = a.shape ?? 'real';
    if (shape !== 'real' && shape !== 'spec') throw new Error(`--shape must be real or spec, not ${shape}`);
    sandbox = createSandbox({
      seed: num('seed', a.seed, 42, 0, 2 ** 32 - 1),
      speed: num('speed', a.speed, 1, 0, 3600),
      lots: num('lots', a.lots, 20_000, 1, 1_000_000),
      ...(a.key ? { keys: a.key } : {}),
      ratePerSecond: num('rate', a.rate, 40, 0, 1e9),
      quota: { limit: num('quota', a.quota, 100_000, 0, 1e12), periodMs: 30 * 24 * 3600_000 },
      testControl: a['test-control'] ?? false,
      shape,
    });
    url = await sandbox.start(port, a.host ?? '127.0.0.1');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    console.error(
      `sandbox: ${err.code === 'EADDRINUSE' ? `port in use; choose another with --port (0 = any)` : err.message}`,
    );
    return 1;
  }
  const s = sandbox;
  console.log(
    `Sandbox Vehicle Auction Data Service (${s.market.lots.length} lots, started in ${Math.round(performance.now() - t0)} ms)`,
  );
  console.log(`Base URL: ${s.baseUrl}`);
  console.log(`Video:    ${url}/api/v1/youtube`);
  console.log(`API key:  ${s.keys.join(', ')}`);
  console.log(
    `Shape:    ${s.shape === 'real' ? "real (the real service's records)" : "spec (the specification's records)"}`,
  );
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  // Close cleanly, but never hang on a client that keeps its connections busy: exit after 3 s regardless.
  await Promise.race([s.dispose(), new Promise((r) => setTimeout(r, 3_000).unref())]);
  return 0;
}

void main().then((code) => process.exit(code));
