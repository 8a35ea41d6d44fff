import { join } from 'node:path';
import { inject } from 'vitest';
import type { CHILD_ENTRIES } from './bundleChildren';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder the globalSetup (bundleChildren.ts) bundled CHILD_ENTRIES into. */
    childBundle: string;
  }
}

/**
 * The path of a child program's bundle (an ES module to run with `node`), built once per run by the globalSetup
 * (bundleChildren.ts). Call inside a test or hook.
 * @throws Error when the run's config has no such globalSetup (the bundle folder was not provided).
 */
export function childScript(name: keyof typeof CHILD_ENTRIES): string {
  const dir = inject('childBundle');
  if (!dir)
    throw new Error('no child bundle: add tests/helpers/bundleChildren.ts to the config’s globalSetup');
  return join(dir, `${name}.mjs`);
}
