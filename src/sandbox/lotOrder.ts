import type { Lot } from './market';

/**
 * Lots in list order (auction date, update time, id: docs/service-contract.md "Cursor"), kept up to date lazily.
 * A market changes thousands of lots a simulated day but is read (a /vehicles page) far less often, so a change only
 * marks its lot (`touch`, before or after the change) and the next read (`list`) puts every marked lot back in its
 * place at once: one pass that drops the marked lots and merges them back in order, instead of moving a long array
 * twice per change. The order is a total one (ids are unique), so the list read is the same however the changes are
 * batched. Lots are told apart by `id`, unique within one order.
 */
export class LotOrder {
  private readonly arr: Lot[] = [];
  /** Marked lots, each once: the ones whose place is to be found again, and new ones. */
  private pending: Lot[] = [];
  /** Per lot id: 1 when the lot is in `pending`. */
  private marked = new Uint8Array(1024);

  constructor(private readonly cmp: (a: Lot, b: Lot) => number) {}

  /**
   * Marks `lot` (new, or whose auction date or update time changes) to be put in its place on the next read.
   * Touching a lot twice before a read is the same as once.
   */
  touch(lot: Lot): void {
    const id = lot.id;
    if (id >= this.marked.length) {
      const grown = new Uint8Array(Math.max(id + 1, this.marked.length * 2));
      grown.set(this.marked);
      this.marked = grown;
    }
    if (this.marked[id]) return;
    this.marked[id] = 1;
    this.pending.push(lot);
  }

  /** The lots in list order, every change so far applied. The same array each time (updated in place). */
  list(): Lot[] {
    if (this.pending.length > 0) this.flush();
    return this.arr;
  }

  private flush(): void {
    const add = this.pending;
    this.pending = [];
    add.sort(this.cmp);
    const arr = this.arr;
    const marked = this.marked;
    // Keep the unmarked lots (still in order among themselves), then merge the marked ones in from the back.
    let kept = 0;
    for (let i = 0; i < arr.length; i++) {
      const l = arr[i] as Lot;
      if (!marked[l.id]) arr[kept++] = l;
    }
    const total = kept + add.length;
    arr.length = kept;
    // Grown by push, not by length, so the array stays packed (fast to read).
    for (let k = 0; k < add.length; k++) arr.push(add[0] as Lot);
    let i = kept - 1;
    let j = add.length - 1;
    for (let w = total - 1; j >= 0; w--) {
      const b = add[j] as Lot;
      if (i >= 0 && this.cmp(arr[i] as Lot, b) > 0) arr[w] = arr[i--] as Lot;
      else arr[w] = add[j--] as Lot;
    }
    for (const l of add) marked[l.id] = 0;
  }
}
