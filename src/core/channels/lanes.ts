/**
 * One chain of work per alert channel (docs/architecture.md "Alert channels"): work on one lane runs one after
 * another, lanes run independently of each other, so a receiver that never finishes holds only its own channel.
 */
export class Lanes {
  private readonly lanes = new Map<number, { tail: Promise<void>; queued: boolean }>();

  /** `onError(id, e)`: what to do with an error thrown by work on lane `id` (log it); the lane goes on. */
  constructor(private readonly onError: (id: number, e: unknown) => void) {}

  /** Puts `fn` at the end of lane `id`. */
  push(id: number, fn: () => Promise<void>): void {
    const lane = this.lane(id);
    lane.tail = lane.tail.then(fn).catch((e: unknown) => this.onError(id, e));
  }

  /**
   * Puts `fn` at the end of lane `id` unless a run put there by `once` has not started yet: asked for twice while
   * the lane is busy, it runs once, after what is in flight.
   */
  once(id: number, fn: () => Promise<void>): void {
    const lane = this.lane(id);
    if (lane.queued) return;
    lane.queued = true;
    this.push(id, async () => {
      lane.queued = false;
      await fn();
    });
  }

  /** Whether lane `id` has a run of `once` waiting (it has not started yet). */
  waiting(id: number): boolean {
    return this.lanes.get(id)?.queued ?? false;
  }

  /** Resolves when no lane has work in flight or waiting, work added meanwhile included. */
  async idle(): Promise<void> {
    for (;;) {
      const tails = [...this.lanes.values()].map((l) => l.tail);
      await Promise.all(tails);
      const now = [...this.lanes.values()].map((l) => l.tail);
      if (now.length === tails.length && now.every((p, i) => p === tails[i])) return;
    }
  }

  private lane(id: number): { tail: Promise<void>; queued: boolean } {
    let lane = this.lanes.get(id);
    if (!lane) this.lanes.set(id, (lane = { tail: Promise.resolve(), queued: false }));
    return lane;
  }
}
