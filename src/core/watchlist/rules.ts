import { AlertRulesSchema, type AlertRules } from '../../shared/watch';
import { BadInputError } from '../errors';
import { issuesToFields } from '../rpc';

/** Saved searches notify new matches by default; a watch notifies every change that matters. */
export const DEFAULT_SEARCH_RULES: AlertRules = AlertRulesSchema.parse({ kinds: ['new_match'] });
/** A watch's rules until the user edits them: every change that matters. */
export const DEFAULT_WATCH_RULES: AlertRules = AlertRulesSchema.parse({});

/**
 * Parses alert rules from the contract (unknown JSON), merged over `base`.
 * @throws BadInputError with `rules.<field>` messages; nothing is saved.
 */
export function parseRules(input: unknown, base: AlertRules): AlertRules {
  if (input === undefined) return base;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new BadInputError('The alert rules must be an object.', {
      rules: ['The alert rules must be an object.'],
    });
  }
  const r = AlertRulesSchema.safeParse({ ...base, ...(input as object) });
  if (r.success) return r.data;
  const fields = Object.fromEntries(
    Object.entries(issuesToFields(r.error.issues)).map(([k, v]) => [`rules.${k}`, v]),
  );
  const first = Object.entries(fields)[0];
  throw new BadInputError(first ? `${first[0]}: ${first[1][0]}` : 'The alert rules are not valid.', fields);
}
