import { useEffect, useRef, useState } from 'react';
import type { MethodOutput } from '../../../../shared/ipc/contract';
import { integer } from '../../lib/quantity';
import { useCaller } from '../../lib/useCall';
import { DEFAULT_SCHEDULE, SCHEDULE_PRESETS } from '../../../../shared/watch';

type Estimate = MethodOutput<'searches.estimate'>;

const plural = (n: number, one: string, many: string) => `${integer(n)} ${n === 1 ? one : many}`;

/**
 * What a saved search's schedule costs, in words: requests per run are up to `maxPages` pages, times the runs of
 * the cron schedule (a day, or a week when it does not run every day), against the budget's daily allowance; and a
 * warning when that, alone or with what is already scheduled, exceeds the allowance. Pure; amounts are requests.
 * E.g. "About 240 requests a day (up to 5 pages × 48 runs) of your 1,000-a-day share." `per` 'call': a call watch,
 * one request a run ("About 48 requests a day (1 call × 48 runs)").
 */
export function scheduleCostText(
  e: Estimate,
  maxPages: number,
  per: 'pages' | 'call' = 'pages',
): { cost: string; warning: string | null } {
  const share = `your ${integer(e.allowed_per_day)}-a-day share`;
  const pages = per === 'call' ? '1 call' : plural(maxPages, 'page', 'pages');
  let cost: string;
  if (e.runs_per_week === 0) {
    cost = 'This schedule does not run in the coming week, so it costs nothing for now.';
  } else if (e.runs_per_week % 7 === 0) {
    const runs = e.runs_per_week / 7;
    cost = `About ${plural(runs * maxPages, 'request', 'requests')} a day (${per === 'call' ? '' : 'up to '}${pages} × ${plural(runs, 'run', 'runs')}) of ${share}.`;
  } else {
    const perWeek = e.runs_per_week * maxPages;
    cost = `About ${plural(perWeek, 'request', 'requests')} a week (${per === 'call' ? '' : 'up to '}${pages} × ${plural(e.runs_per_week, 'run', 'runs')}), about ${integer(Math.ceil(e.requests_per_day))} a day, of ${share}.`;
  }
  let warning: string | null = null;
  if (e.requests_per_day > e.allowed_per_day) {
    warning = `That is more than your daily share: Lotwatch would skip runs to stay within it. Choose a less frequent schedule${per === 'call' ? '' : ' or fewer pages'}.`;
  } else if (e.requests_per_day + e.planned_per_day > e.allowed_per_day) {
    warning = `With what your saved searches and watches already need (about ${integer(e.planned_per_day)} a day), that goes over your daily share: Lotwatch would check less often and skip runs to stay within it.`;
  }
  return { cost, warning };
}

/** Pages a run the save dialog starts from (with DEFAULT_SCHEDULE) when they fit the daily share. */
export const DEFAULT_PAGES = 5;

/** What a schedule reads as in a sentence: "every 30 minutes", or the cron expression for a custom one. */
export function scheduleLabel(cron: string): string {
  return SCHEDULE_PRESETS.find((s) => s.cron === cron)?.label.toLowerCase() ?? `on “${cron}”`;
}

/**
 * The schedules a save dialog tries, in order, when the default does not fit the daily share: the presets from the
 * default down to the daily one at DEFAULT_PAGES pages a run (a saved search) or one call (`per` 'call'), then, for
 * a saved search, the daily one at 2 pages and at 1.
 */
export function fitCandidates(per: 'pages' | 'call' = 'pages'): { cron: string; pages: number }[] {
  const from = SCHEDULE_PRESETS.findIndex((p) => p.cron === DEFAULT_SCHEDULE);
  const daily = SCHEDULE_PRESETS[SCHEDULE_PRESETS.length - 1]!.cron;
  const pages = per === 'call' ? 1 : DEFAULT_PAGES;
  return [
    ...SCHEDULE_PRESETS.slice(from).map((p) => ({ cron: p.cron, pages })),
    ...(per === 'call'
      ? []
      : [
          { cron: daily, pages: 2 },
          { cron: daily, pages: 1 },
        ]),
  ];
}

/**
 * The first of fitCandidates whose requests a day (runs a day of its cron, `runsPerDay`, times its pages), with what
 * the saved searches and watches already need (`plannedPerDay`), stay within the daily share (`allowedPerDay`):
 * the most often a new saved search or call can run without Lotwatch skipping its runs (`fits` true). When even the
 * cheapest does not fit beside what is planned, that cheapest one (`fits` false). Null when the estimates are
 * missing. Pure; requests a day.
 */
export function fittingSchedule(
  runsPerDay: ReadonlyMap<string, number>,
  allowedPerDay: number,
  plannedPerDay: number,
  per: 'pages' | 'call' = 'pages',
): { cron: string; pages: number; fits: boolean } | null {
  const candidates = fitCandidates(per);
  for (const c of candidates) {
    const runs = runsPerDay.get(c.cron);
    if (runs !== undefined && runs * c.pages + plannedPerDay <= allowedPerDay) return { ...c, fits: true };
  }
  const last = candidates[candidates.length - 1]!;
  return runsPerDay.has(last.cron) ? { ...last, fits: false } : null;
}

/**
 * A new saved search's or call watch's schedule and pages a run, as its dialog holds them: every 30 minutes and
 * DEFAULT_PAGES (one call), or, where that does not fit the daily share beside what is already planned (a free
 * plan's 3 a day), the most frequent preset that does (fittingSchedule, asked of core with `searches.estimate`, no
 * request to the service), with `note` saying so. The buyer's own change is never replaced, and a watch being
 * edited (`initial` given) keeps its schedule.
 */
export function useFittedSchedule(
  per: 'pages' | 'call',
  initial?: string,
): {
  schedule: string;
  setSchedule: (cron: string) => void;
  maxPages: string;
  setMaxPages: (pages: string) => void;
  note: string | null;
} {
  const call = useCaller();
  const [schedule, setScheduleState] = useState(initial ?? DEFAULT_SCHEDULE);
  const [maxPages, setMaxPagesState] = useState(String(per === 'call' ? 1 : DEFAULT_PAGES));
  const [note, setNote] = useState<string | null>(null);
  const chosen = useRef(initial !== undefined);
  const choose =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      chosen.current = true;
      setNote(null);
      set(v);
    };
  useEffect(() => {
    if (chosen.current) return;
    let live = true;
    const crons = [...new Set(fitCandidates(per).map((c) => c.cron))];
    void Promise.all(crons.map((cron) => call('searches.estimate', { schedule: cron, max_pages: 1 }))).then(
      (answers) => {
        const first = answers[0];
        if (!live || chosen.current || !first?.ok) return;
        const runs = new Map<string, number>();
        answers.forEach((a, i) => a.ok && runs.set(crons[i]!, a.value.runs_per_day));
        const { allowed_per_day: allowed, planned_per_day: planned } = first.value;
        const fit = fittingSchedule(runs, allowed, planned, per);
        if (!fit || fit.cron === DEFAULT_SCHEDULE) return;
        setScheduleState(fit.cron);
        setMaxPagesState(String(fit.pages));
        const label = scheduleLabel(fit.cron).replace(/^./, (c) => c.toUpperCase());
        const what =
          per === 'call' ? label : `${label}, up to ${fit.pages} ${fit.pages === 1 ? 'page' : 'pages'} a run`;
        setNote(
          fit.fits
            ? `${what}: the most often it fits your ${integer(allowed)}-a-day share beside what your saved searches and watches already need. Choose more often and Lotwatch would skip runs.`
            : `${what}: the least a ${per === 'call' ? 'watched call' : 'saved search'} can cost.`,
        );
      },
    );
    return () => {
      live = false;
    };
  }, [call, per]);
  return {
    schedule,
    setSchedule: choose(setScheduleState),
    maxPages,
    setMaxPages: choose(setMaxPagesState),
    note,
  };
}

/**
 * The line on pages a local refinement adds to the cost (src/shared/localRefinements): the damage kinds `local` are
 * filtered by Lotwatch among the lots each page returns, so pages hold fewer matches and finding as many matches
 * reads more pages. Null when nothing is filtered locally. Pure.
 */
export function localFilterCostText(local: readonly string[]): string | null {
  if (!local.length) return null;
  return `Damage ${local.map((d) => `“${d}”`).join(', ')} is filtered by Lotwatch, not by the service: each page of 20 lots holds only those that match, so a run needs more pages to find the same number of matches.`;
}

/**
 * The cost line of the save-search dialog, asked of core (`searches.estimate`, no request to the service) whenever
 * the schedule or the pages change. Shows nothing while the schedule is not a valid cron expression: the form's own
 * field error says why.
 */
export function ScheduleCost({
  schedule,
  maxPages,
  local = [],
  per = 'pages',
}: {
  schedule: string;
  maxPages: number;
  /** 'call': a call watch's cost, one request a run (maxPages 1). */
  per?: 'pages' | 'call';
  /** Damage kinds the search filters locally (its refinement), said as the pages they cost. */
  local?: readonly string[];
}) {
  const call = useCaller();
  const [est, setEst] = useState<{ key: string; value: Estimate } | null>(null);
  const valid = Number.isInteger(maxPages) && maxPages >= 1 && maxPages <= 50 && schedule.trim() !== '';
  const key = `${schedule}|${maxPages}`;
  useEffect(() => {
    if (!valid) return;
    let live = true;
    void call('searches.estimate', { schedule, max_pages: maxPages }).then((r) => {
      if (live && r.ok) setEst({ key, value: r.value });
    });
    return () => {
      live = false;
    };
  }, [call, schedule, maxPages, valid, key]);
  const localNote = localFilterCostText(local);
  if (!valid || !est || est.key !== key || est.value.schedule_error !== null)
    return localNote ? (
      <div className="ss-cost">
        <p className="muted small ss-cost-local">{localNote}</p>
      </div>
    ) : null;
  const t = scheduleCostText(est.value, maxPages, per);
  return (
    <div className="ss-cost" aria-live="polite">
      <p className="muted small">{t.cost}</p>
      {localNote && <p className="muted small ss-cost-local">{localNote}</p>}
      {t.warning && (
        <p className="ss-cost-warning" role="status">
          {t.warning}
        </p>
      )}
    </div>
  );
}
