import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';

/** The programs tests run as child processes, by bundle name: their source files, from the project's root. */
export const CHILD_ENTRIES = {
  /** The browser shell's command line, built as `npm run serve` builds it. */
  cli: 'src/headless/cli.ts',
  /** A core on a stepped market clock that keeps a journal, for the crash-restart scenario. */
  'crash-child': 'tests/core/watch/crash/child.ts',
  /** A core that sends the alert channels' outbox, for the channel kill test. */
  'kill-child': 'tests/core/channels/kill/child.ts',
  /** A core running a call watch, for the call watches' kill -9 test. */
  'call-kill-child': 'tests/core/calls/kill/child.ts',
} as const;

/**
 * Vitest globalSetup (vitest.config.ts, tests/soak and tests/chaos configs): bundles every program the tests run as
 * a child process (CHILD_ENTRIES: the browser shell's command line, the crash test's core, the channel kill test's
 * core) in one vite build, once per run, and provides the folder to the tests as `childBundle` (read it with
 * `childScript` from ./children). Bundling the whole core takes seconds of CPU; each test file used to do it on its
 * own. The folder sits in node_modules/.cache so the bundles' bare imports (zod, undici, better-sqlite3) resolve
 * from node_modules; it is named by process id (runs side by side do not share it) and removed at teardown.
 * @throws whatever vite throws when an entry does not build (the run then fails before any test).
 */
export default async function bundleChildren(project: TestProject): Promise<() => void> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const out = resolve(root, 'node_modules/.cache/lotwatch-test', `children-${process.pid}`);
  await build({
    logLevel: 'silent',
    configFile: false,
    build: {
      ssr: true,
      outDir: out,
      emptyOutDir: true,
      rollupOptions: {
        input: Object.fromEntries(
          Object.entries(CHILD_ENTRIES).map(([name, file]) => [name, resolve(root, file)]),
        ),
        output: { format: 'es', entryFileNames: '[name].mjs' },
      },
    },
    ssr: { noExternal: [] },
  });
  project.provide('childBundle', out);
  return () => rmSync(out, { recursive: true, force: true });
}
