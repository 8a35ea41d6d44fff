import { existsSync } from 'node:fs';
import { chromiumExecutable, electronBinary } from './env';

/** Checks the build exists and says once why the Electron project will be skipped on this machine. */
export default function globalSetup(): void {
  if (!existsSync('out/main/headless.js') || !existsSync('out/renderer/index.html')) {
    throw new Error('The app is not built. Run `npm run build` first (npm test does it for you).');
  }
  const e = electronBinary();
  if ('reason' in e) console.log(`[e2e] Electron project skipped: ${e.reason}.`);
  console.log(`[e2e] Chromium: ${chromiumExecutable() ?? "Playwright's bundled Chromium"}`);
}
