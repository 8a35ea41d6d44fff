import { z } from 'zod';

/**
 * zod's own messages ("Invalid input: expected number, received string") in the buyer's words
 * (docs/writing-guide.md rules 1 and 2: plain words, no field or code names). Set once, globally, for every schema
 * in core and in the renderer: src/shared/settings.ts and src/shared/ipc/contract.ts import this file for its
 * effect. A message written in a schema ("Enter 1 to 99 %.") outranks these: zod asks the global map last.
 */

/** Bounds at or past these are zod's own defaults (safe-integer limits, infinities), not limits a buyer set. */
const NO_BOUND = Number.MAX_SAFE_INTEGER;

/** A number as a buyer reads it: thousands grouped from 10,000 up, so a year stays "2018". */
function num(v: number | bigint): string {
  const n = Number(v);
  return Math.abs(n) >= 10_000 ? n.toLocaleString('en-US') : String(n);
}

/** `n thing` or `n things`. */
function count(n: number | bigint, one: string, many: string): string {
  return `${num(n)} ${Number(n) === 1 ? one : many}`;
}

/** A bound that means something to the buyer, else null. */
function bound(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && Math.abs(v) < NO_BOUND ? v : null;
}

/** The number schema a size issue came from, read for its other bound and whether it takes whole numbers only. */
interface NumberShape {
  minValue?: unknown;
  maxValue?: unknown;
  isInt?: unknown;
}

/** "Enter a number from 1 to 60." and its one-sided forms; "whole number" when the schema takes integers only. */
function numberRange(
  iss: { code: 'too_small' | 'too_big'; inclusive?: boolean; schema?: unknown },
  at: number,
): string {
  const shape = (iss.schema ?? {}) as NumberShape;
  const what = shape.isInt === true ? 'a whole number' : 'a number';
  const min = iss.code === 'too_small' ? at : bound(shape.minValue);
  const max = iss.code === 'too_big' ? at : bound(shape.maxValue);
  // An exclusive bound (positive(), lt()) cannot be said as "from X to Y".
  if (iss.inclusive === false) {
    return iss.code === 'too_small'
      ? `Enter ${what} greater than ${num(at)}.`
      : `Enter ${what} less than ${num(at)}.`;
  }
  if (min !== null && max !== null) return `Enter ${what} from ${num(min)} to ${num(max)}.`;
  if (min !== null) return `Enter ${what} of at least ${num(min)}.`;
  return `Enter ${what} of at most ${num(max ?? at)}.`;
}

/** What an expected type asks the buyer to give. */
const EXPECTED: Record<string, string> = {
  number: 'Enter a number.',
  int: 'Enter a whole number.',
  string: 'Enter text.',
  boolean: 'Choose yes or no.',
  date: 'Enter a date.',
  array: 'Choose one or more values.',
};

/**
 * The message for one zod issue that its schema gave no message of its own: what is wrong, said as what to enter.
 * Never undefined today (the last line is the fallback), so zod's own English never reaches the screen. Exported
 * for tests/shared/writingGuide.test.ts; the app uses it only through the global config below.
 */
export function plainZodMessage(iss: z.core.$ZodRawIssue): string | undefined {
  switch (iss.code) {
    case 'invalid_type':
      return EXPECTED[iss.expected] ?? 'This value is not valid.';
    case 'too_small':
    case 'too_big': {
      const at = Number(iss.code === 'too_small' ? iss.minimum : iss.maximum);
      if (iss.origin === 'number' || iss.origin === 'int' || iss.origin === 'bigint')
        return numberRange(iss, at);
      if (iss.origin === 'string') {
        if (iss.exact) return `Enter exactly ${count(at, 'character', 'characters')}.`;
        return iss.code === 'too_small'
          ? `Enter at least ${count(at, 'character', 'characters')}.`
          : `Keep it to ${count(at, 'character', 'characters')} or fewer.`;
      }
      if (iss.origin === 'array' || iss.origin === 'set') {
        return iss.code === 'too_small' ? `Choose at least ${num(at)}.` : `Choose at most ${num(at)}.`;
      }
      return 'This value is not valid.';
    }
    case 'invalid_value':
      return 'Choose one of the listed values.';
    case 'invalid_format':
      if (iss.format === 'email' || iss.format === 'url') return 'Enter a full address.';
      return 'This value is not valid.';
    case 'not_multiple_of':
      return `Enter a multiple of ${num(iss.divisor)}.`;
    case 'unrecognized_keys':
      return 'This request has a field Lotwatch does not know.';
    default:
      return 'This value is not valid.';
  }
}

z.config({ customError: (iss) => plainZodMessage(iss) });
