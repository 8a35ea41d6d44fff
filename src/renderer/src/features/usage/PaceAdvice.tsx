import { useCallback, useEffect, useState } from 'react';
import type { SavedSearchView, Status } from '../../../../shared/ipc/contract';
import type { ErrorPayload } from '../../../../shared/ipc/errors';
import { pagesPerRun } from '../../../../shared/watch';
import { viewHref } from '../../app/navigation';
import { integer, requests } from '../../lib/quantity';
import { useCaller } from '../../lib/useCall';

/**
 * What to do when the schedules need more requests than the day allows (docs/writing-guide.md rule 3: say what
 * happened, then what to do; the Usage page's budget card never shows red without advice): the saved search or the
 * watchlist that costs the most, a one-click way to slow that search down or pause it, and Settings when the limit
 * is the buyer's own.
 */

type Budget = Status['budget'];

/** The budget card's headline: within the allowance, or over it in words with both numbers and their units. */
export function paceHeadline(b: Budget): { over: boolean; text: string } {
  if (b.projectedNext24h <= b.allowedPerDay) {
    return {
      over: false,
      text: `At this pace: ${integer(b.projectedNext24h)} of the ${requests(b.allowedPerDay)} allowed today`,
    };
  }
  const limit =
    b.basis === 'setting'
      ? `your limit is ${integer(b.allowedPerDay)} a day`
      : b.basis === 'quota'
        ? `the plan's share for today is ${integer(b.allowedPerDay)}`
        : `Lotwatch's careful default is ${integer(b.allowedPerDay)} a day`;
  return {
    over: true,
    text: `At this pace Lotwatch would need ${requests(b.projectedNext24h)} today; ${limit}.`,
  };
}

/** A slower schedule offered in one click: cron, runs a day, and how the button says it. */
export interface Step {
  cron: string;
  runsPerDay: number;
  words: string;
}

/** The schedules a search can be slowed to, fastest first (the save dialog's own choices). */
export const SLOWER_STEPS: readonly Step[] = [
  { cron: '0 * * * *', runsPerDay: 24, words: 'every hour' },
  { cron: '0 */6 * * *', runsPerDay: 4, words: 'every 6 hours' },
  { cron: '0 8 * * *', runsPerDay: 1, words: 'once a day' },
];

/** A cron schedule in words when it is a common one ("every 10 minutes", "every 6 hours"), else null. */
export function scheduleWords(cron: string): string | null {
  const c = cron.trim().split(/\s+/);
  if (c.length !== 5 || c.slice(2).some((f) => f !== '*')) return null;
  const [min, hour] = c;
  if (hour === '*' && min === '*') return 'every minute';
  if (hour === '*' && /^\*\/\d+$/.test(min!)) return `every ${min!.slice(2)} minutes`;
  if (hour === '*' && /^\d+$/.test(min!)) return 'every hour';
  if (/^\d+$/.test(min!) && /^\*\/\d+$/.test(hour!)) return `every ${hour!.slice(2)} hours`;
  if (/^\d+$/.test(min!) && /^\d+$/.test(hour!)) return 'once a day';
  return null;
}

/**
 * What the costliest search costs, in words: "“Audi under 10k” costs the most: about 720 requests a day (5 pages
 * every 10 minutes)." An uncommon schedule says its runs a day instead.
 */
export function costSentence(c: SearchCost): string {
  const pages = pagesPerRun(c.search);
  const often = scheduleWords(c.search.schedule) ?? `${integer(Math.round(c.runsPerDay))} times a day`;
  return `“${c.search.name}” costs the most: about ${requests(c.perDay)} a day (${integer(pages)} ${pages === 1 ? 'page' : 'pages'} ${often}).`;
}

/** One saved search's share of the day. */
export interface SearchCost {
  search: SavedSearchView;
  runsPerDay: number;
  /** Requests a day: runs a day x pages a run. */
  perDay: number;
}

/**
 * The advice for a day over its allowance, from the budget and what each running saved search costs: which costs
 * the most (a search, or the watchlist's share: what is projected beyond the searches), and for a search the
 * fastest slower step with which the day fits, else the slowest one (null when it already runs once a day or less).
 */
export function paceAdvice(
  b: Budget,
  costs: SearchCost[],
): {
  top: { kind: 'search'; cost: SearchCost; step: Step | null } | { kind: 'watchlist'; perDay: number } | null;
} {
  const top = [...costs].sort((x, y) => y.perDay - x.perDay)[0];
  const watchlist = Math.max(0, b.projectedNext24h - costs.reduce((n, c) => n + c.perDay, 0));
  if (!top || top.perDay <= 0)
    return { top: watchlist > 0 ? { kind: 'watchlist', perDay: watchlist } : null };
  if (watchlist > top.perDay) return { top: { kind: 'watchlist', perDay: watchlist } };
  const pages = pagesPerRun(top.search);
  const slower = SLOWER_STEPS.filter((s) => s.runsPerDay < top.runsPerDay);
  const step =
    slower.find((s) => b.projectedNext24h - top.perDay + s.runsPerDay * pages <= b.allowedPerDay) ??
    slower[slower.length - 1] ??
    null;
  return { top: { kind: 'search', cost: top, step } };
}

/**
 * What each running saved search costs a day: the list (`searches.list`), and the runs a day of each schedule
 * (`searches.estimate`, core's own cron reading; neither spends a request). Empty when the list cannot be read.
 */
async function readCosts(call: ReturnType<typeof useCaller>): Promise<SearchCost[]> {
  const list = await call('searches.list');
  if (!list.ok) return [];
  return Promise.all(
    list.value
      .filter((s) => !s.paused)
      .map(async (search): Promise<SearchCost> => {
        const e = await call('searches.estimate', { schedule: search.schedule, max_pages: search.max_pages });
        const runsPerDay = e.ok && e.value.schedule_error === null ? e.value.runs_per_day : 0;
        return { search, runsPerDay, perDay: Math.round(runsPerDay * pagesPerRun(search)) };
      }),
  );
}

/**
 * The advice under an over-allowance headline. Reads the saved searches (`searches.list`) and what each schedule
 * runs a day (`searches.estimate`: core's own cron reading, no request to the service). "Check “name” every hour
 * instead" saves the search afresh with only its schedule changed (`searches.update` replaces every field, so they
 * are read again first); "Pause “name”" pauses it (`searches.setPaused`). `onDone` gets what was done in words,
 * `onError` a refusal; both let the page refresh the budget.
 */
export function PaceAdvice({
  budget,
  onDone,
  onError,
}: {
  budget: Budget;
  onDone: (text: string) => void;
  onError: (e: ErrorPayload) => void;
}) {
  const call = useCaller();
  const [costs, setCosts] = useState<SearchCost[] | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => setCosts(await readCosts(call)), [call]);
  useEffect(() => {
    let live = true;
    void readCosts(call).then((c) => {
      if (live) setCosts(c);
    });
    return () => {
      live = false;
    };
  }, [call]);

  const slowDown = async (id: number, step: Step) => {
    setBusy(true);
    const list = await call('searches.list');
    const s = list.ok ? list.value.find((x) => x.id === id) : undefined;
    const r = !list.ok
      ? list
      : s
        ? await call('searches.update', {
            id: s.id,
            name: s.name,
            params: s.params,
            schedule: step.cron,
            max_pages: s.max_pages,
            paused: s.paused,
            rules: s.rules,
          })
        : null;
    setBusy(false);
    if (r?.ok) onDone(`“${r.value.name}” now runs ${step.words}.`);
    else if (r) onError(r.error);
    await load();
  };
  const pause = async (id: number) => {
    setBusy(true);
    const r = await call('searches.setPaused', { id, paused: true });
    setBusy(false);
    if (r.ok) onDone(`Paused “${r.value.name}”. Resume it in Saved searches.`);
    else onError(r.error);
    await load();
  };

  const { top } = costs ? paceAdvice(budget, costs) : { top: null };
  const step = top?.kind === 'search' ? top.step : null;
  return (
    <div className="usage-advice">
      {top?.kind === 'search' && (
        <>
          <p>{costSentence(top.cost)}</p>
          <div className="usage-advice-actions">
            {step && (
              <button type="button" disabled={busy} onClick={() => void slowDown(top.cost.search.id, step)}>
                Check “{top.cost.search.name}” {step.words} instead
              </button>
            )}
            <button type="button" disabled={busy} onClick={() => void pause(top.cost.search.id)}>
              Pause “{top.cost.search.name}”
            </button>
          </div>
        </>
      )}
      {top?.kind === 'watchlist' && (
        <p>
          The watchlist costs the most: about {requests(top.perDay)} a day.{' '}
          <a href={viewHref('watchlist')}>Remove lots you no longer need</a>, or pause watching above.
        </p>
      )}
      {costs && !top && <p>Check saved searches less often, or watch fewer lots.</p>}
      {budget.basis === 'setting' && (
        <p>
          <a href={viewHref('settings')}>Raise your limit in Settings</a> if your plan allows more.
        </p>
      )}
    </div>
  );
}
