import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The Chromium to drive: CHROMIUM_PATH, else Debian's /usr/bin/chromium, else Playwright's own (undefined). */
export function chromiumExecutable(): string | undefined {
  const fromEnv = process.env['CHROMIUM_PATH'];
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  return undefined;
}

/**
 * The Electron binary if one is installed (never downloads): the override dist path, or the path the
 * electron package recorded after a successful download. Returns the reason when there is none.
 */
export function electronBinary(root = process.cwd()): { path: string } | { reason: string } {
  const pkg = join(root, 'node_modules', 'electron');
  const override = process.env['ELECTRON_OVERRIDE_DIST_PATH'];
  if (override) {
    const p = join(override, process.platform === 'win32' ? 'electron.exe' : 'electron');
    return existsSync(p) ? { path: p } : { reason: `ELECTRON_OVERRIDE_DIST_PATH has no binary at ${p}` };
  }
  const pathFile = join(pkg, 'path.txt');
  if (!existsSync(pathFile)) {
    return { reason: 'the Electron binary was never downloaded (node_modules/electron/path.txt is missing)' };
  }
  const p = join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(p) ? { path: p } : { reason: `the Electron binary is missing at ${p}` };
}
