import { useId } from 'react';
import type { ErrorPayload } from '../../../../shared/ipc/errors';
import { CHANGE_KINDS, type AlertRules, type ChangeKind } from '../../../../shared/watch';

/** Change kinds in the user's words. */
export const KIND_LABELS: Record<ChangeKind, string> = {
  new_match: 'New match',
  bid_changed: 'Bid changed',
  buy_now_changed: 'Buy now changed',
  status_changed: 'Status changed',
  rescheduled: 'Rescheduled',
  sale_result: 'Sale result (sold, on approval, not sold)',
  relisted: 'Relisted',
  dropped_out: 'Dropped out of results',
};

/** The editable part of a rule set, as form text (amounts may be empty). */
export interface RulesDraft {
  kinds: ChangeKind[];
  bid_above_usd: string;
  bid_below_usd: string;
  buy_now_under_usd: string;
  max_price_usd: string;
  comps_below_percent: string;
  relist_attempt: string;
  exportable_only: boolean;
  repair_under_acv_percent: string;
  remind: string;
  muted: boolean;
}

const text = (n: number | null) => (n === null ? '' : String(n));

/** A form draft from stored rules. */
export function rulesToDraft(r: AlertRules): RulesDraft {
  return {
    kinds: [...r.kinds],
    bid_above_usd: text(r.bid_above_usd),
    bid_below_usd: text(r.bid_below_usd),
    buy_now_under_usd: text(r.buy_now_under_usd),
    max_price_usd: text(r.max_price_usd),
    comps_below_percent: text(r.comps_below_percent),
    relist_attempt: text(r.relist_attempt),
    exportable_only: r.exportable_only,
    repair_under_acv_percent: text(r.repair_under_acv_percent),
    remind: r.remind_minutes_before.join(', '),
    muted: r.muted,
  };
}

/**
 * Rules to send from a draft, keeping what the form does not edit (snooze, cap). Text the service will refuse
 * (a word in an amount) is sent as is, so the refusal comes back as that field's error.
 */
export function draftToRules(d: RulesDraft, base: AlertRules): Record<string, unknown> {
  const amount = (s: string): unknown => {
    const t = s.trim().replace(/[$,\s]/g, '');
    if (t === '') return null;
    const n = Number(t);
    return Number.isFinite(n) ? n : s;
  };
  const remind = d.remind
    .split(/[,\s]+/)
    .filter(Boolean)
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  return {
    ...base,
    kinds: d.kinds,
    bid_above_usd: amount(d.bid_above_usd),
    bid_below_usd: amount(d.bid_below_usd),
    buy_now_under_usd: amount(d.buy_now_under_usd),
    max_price_usd: amount(d.max_price_usd),
    comps_below_percent: amount(d.comps_below_percent),
    relist_attempt: amount(d.relist_attempt),
    exportable_only: d.exportable_only,
    repair_under_acv_percent: amount(d.repair_under_acv_percent),
    remind_minutes_before: remind,
    muted: d.muted,
  };
}

/** The first message for `rules.<field>` (or any deeper path under it) in an error's field map. */
export function ruleError(error: ErrorPayload | null, field: string): string | undefined {
  if (!error?.fields) return undefined;
  for (const [k, v] of Object.entries(error.fields)) {
    if (k === `rules.${field}` || k.startsWith(`rules.${field}.`) || k === field) return v[0];
  }
  return undefined;
}

function Amount({
  name,
  label,
  value,
  error,
  onChange,
  placeholder = 'No limit',
  hint,
}: {
  name: string;
  label: string;
  value: string;
  error: string | undefined;
  onChange: (v: string) => void;
  placeholder?: string;
  /** A line under the field saying what the rule does when its figure is unknown. */
  hint?: string;
}) {
  const id = useId();
  return (
    <label className="field">
      <span id={`${id}-label`}>{label}</span>
      <input
        type="text"
        inputMode="decimal"
        name={name}
        aria-labelledby={`${id}-label`}
        placeholder={placeholder}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-err` : hint ? `${id}-hint` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {error ? (
        <span className="field-error" id={`${id}-err`}>
          {error}
        </span>
      ) : (
        hint && (
          <span className="lw-sub" id={`${id}-hint`}>
            {hint}
          </span>
        )
      )}
    </label>
  );
}

/**
 * The alert-rule fields shared by watches and saved searches: kinds that notify, bid thresholds, buy-now
 * ceiling, reminders (watches) or a price budget for new matches (searches), exportable titles only, and mute.
 * Controlled.
 */
export function RulesFields({
  draft,
  onChange,
  error,
  mode,
}: {
  draft: RulesDraft;
  onChange: (d: RulesDraft) => void;
  error: ErrorPayload | null;
  mode: 'watch' | 'search';
}) {
  const set = <K extends keyof RulesDraft>(k: K, v: RulesDraft[K]) => onChange({ ...draft, [k]: v });
  const kindsErr = ruleError(error, 'kinds');
  const remindErr = ruleError(error, 'remind_minutes_before');
  const remindId = useId();
  const otherErrors = Object.entries(error?.fields ?? {}).filter(
    ([k]) =>
      k === 'rules' ||
      (k.startsWith('rules.') &&
        !/^rules\.(kinds|bid_above_usd|bid_below_usd|buy_now_under_usd|max_price_usd|comps_below_percent|relist_attempt|exportable_only|repair_under_acv_percent|remind_minutes_before|muted)\b/.test(
          k,
        )),
  );
  return (
    <>
      <fieldset className="lw-rules-kinds">
        <legend>Notify me about</legend>
        <div className="lw-kinds">
          {CHANGE_KINDS.map((k) => (
            <label key={k}>
              <input
                type="checkbox"
                name={`kind-${k}`}
                checked={draft.kinds.includes(k)}
                onChange={(e) =>
                  set('kinds', e.target.checked ? [...draft.kinds, k] : draft.kinds.filter((x) => x !== k))
                }
              />
              {KIND_LABELS[k]}
            </label>
          ))}
        </div>
        {kindsErr && <span className="field-error">{kindsErr}</span>}
      </fieldset>
      <div className="lw-form-grid">
        <Amount
          name="bid_above_usd"
          label="Bid rises to (USD)"
          value={draft.bid_above_usd}
          error={ruleError(error, 'bid_above_usd')}
          onChange={(v) => set('bid_above_usd', v)}
        />
        <Amount
          name="bid_below_usd"
          label="Bid at or below (USD)"
          value={draft.bid_below_usd}
          error={ruleError(error, 'bid_below_usd')}
          onChange={(v) => set('bid_below_usd', v)}
        />
        <Amount
          name="buy_now_under_usd"
          label="Buy now at or under (USD)"
          value={draft.buy_now_under_usd}
          error={ruleError(error, 'buy_now_under_usd')}
          onChange={(v) => set('buy_now_under_usd', v)}
        />
        <Amount
          name="relist_attempt"
          label="Tell me when it comes back for attempt no. (2-20)"
          value={draft.relist_attempt}
          error={ruleError(error, 'relist_attempt')}
          onChange={(v) => set('relist_attempt', v)}
          placeholder="Off"
        />
        {mode === 'search' ? (
          <Amount
            name="max_price_usd"
            label="New matches only under (USD)"
            value={draft.max_price_usd}
            error={ruleError(error, 'max_price_usd')}
            onChange={(v) => set('max_price_usd', v)}
          />
        ) : null}
        {mode === 'search' ? (
          <Amount
            name="comps_below_percent"
            label="New matches only under this % of comparable sales' median"
            value={draft.comps_below_percent}
            error={ruleError(error, 'comps_below_percent')}
            onChange={(v) => set('comps_below_percent', v)}
          />
        ) : (
          <label className="field">
            <span>Remind me (minutes before)</span>
            <input
              type="text"
              name="remind_minutes_before"
              placeholder="e.g. 60, 15"
              value={draft.remind}
              aria-invalid={remindErr ? true : undefined}
              aria-describedby={remindErr ? `${remindId}-err` : `${remindId}-hint`}
              onChange={(e) => set('remind', e.target.value)}
            />
            {remindErr ? (
              <span className="field-error" id={`${remindId}-err`}>
                {remindErr}
              </span>
            ) : (
              <span className="lw-sub" id={`${remindId}-hint`}>
                Up to 5, separated by commas
              </span>
            )}
          </label>
        )}
        <Amount
          name="repair_under_acv_percent"
          label={
            mode === 'search'
              ? 'New matches only when repair cost is under this % of ACV'
              : 'Say whether repair cost is under this % of ACV'
          }
          value={draft.repair_under_acv_percent}
          error={ruleError(error, 'repair_under_acv_percent')}
          onChange={(v) => set('repair_under_acv_percent', v)}
          placeholder="Off"
          hint={
            mode === 'search'
              ? "IAAI's own figures; a lot without them (every Copart lot) never passes"
              : "IAAI's own figures; every alert says where the lot stands, or that a figure is unknown"
          }
        />
      </div>
      <label className="check">
        <input
          type="checkbox"
          name="exportable_only"
          checked={draft.exportable_only}
          onChange={(e) => set('exportable_only', e.target.checked)}
        />
        <span>
          Exportable title only{' '}
          <span className="muted">
            — never alert about a lot whose title blocks export: the service marks it not exportable, or it is
            a certificate of destruction, parts only, junk or non-repairable
          </span>
        </span>
      </label>
      <label className="check">
        <input
          type="checkbox"
          name="muted"
          checked={draft.muted}
          onChange={(e) => set('muted', e.target.checked)}
        />
        <span>
          Mute <span className="muted">— keep recording changes, notify about nothing</span>
        </span>
      </label>
      {otherErrors.map(([k, v]) => (
        <span key={k} className="field-error">
          {v[0]}
        </span>
      ))}
    </>
  );
}
