import { join } from 'node:path';
import { startShell } from './shell';

// Entry of the Electron main process. All logic lives in shell.ts so it can be tested with electron mocked.
void startShell({
  preload: join(import.meta.dirname, '../preload/index.cjs'),
  rendererHtml: join(import.meta.dirname, '../renderer/index.html'),
  devServerUrl: process.env['ELECTRON_RENDERER_URL'],
});
