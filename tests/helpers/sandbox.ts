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
