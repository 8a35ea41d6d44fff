import type { Logger } from './log';

/**
 * Whether this core watches: Demo's first examples, the watch loop and the watched lots' market pass, started and
 * stopped one after the other (docs/architecture.md "Several servers, one watcher"). The desktop and a single
 * headless shell start it once; a team's server starts it while it holds the scheduler's lock (team/leader.ts) and
 * stops it when it loses the lock, so only one server of a team spends requests on schedule. Throws what its parts
 * throw, except the Demo examples' seeding, which is logged (the watcher still starts).
 */
export class WatchSwitch {
  private on = false;
  private turn: Promise<void> = Promise.resolve();

  constructor(
    private readonly d: {
      /** What must be set up before anything watches (the ledger loaded, the key read, the client built). */
      prepared: () => Promise<unknown>;
      /** Demo mode's example search and watches on first start (absent: none). */
      seed?: () => Promise<void>;
      engine: { start(): void; stop(): Promise<void> };
      /** The watched lots' market pass (absent: not run by itself). */
      market?: { start(): void; stop(): Promise<void> };
      /** Whether core is shutting down: nothing starts then. */
      disposing: () => boolean;
      log: Logger;
    },
  ) {}

  /** Starts watching (idempotent); resolves once the loop runs. */
  start(): Promise<void> {
    return this.inTurn(async () => {
      if (this.on || this.d.disposing()) return;
      this.on = true;
      await this.d.prepared();
      // The examples not made (a database error) must not keep the watcher from watching what exists.
      await this.d
        .seed?.()
        .catch((e: unknown) =>
          this.d.log.warn("Demo mode's examples could not be made", { error: (e as Error).message }),
        );
      if (!this.d.disposing()) this.d.engine.start();
      if (!this.d.disposing()) this.d.market?.start();
    });
  }

  /** Stops watching (idempotent); resolves once the loop and the market pass in flight ended. */
  stop(): Promise<void> {
    return this.inTurn(async () => {
      if (!this.on) return;
      this.on = false;
      await this.d.engine.stop();
      await this.d.market?.stop();
    });
  }

  /** Whether `start` was called and `stop` not since. */
  get watching(): boolean {
    return this.on;
  }

  private inTurn(fn: () => Promise<void>): Promise<void> {
    this.turn = this.turn.catch(() => {}).then(fn);
    return this.turn;
  }
}
