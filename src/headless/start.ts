import { join } from 'node:path';
import { createCore, type Core } from '../core/app';
import { systemClock, type Clock } from '../core/clock';
import { openDatabase } from '../core/db/connection';
import { createLogger, type Logger } from '../core/log';
import { FileSecretBox } from '../core/secrets';
import { createDemoService } from '../sandbox/demo';
import { createHeadlessServer, type HeadlessServer } from './server';

export interface HeadlessOptions {
  dataDir: string;
  rendererDir: string;
  host?: string;
  port?: number;
  token?: string;
  version: string;
  clock?: Clock;
  log?: Logger;
}

export interface RunningHeadless {
  url: string;
  core: Core;
  server: HeadlessServer;
  /** Stops the server, then core (which closes the database). */
  dispose(): Promise<void>;
}

/**
 * Starts the headless shell: core over `<dataDir>/lotwatch.sqlite` with a key-file secret box, and the HTTP
 * server. Alerts reach the page as `alert.raised` events, which it shows as browser notifications.
 * @throws DatabaseFromFutureError / DatabaseUnavailableError from openDatabase; listen errors (EADDRINUSE).
 */
export async function startHeadless(opts: HeadlessOptions): Promise<RunningHeadless> {
  const log = opts.log ?? createLogger();
  const dbPath = join(opts.dataDir, 'lotwatch.sqlite');
  const db = openDatabase(dbPath);
  const demo = createDemoService();
  const core = createCore({
    demoService: () => demo.get(),
    db,
    dbPath,
    dataDir: opts.dataDir,
    clock: opts.clock ?? systemClock,
    secrets: new FileSecretBox(join(opts.dataDir, 'secret.key')),
    notifier: { notify: () => {} },
    log,
    shell: 'headless',
    version: opts.version,
  });
  const server = createHeadlessServer({
    core,
    rendererDir: opts.rendererDir,
    log,
    ...(opts.host !== undefined ? { host: opts.host } : {}),
    ...(opts.port !== undefined ? { port: opts.port } : {}),
    ...(opts.token !== undefined ? { token: opts.token } : {}),
  });
  let url: string;
  try {
    url = await server.start();
  } catch (e) {
    await core.dispose();
    await demo.dispose();
    throw e;
  }
  return {
    url,
    core,
    server,
    async dispose() {
      await server.dispose();
      await core.dispose();
      await demo.dispose();
    },
  };
}
