/**
 * Query validation with Laravel's validator wording (docs/service-contract.md "Error body"): each rule adds
 * "The per page field must not be greater than 20." style messages under the parameter's name, and the 422 body's
 * message is the first one, with "(and N more errors)" like Laravel's ValidationException.
 */

export type RawQuery = Record<string, string | string[] | undefined>;

/** A 4xx/5xx answer with the service's error envelope; thrown by handlers, sent by the server. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string[]>,
  ) {
    super(message);
  }
  body(): Record<string, unknown> {
    return {
      ok: false,
      status: this.status,
      message: this.message,
      ...(this.errors ? { errors: this.errors } : {}),
    };
  }
}

const attr = (name: string): string => name.replace(/_/g, ' ');

export class Validator {
  // No prototype: a parameter named `constructor` is reported like any other unknown parameter.
  readonly errors: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  constructor(private readonly q: RawQuery) {}

  private add(name: string, msg: string): void {
    (this.errors[name] ??= []).push(msg);
  }

  /** The value of a scalar parameter (the last one when repeated); '' counts as absent, as Laravel's TrimStrings/ConvertEmptyStringsToNull do. */
  raw(name: string): string | undefined {
    const v = this.q[name];
    const s = Array.isArray(v) ? v[v.length - 1] : v;
    if (s === undefined) return undefined;
    const t = s.trim();
    return t === '' ? undefined : t;
  }

  /**
   * All values of a multi parameter, sent in the repeated form `name=a&name=b` (spec "GET /vehicles: query
   * parameters (all optional)") or as `name[]=a`, which Laravel's request parsing reads the same way.
   */
  many(name: string): string[] {
    const out: string[] = [];
    for (const key of [name, `${name}[]`]) {
      const v = this.q[key];
      if (v === undefined) continue;
      for (const s of Array.isArray(v) ? v : [v]) if (s.trim() !== '') out.push(s.trim());
    }
    return out;
  }

  string(name: string, opts: { required?: boolean; size?: number; max?: number } = {}): string | undefined {
    const v = this.raw(name);
    if (v === undefined) {
      if (opts.required) this.add(name, `The ${attr(name)} field is required.`);
      return undefined;
    }
    if (opts.size !== undefined && v.length !== opts.size) {
      this.add(name, `The ${attr(name)} field must be ${opts.size} characters.`);
      return undefined;
    }
    if (opts.max !== undefined && v.length > opts.max) {
      this.add(name, `The ${attr(name)} field must not be greater than ${opts.max} characters.`);
      return undefined;
    }
    return v;
  }

  int(name: string, opts: { min?: number; max?: number; dflt?: number } = {}): number | undefined {
    const v = this.raw(name);
    if (v === undefined) return opts.dflt;
    if (!/^[+-]?\d+$/.test(v)) {
      this.add(name, `The ${attr(name)} field must be an integer.`);
      return undefined;
    }
    return this.range(name, Number(v), opts);
  }

  number(name: string, opts: { min?: number; max?: number } = {}): number | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(v) || !Number.isFinite(n)) {
      this.add(name, `The ${attr(name)} field must be a number.`);
      return undefined;
    }
    return this.range(name, n, opts);
  }

  private range(name: string, n: number, opts: { min?: number; max?: number }): number | undefined {
    if (opts.min !== undefined && n < opts.min) {
      this.add(name, `The ${attr(name)} field must be at least ${opts.min}.`);
      return undefined;
    }
    if (opts.max !== undefined && n > opts.max) {
      this.add(name, `The ${attr(name)} field must not be greater than ${opts.max}.`);
      return undefined;
    }
    return n;
  }

  bool(name: string): boolean {
    const v = this.raw(name);
    if (v === undefined) return false;
    if (['1', 'true'].includes(v.toLowerCase())) return true;
    if (['0', 'false'].includes(v.toLowerCase())) return false;
    this.add(name, `The ${attr(name)} field must be true or false.`);
    return false;
  }

  oneOf<T extends string>(name: string, values: readonly T[], dflt?: T): T | undefined {
    const v = this.raw(name);
    if (v === undefined) return dflt;
    const hit = values.find((x) => x === v);
    if (hit === undefined) {
      this.add(name, `The selected ${attr(name)} is invalid.`);
      return undefined;
    }
    return hit;
  }

  /** A YYYY-MM-DD date, returned as the same string (dates compare as strings). */
  date(name: string): string | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (
      !/^\d{4}-\d{2}-\d{2}$/.test(v) ||
      Number.isNaN(Date.parse(`${v}T00:00:00Z`)) ||
      new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) !== v
    ) {
      this.add(name, `The ${attr(name)} field must be a valid date.`);
      return undefined;
    }
    return v;
  }

  ints(name: string): number[] {
    const out: number[] = [];
    this.many(name).forEach((s, i) => {
      if (/^[+-]?\d+$/.test(s)) out.push(Number(s));
      else this.add(`${name}.${i}`, `The ${name}.${i} field must be an integer.`);
    });
    return out;
  }

  requiredWith(name: string, other: string): void {
    if (this.raw(name) === undefined && this.raw(other) !== undefined) {
      this.add(name, `The ${attr(name)} field is required when ${attr(other)} is present.`);
    }
  }

  requiredWithout(name: string, other: string): void {
    if (this.raw(name) === undefined && this.raw(other) === undefined) {
      this.add(name, `The ${attr(name)} field is required when ${attr(other)} is not present.`);
    }
  }

  afterOrEqual(
    name: string,
    value: string | undefined,
    otherName: string,
    otherValue: string | undefined,
  ): void {
    if (value !== undefined && otherValue !== undefined && value < otherValue) {
      this.add(name, `The ${attr(name)} field must be a date after or equal to ${attr(otherName)}.`);
    }
  }

  /** Adds an error by hand (e.g. a cursor that does not decode). */
  fail(name: string, msg: string): void {
    this.add(name, msg);
  }

  /** @throws HttpError 422 with the `errors` map when any rule failed. */
  check(): void {
    const names = Object.keys(this.errors);
    if (names.length === 0) return;
    const all = names.flatMap((n) => this.errors[n] ?? []);
    const more = all.length - 1;
    const message =
      more > 0
        ? `${all[0]} (and ${more} more error${more > 1 ? 's' : ''})`
        : (all[0] ?? 'The given data was invalid.');
    throw new HttpError(422, message, this.errors);
  }
}
