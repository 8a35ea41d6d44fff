import type { z } from 'zod';
import { contract, type Method, type MethodInput, type MethodOutput } from '../shared/ipc/contract';
import { isMethodName } from '../shared/ipc/channels';
import { err, ok, type ErrorPayload, type Result } from '../shared/ipc/errors';
import { fieldsMessage } from '../shared/fieldLabels';
import { boundErrorPayload } from './errorBounds';
import { connectionLostOf, databaseErrorOf, LotwatchError } from './errors';
import type { Logger } from './log';

/** The implementation of every contract method. Handlers receive parsed input and may throw. */
export type Handlers = {
  [M in Method]: (
    input: z.output<(typeof contract)[M]['input']>,
  ) => Promise<MethodOutput<M>> | MethodOutput<M>;
};

/** Turns zod issues into the service-style field map: `{ "serviceUrl": ["Enter a full URL ..."] }`. */
export function issuesToFields(issues: readonly z.core.$ZodIssue[]): Record<string, string[]> {
  // No prototype: a field named `constructor` or `toString` is a field like any other, not an inherited member.
  const fields: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const i of issues) {
    // An unknown field is named by its own key (`params.colour`), so the screen can say which one to remove.
    const paths = i.code === 'unrecognized_keys' ? i.keys.map((k) => [...i.path, k]) : [i.path];
    for (const path of paths) {
      const key = path.length ? path.map(String).join('.') : '_';
      (fields[key] ??= []).push(i.message);
    }
  }
  return fields;
}

/**
 * A `bad_input` payload whose message starts with one of its own field keys (`rules.bid_above_usd: Enter a
 * number.`, as a handler may still build it) said again with the field's label instead (docs/writing-guide.md rule 2:
 * no field names on screen). Any other payload is returned as is. Throws nothing.
 */
export function labelFieldKeys(p: ErrorPayload): ErrorPayload {
  if (p.code !== 'bad_input' || !p.fields) return p;
  const keys = Object.keys(p.fields);
  if (!keys.some((k) => p.message.startsWith(`${k}: `))) return p;
  return { ...p, message: fieldsMessage(p.fields) ?? p.message };
}

/**
 * The one dispatcher both shells use (docs/architecture.md "One contract, two shells"): checks the method name,
 * parses the input, calls the handler, parses the output, and maps every failure to a `Result` error. It never
 * throws and never puts a stack trace in the envelope. Every error is bounded in size (errorBounds.ts): a message
 * that quotes a huge input quotes only its head and tail. Error texts follow docs/writing-guide.md: a refused input
 * is said with the field's label ("Year from: enter a whole number from 1900 to 2100."), never its key; `fields`
 * keeps the keys, by which the screens mark their fields.
 */
export async function dispatch(
  handlers: Handlers,
  method: unknown,
  rawInput: unknown,
  log: Logger,
): Promise<Result<unknown>> {
  const r = await answer(handlers, method, rawInput, log);
  return r.ok ? r : { ok: false, error: boundErrorPayload(r.error) };
}

async function answer(
  handlers: Handlers,
  method: unknown,
  rawInput: unknown,
  log: Logger,
): Promise<Result<unknown>> {
  if (!isMethodName(method)) {
    // The name goes to the log, not the screen: it is a code name, and the buyer cannot act on it.
    log.warn('unknown method', { method: JSON.stringify(String(method)).slice(0, 80) });
    return err('unknown_method', 'This window asked Lotwatch for something this version cannot do.');
  }
  const spec = contract[method];
  const input = spec.input.safeParse(rawInput);
  if (!input.success) {
    const fields = issuesToFields(input.error.issues);
    return err('bad_input', fieldsMessage(fields) ?? 'This request is not valid.', { fields });
  }
  let value: unknown;
  try {
    const handler = handlers[method] as (i: unknown) => unknown;
    value = await handler(input.data);
  } catch (e) {
    if (e instanceof LotwatchError) return { ok: false, error: labelFieldKeys(e.toPayload()) };
    // A full disk, a read-only or damaged file: say so and what to do, not "something went wrong".
    const dbError = databaseErrorOf(e) ?? connectionLostOf(e);
    if (dbError) {
      log.error('handler failed: database', {
        method,
        code: (e as { code?: unknown }).code,
        error: (e as Error).message,
      });
      return { ok: false, error: dbError.toPayload() };
    }
    log.error('handler failed', { method, error: (e as Error)?.message, stack: (e as Error)?.stack });
    return err(
      'internal',
      'Something went wrong inside Lotwatch. The details are in the log; please try again.',
    );
  }
  const output = spec.output.safeParse(value);
  if (!output.success) {
    log.error('handler output does not match the contract', { method, issues: output.error.issues });
    return err(
      'internal',
      'Lotwatch produced an answer it could not check. The details are in the log; please try again.',
    );
  }
  return ok(output.data);
}

export type { MethodInput };
