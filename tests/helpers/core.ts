import { afterEach } from 'vitest';
import type { Clock } from '../../src/core/clock';
import { makeCore, whenReady, type LiveService, type MakeCoreOptions, type TestCore } from './buildCore';
import type { FakeClock } from './fakeClock';

export * from './buildCore';

/**
 * For a test file whose tests each build cores: registers an afterEach that cleans up every core made since, newest
 * first, and returns `startCore` bound to that list. Call at the top level of the file.
 */
export function coresPerTest(): <C extends Clock = FakeClock>(
  opts?: MakeCoreOptions<C> & { live?: LiveService },
) => Promise<TestCore<C>> {
  const open: { cleanup(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const made of open.splice(0).reverse()) await made.cleanup();
  });
  return async (opts = {}) => {
    const { live, ...rest } = opts;
    const made = makeCore(rest);
    open.push(made);
    return whenReady(made, live);
  };
}
