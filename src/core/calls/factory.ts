import type { ApiClient } from '../api';
import type { Clock } from '../clock';
import type { Store } from '../db/store';
import type { ApiConsole } from '../explore/apiConsole';
import type { RequestBudget } from '../watch/budget';
import type { EngineDeps, WatchEngine } from '../watch/engine';
import type { ContractEvent } from '../../shared/ipc/contract';
import type { QuietHours } from '../../shared/watch';
import { CallRuns } from './runner';
import { CallWatchService } from './service';

/**
 * The watch engine's call-watch runner, built from the engine's own parts (EngineDeps.calls): what app.ts needs to
 * give is the store, the client, the clock, the budget, the event sink, and the buyer's quiet hours and UTC offset.
 */
export function callRunnerOf(d: {
  store: Store;
  client: () => ApiClient | null;
  clock: Clock;
  budget: RequestBudget;
  emit: (e: ContractEvent) => void;
  quiet: () => QuietHours;
  tzOffsetMinutes: (t: number) => number;
}): NonNullable<EngineDeps['calls']> {
  return (parts) => new CallRuns({ ...d, ...parts });
}

/** The call-watch service, built from what app.ts holds (its handlers: handlers.ts callWatchHandlers). */
export function callWatchService(d: {
  store: Store;
  engine: WatchEngine;
  clock: Clock;
  clientOrThrow: () => ApiClient;
  apiConsole: ApiConsole;
  /** Whether Demo mode's examples run (Demo mode is on). */
  examplesActive: () => boolean;
}): CallWatchService {
  return new CallWatchService({
    calls: d.store.calls,
    engine: d.engine,
    clock: d.clock,
    clientOrThrow: d.clientOrThrow,
    examplesActive: d.examplesActive,
    endpoints: () => d.apiConsole.endpoints().map((e) => e.name),
  });
}
