import {
  AlertRulesSchema,
  DEFAULT_SCHEDULE,
  type AlertRules,
  type AlertRulesPatch,
} from '../../shared/watch';
import { BadInputError, type LotwatchError } from '../errors';
import { issuesToFields } from '../rpc';
import { checkCron } from '../watch/cron';

/** Saved searches notify new matches by default; a watch notifies every change that matters. */
export const DEFAULT_SEARCH_RULES: AlertRules = AlertRulesSchema.parse({ kinds: ['new_match'] });
/** A watch's rules until the user edits them: every change that matters. */
export const DEFAULT_WATCH_RULES: AlertRules = AlertRulesSchema.parse({});

/**
 * A change of alert rules from the contract (each field already checked there: AlertRulesPatchSchema) merged over
 * `base` (the rules in force, or the defaults) and checked whole: the cross-field rules (the lower bid threshold
 * below the upper one) hold only for the merged set. `undefined` keeps `base`.
 * @throws BadInputError with `rules.<field>` messages; nothing is saved.
 */
export function parseRules(input: AlertRulesPatch | undefined, base: AlertRules): AlertRules {
  if (input === undefined) return base;
  const r = AlertRulesSchema.safeParse({ ...base, ...input });
  if (r.success) return r.data;
  const fields = Object.fromEntries(
    Object.entries(issuesToFields(r.error.issues)).map(([k, v]) => [`rules.${k}`, v]),
  );
  const first = Object.entries(fields)[0];
  throw new BadInputError(first ? `${first[0]}: ${first[1][0]}` : 'The alert rules are not valid.', fields);
}

/**
 * The schedule (a cron expression, DEFAULT_SCHEDULE when left out; node-cron's own check, watch/cron.ts) and the rule
 * patch over `base` of a saved search or a call watch, both checked without throwing: each bad field's messages are
 * added to `fields`, so the form hears of every mistake at once.
 * @returns the schedule as stored ('' when bad) and the merged rules (`base` when bad).
 */
export function checkScheduleAndRules(
  i: { schedule?: string | undefined; rules?: AlertRulesPatch | undefined },
  base: AlertRules,
  fields: Record<string, string[]>,
): { schedule: string; rules: AlertRules } {
  let schedule = '';
  let rules = base;
  try {
    schedule = checkCron(i.schedule ?? DEFAULT_SCHEDULE);
  } catch (e) {
    Object.assign(fields, (e as LotwatchError).fields);
  }
  try {
    rules = parseRules(i.rules, base);
  } catch (e) {
    Object.assign(fields, (e as LotwatchError).fields);
  }
  return { schedule, rules };
}
