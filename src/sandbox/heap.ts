/**
 * A binary min-heap ordered by `less`: the market's due plan steps and the service view's due refreshes both take
 * the earliest next. `less` must be a strict total order (ties broken by an id), so a seed gives the same event
 * order every run. Pure; throws nothing.
 */
export class MinHeap<T> {
  private items: T[] = [];

  constructor(private readonly less: (a: T, b: T) => boolean) {}

  /** The least item, or undefined when empty. */
  peek(): T | undefined {
    return this.items[0];
  }

  push(x: T): void {
    const h = this.items;
    h.push(x);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(h[i] as T, h[p] as T)) break;
      [h[i], h[p]] = [h[p] as T, h[i] as T];
      i = p;
    }
  }

  /** Removes and returns the least item, or undefined when empty. */
  pop(): T | undefined {
    const h = this.items;
    const top = h[0];
    const last = h.pop();
    if (top === undefined || last === undefined || h.length === 0) return top;
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.less(h[l] as T, h[m] as T)) m = l;
      if (r < h.length && this.less(h[r] as T, h[m] as T)) m = r;
      if (m === i) break;
      [h[i], h[m]] = [h[m] as T, h[i] as T];
      i = m;
    }
    return top;
  }

  /** Builds the heap again from its items that `keep` accepts, then `extra` (after an item's key changed). */
  rebuild(keep: (x: T) => boolean, extra: T[] = []): void {
    const all = [...this.items.filter(keep), ...extra];
    this.items = [];
    for (const x of all) this.push(x);
  }
}
