import type { Lot } from './market';

/** One ordered list and the lots marked to be put (back) in their place in it. */
interface Bag {
  arr: Lot[];
  pending: Lot[];
}

const ALL = 1;
const GROUP = 2;
const NONE: readonly Lot[] = [];

/** The key of a make and model in LotOrder's groups: both lower-cased, as GET /vehicles compares them. */
const groupKey = (make: string, model: string): string => `${make}\n${model}`;

/**
 * Lots in list order (auction date, update time, id: docs/service-contract.md "Cursor"), overall and per make and
 * model, kept up to date lazily. A market changes thousands of lots a simulated day but is read (a /vehicles page)
 * far less often, so a change only marks its lot (`touch`, before or after the change) and the next read (`list`,
 * `listOf`) puts every marked lot back in its place at once: one pass that drops the marked lots and merges them back
 * in order, instead of moving a long array twice per change. The order is a total one (ids are unique), so a list
 * read is the same however the changes are batched; a group's list is the overall list less the other makes and
 * models. Lots are told apart by `id`, unique within one order; a lot's vehicle (so its group) never changes.
 */
export class LotOrder {
  private readonly all: Bag = { arr: [], pending: [] };
  /** Groups by the vehicle's model spec (shared by its lots) and by groupKey; specs of one key share a group. */
  private readonly bySpec = new Map<object, Bag>();
  private readonly byKey = new Map<string, Bag>();
  /** Per lot id: ALL when the lot waits in all.pending, GROUP when in its group's pending. */
  private marks = new Uint8Array(1024);

  constructor(private readonly cmp: (a: Lot, b: Lot) => number) {}

  /**
   * Marks `lot` (new, or whose auction date or update time changes) to be put in its place on the next read.
   * Touching a lot twice before a read is the same as once.
   */
  touch(lot: Lot): void {
    const id = lot.id;
    if (id >= this.marks.length) {
      const grown = new Uint8Array(Math.max(id + 1, this.marks.length * 2));
      grown.set(this.marks);
      this.marks = grown;
    }
    const m = this.marks[id] as number;
    if (m === (ALL | GROUP)) return;
    if (!(m & ALL)) this.all.pending.push(lot);
    if (!(m & GROUP)) this.groupOf(lot).pending.push(lot);
    this.marks[id] = ALL | GROUP;
  }

  /** Every lot in list order, every change so far applied. The same array each time (updated in place). */
  list(): Lot[] {
    return this.flush(this.all, ALL);
  }

  /** The lots of one make and model (lower-case, as GET /vehicles compares them) in list order; empty for none. */
  listOf(make: string, model: string): readonly Lot[] {
    const g = this.byKey.get(groupKey(make, model));
    return g ? this.flush(g, GROUP) : NONE;
  }

  private groupOf(lot: Lot): Bag {
    const spec = lot.v.spec;
    let g = this.bySpec.get(spec);
    if (g) return g;
    const key = groupKey(lot.v.lc.make, lot.v.lc.model);
    g = this.byKey.get(key);
    if (!g) this.byKey.set(key, (g = { arr: [], pending: [] }));
    this.bySpec.set(spec, g);
    return g;
  }

  private flush(bag: Bag, bit: number): Lot[] {
    const add = bag.pending;
    const arr = bag.arr;
    if (add.length === 0) return arr;
    bag.pending = [];
    add.sort(this.cmp);
    const marks = this.marks;
    // Keep the unmarked lots (still in order among themselves), then merge the marked ones in from the back.
    let kept = 0;
    for (let i = 0; i < arr.length; i++) {
      const l = arr[i] as Lot;
      if (!((marks[l.id] as number) & bit)) arr[kept++] = l;
    }
    arr.length = kept;
    // Grown by push, not by length, so the array stays packed (fast to read).
    for (let k = 0; k < add.length; k++) arr.push(add[0] as Lot);
    let i = kept - 1;
    let j = add.length - 1;
    for (let w = arr.length - 1; j >= 0; w--) {
      const b = add[j] as Lot;
      if (i >= 0 && this.cmp(arr[i] as Lot, b) > 0) arr[w] = arr[i--] as Lot;
      else arr[w] = add[j--] as Lot;
    }
    for (const l of add) marks[l.id] = (marks[l.id] as number) & ~bit;
    return arr;
  }
}
