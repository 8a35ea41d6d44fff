import { afterAll, beforeAll } from 'vitest';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index';

export { DEMO_KEY, type Sandbox } from '../../src/sandbox/index';

/**
 * A sandbox built from `opts` and listening on 127.0.0.1 at a free port (its `baseUrl` set): the service a core test
 * talks to over real HTTP. The caller disposes it.
 * @throws Error when the port cannot be bound.
 */
export async function startSandbox(opts: SandboxOptions): Promise<Sandbox> {
  const sb = createSandbox(opts);
  await sb.start(0, '127.0.0.1');
  return sb;
}

/**
 * A sandbox standing in for the real service: it accepts `key` (not the Demo key), holds `lots` lots, and keeps the X-API-Key header of every request it received, whatever it answered, in `keys`: what the tests of the
 * key's binding count. The caller disposes `sb`.
 * @throws Error when the port cannot be bound.
 */
export async function keyedService(key: string, lots: number): Promise<{ sb: Sandbox; keys: unknown[] }> {
  const sb = createSandbox({ lots, keys: [key] });
  const keys: unknown[] = [];
  sb.app.server.on('request', (req: { headers: Record<string, unknown> }) =>
    keys.push(req.headers['x-api-key']),
  );
  await sb.start(0, '127.0.0.1');
  return { sb, keys };
}

/**
 * For a test file whose tests share one sandbox (call at the file's top level): before the first test it starts one
 * from `opts` (`startSandbox`) and hands it to `use`; after the last it disposes it.
 */
export function sandboxPerFile(opts: SandboxOptions, use: (sb: Sandbox) => void): void {
  let sb: Sandbox | undefined;
  beforeAll(async () => {
    sb = await startSandbox(opts);
    use(sb);
  });
  afterAll(async () => sb?.dispose());
}
