import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where the Electron-ABI build of better-sqlite3 lives. Plain Node (tests, headless) uses the module's own
 * build in node_modules; the Electron app loads this one through `nativeBinding`, so neither has to be
 * rebuilt when switching between them. `npm start` fills the folder (electronSqliteBinding in `scripts/start.mjs`).
 *
 * Shape: `<cacheRoot>/better-sqlite3-<version>/electron-v<modules>-<platform>-<arch>/better_sqlite3.node`.
 */
export function electronBindingPath(opts: {
  cacheRoot: string;
  betterSqliteVersion: string;
  modules: string;
  platform: string;
  arch: string;
}): string {
  return join(
    opts.cacheRoot,
    `better-sqlite3-${opts.betterSqliteVersion}`,
    `electron-v${opts.modules}-${opts.platform}-${opts.arch}`,
    'better_sqlite3.node',
  );
}

/**
 * Chooses the native module for the Electron shell: `LOTWATCH_SQLITE_BINDING` when set (the start script
 * sets it), else the cache path when it exists. Returns undefined to fall back to the default resolution.
 */
export function resolveElectronBinding(env: NodeJS.ProcessEnv, cachePath: string): string | undefined {
  const fromEnv = env['LOTWATCH_SQLITE_BINDING'];
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  if (existsSync(cachePath)) return cachePath;
  return undefined;
}
