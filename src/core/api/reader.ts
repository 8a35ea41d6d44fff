import { ANY_NUMBER, outOfBounds, type Bounds } from './bounds';

/**
 * The lenient field reader behind the response parsers: reads one object's fields by the type the specification
 * lists, converting where unambiguous and collecting a warning (`path.key: problem`) for anything else. Never throws.
 */

type Obj = Record<string, unknown>;

/** Whether `v` is a plain JSON object (not null, not an array). */
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
/** The JSON kind of a value for warnings: `null`, `array`, `string`, `number`, `object` ... */
export const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Reads fields of one object, collecting warnings under `path`. */
export class Reader {
  constructor(
    private readonly o: Obj,
    private readonly path: string,
    private readonly w: string[],
  ) {}

  /** Counts a warning on `key` (also for conversions made outside the typed readers). */
  warn(key: string, msg: string): void {
    this.w.push(`${this.path}${key}: ${msg}`);
  }

  /** Text at `key`; a finite number is read as text with a warning; anything else is null with a warning. */
  str(key: string): string | null {
    const v = this.o[key];
    if (v === undefined || v === null) return null;
    if (typeof v === 'string') return v;
    if (typeof v === 'number' && Number.isFinite(v)) {
      this.warn(key, 'number read as text');
      return String(v);
    }
    this.warn(key, `expected text, got ${kind(v)}`);
    return null;
  }

  /**
   * A number at `key` within `b` (bounds.ts; any finite number by default). Numeric text is converted with a
   * warning; the wrong type, a number outside `b` (1e308 for a year, a negative price), a fraction where `b` wants a
   * whole number, or text too long for a double (read as Infinity) is null with a warning.
   */
  num(key: string, b: Bounds = ANY_NUMBER): number | null {
    return this.numOf(key, this.o[key], b);
  }

  /** `num` for a value already taken out (`key` names it in warnings). */
  numOf(key: string, v: unknown, b: Bounds = ANY_NUMBER): number | null {
    if (v === undefined || v === null) return null;
    let n: number | null = null;
    if (typeof v === 'number') n = v;
    else if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) {
      n = Number(v);
      this.warn(key, 'numeric text read as a number');
    }
    if (n === null) {
      this.warn(key, `expected ${b.integer ? 'a whole number' : 'a number'}, got ${kind(v)}`);
      return null;
    }
    const why = outOfBounds(n, b);
    if (why !== null) {
      this.warn(key, `${why}: read as unknown`);
      return null;
    }
    return n;
  }

  /** A boolean at `key`; 0/1 and "true"/"false" are converted with a warning; anything else is null. */
  bool(key: string): boolean | null {
    const v = this.o[key];
    if (v === undefined || v === null) return null;
    if (typeof v === 'boolean') return v;
    if (v === 0 || v === 1 || v === '0' || v === '1' || v === 'true' || v === 'false') {
      this.warn(key, `${JSON.stringify(v)} read as a boolean`);
      return v === 1 || v === '1' || v === 'true';
    }
    this.warn(key, `expected true/false, got ${kind(v)}`);
    return null;
  }

  /** A nested object; a wrong type reads as an empty object (all its fields null) with a warning. */
  sub(key: string): Reader {
    const v = this.o[key];
    if (v !== undefined && v !== null && !isObj(v)) this.warn(key, `expected an object, got ${kind(v)}`);
    return new Reader(isObj(v) ? v : {}, `${this.path}${key}.`, this.w);
  }

  /** The value at `key` as it is, unchecked. */
  get(key: string): unknown {
    return this.o[key];
  }
}
