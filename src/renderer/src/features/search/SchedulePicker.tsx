import { useState, type ReactNode } from 'react';
import { SCHEDULE_PRESETS } from '../../../../shared/watch';

/**
 * A schedule as the save dialogs ask for it: one of SCHEDULE_PRESETS, or "Custom (cron)…" with a cron expression
 * field and its hint. `value` is the cron expression; `error` (core's words for a bad schedule) sits under the
 * fields and marks them; `idPrefix` keeps the ids of two pickers on one page apart; `beside` sits next to the
 * preset list (the save-search dialog's pages per run).
 */
export function SchedulePicker({
  value,
  onChange,
  error,
  idPrefix,
  beside,
}: {
  value: string;
  onChange: (cron: string) => void;
  error?: string;
  idPrefix: string;
  beside?: ReactNode;
}) {
  const [custom, setCustom] = useState(() => !SCHEDULE_PRESETS.some((p) => p.cron === value));
  const errId = `${idPrefix}-schedule-error`;
  const inv = error ? { 'aria-invalid': true as const, 'aria-describedby': errId } : {};
  const select = (
    <label className="field">
      <span>Schedule</span>
      <select
        value={custom ? 'custom' : value}
        onChange={(e) => {
          if (e.target.value === 'custom') setCustom(true);
          else {
            setCustom(false);
            onChange(e.target.value);
          }
        }}
        {...(custom ? {} : inv)}
      >
        {SCHEDULE_PRESETS.map((s) => (
          <option key={s.cron} value={s.cron}>
            {s.label}
          </option>
        ))}
        <option value="custom">Custom (cron)…</option>
      </select>
    </label>
  );
  return (
    <>
      {beside ? (
        <div className="ss-row">
          {select}
          {beside}
        </div>
      ) : (
        select
      )}
      {custom && (
        <label className="field">
          <span>Cron expression</span>
          <input
            type="text"
            className="mono"
            value={value}
            onChange={(e) => onChange(e.target.value)}
            placeholder="*/15 * * * *"
            {...inv}
          />
          <span className="muted small">
            minute hour day-of-month month day-of-week, e.g. */15 * * * * for every 15 minutes
          </span>
        </label>
      )}
      {error && (
        <span className="field-error" id={errId}>
          {error}
        </span>
      )}
    </>
  );
}
