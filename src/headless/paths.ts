import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The default data folder, the same one the Electron shell uses (`app.getPath('userData')` for the app name
 * `lotwatch`): `$XDG_CONFIG_HOME/lotwatch` or `~/.config/lotwatch` on Linux, `~/Library/Application Support/
 * lotwatch` on macOS, `%APPDATA%\lotwatch` on Windows. `LOTWATCH_DATA_DIR` overrides it.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env['LOTWATCH_DATA_DIR']) return env['LOTWATCH_DATA_DIR'];
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'lotwatch');
  if (platform === 'win32') return join(env['APPDATA'] ?? join(homedir(), 'AppData', 'Roaming'), 'lotwatch');
  return join(env['XDG_CONFIG_HOME'] ?? join(homedir(), '.config'), 'lotwatch');
}
