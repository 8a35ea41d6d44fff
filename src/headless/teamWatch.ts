import type { Core } from '../core/app';
import { systemClock } from '../core/clock';
import type { Store } from '../core/db/store';
import { BadInputError } from '../core/errors';
import type { Logger } from '../core/log';
import type { SecretBox } from '../core/secrets';
import { startTeamWatch, type LeadershipState } from '../core/team/leader';
import { WATCHER_LINES } from './watcherLines';
import type { ContractEvent } from '../shared/ipc/contract';

/*
 * A team server's watcher, wired (docs/team.md "Several servers"): the seat, leadership and outbox of
 * core/team/leader.ts, with what only the shell knows: where other servers' events go (this server's pages), what
 * to re-read when another server changed the team's settings or key, and the lines an operator reads.
 */

/**
 * Starts a team server's watcher once its pages are served: it runs the scheduler only while this server holds the
 * team's leadership, sends alerts to the channels with the team's other servers, and relays events both ways.
 * Another server's `settings.changed` (a setting or the API key changed there) first makes core read the shared
 * settings and key again (Core.refreshShared), then reaches this server's pages. On taking the lead, it reads them
 * again too (an event missed while the bus reconnected is not missed for long). Another server's `quota.changed` or
 * `poll.finished` makes it read the request log's last two days again (Core.refreshLedger), so its Usage and budget
 * count what the team spent. Each change of standing is said
 * once through `say`. Throws nothing; `stop` before core is disposed.
 */
export function runTeamWatch(d: {
  core: Core;
  store: Store;
  url: string;
  log: Logger;
  /** This server's pages (the event stream's broadcast). */
  broadcast: (e: ContractEvent) => void;
  say: (line: string) => void;
  retryMs?: number;
}): { stop(): Promise<void> } {
  const refresh = () =>
    d.core
      .refreshShared()
      .catch((e: unknown) =>
        d.log.warn("the team's settings could not be read again", { error: (e as Error).message }),
      );
  // Another server spent requests: this one's Usage and budget count them, read again at most every 2 s.
  let ledgerSoon: (() => void) | null = null;
  const refreshLedgerSoon = () => {
    ledgerSoon ??= systemClock.setTimeout(() => {
      ledgerSoon = null;
      d.core
        .refreshLedger()
        .catch((e: unknown) =>
          d.log.warn("the team's request log could not be read again", { error: (e as Error).message }),
        );
    }, LEDGER_REFRESH_DELAY_MS);
  };
  let said: LeadershipState | null = null;
  const watch = startTeamWatch({
    core: d.core,
    store: d.store,
    url: d.url,
    clock: systemClock,
    log: d.log,
    deliver: (e) => {
      if (e.name === 'settings.changed') void refresh().then(() => d.broadcast(e));
      else d.broadcast(e);
      if (e.name === 'quota.changed' || e.name === 'poll.finished') refreshLedgerSoon();
    },
    onState: (s) => {
      if (s === 'leading') void refresh();
      if (s === said) return;
      said = s;
      d.say(WATCHER_LINES[s]);
    },
    ...(d.retryMs !== undefined ? { retryMs: d.retryMs } : {}),
  });
  return {
    stop: () => {
      ledgerSoon?.();
      return watch.stop();
    },
  };
}

/** How long after another server's request this server reads the team's request log again (ms): a burst, once. */
const LEDGER_REFRESH_DELAY_MS = 2_000;

/** The secret every team server seals and opens, to prove they share one key file. */
const TEAM_SEAL = 'team.seal';
const SEAL_TEXT = 'lotwatch-team-key';

/**
 * Checks that this server's key file is the team's: the API key and the channels' secrets are sealed with it in the
 * shared database, so a server with another key file could read none of them. The first server of a team leaves a
 * sealed marker; each later one must open it.
 * @throws BadInputError naming the key file to copy when the marker does not open with this server's key; the
 *   driver's error when the database does not answer.
 */
export async function checkTeamKey(
  store: Store,
  box: SecretBox,
  keyFile: string,
  now: number,
): Promise<void> {
  const sealed = await store.requests.getSecret(TEAM_SEAL);
  if (!sealed) {
    await store.requests.setSecret(TEAM_SEAL, box.encrypt(SEAL_TEXT), now);
    return;
  }
  let opened: string | null = null;
  try {
    opened = box.decrypt(sealed);
  } catch {
    opened = null;
  }
  if (opened !== SEAL_TEXT)
    throw new BadInputError(
      `This server's key file (${keyFile}) is not the team's: the team's API key and channel secrets were sealed ` +
        'with another one. Give every server of the team the same key file (copy it, or use --secret-key-file).',
    );
}
