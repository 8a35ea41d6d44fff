import { AlertRulesSchema, type AlertRules, type AlertRulesPatch } from '../../shared/watch';
import { BadInputError } from '../errors';
import { issuesToFields } from '../rpc';

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
