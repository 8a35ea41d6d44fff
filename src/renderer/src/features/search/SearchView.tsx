import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import type { MethodOutput } from '../../../../shared/ipc/contract';
import { isUnrefined, splitSearch } from '../../../../shared/localRefinements';
import { readFilterMeta } from '../../../../shared/filterMeta';
import type { ErrorPayload } from '../../../../shared/ipc/errors';
import { ErrorNotice } from '../../components/ErrorNotice';
import { FilterPanel } from './FilterPanel';
import { emptyForm, fieldOfErrorKey, fromParams, toParams, type SearchForm } from './params';
import { ResultsTable } from './ResultsTable';
import { SaveSearchDialog } from './SaveSearchDialog';
import { useCall, useCaller } from '../../lib/useCall';
import { appNow } from '../../lib/clock';
import { relative } from '../../lib/format';
import { useNow } from '../../lib/useNow';
import type { AppStore } from '../../app/appStore';
import './search.css';

type Page = MethodOutput<'vehicles.search'>;

/** Field messages of a 422/bad_input keyed by parameter name (`params.year_from` -> `year_from`). */
function fieldErrors(e: ErrorPayload | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(e?.fields ?? {})) {
    const f = fieldOfErrorKey(k);
    if (v[0] && !out[f]) out[f] = v[0];
  }
  return out;
}

/**
 * How old the page shown is, when it was read over a minute before `now` (a page kept while the view was closed):
 * " · read 14 minutes ago", so a buyer does not take its bids for the current ones. "" otherwise.
 */
function readWhen(readAt: number | null, now: number): string {
  return readAt !== null && now - readAt > 60_000 ? ` · read ${relative(readAt, now)}` : '';
}

/**
 * Search: every filter of GET /vehicles, results one page at a time (cursor paging) in a sortable virtualized
 * table, and "Save this search" to watch it on a schedule. Thumbnails show by default in Demo mode only; with a
 * real key each photo costs a request, so they wait for "Show photos".
 * Opened from Saved searches (the store's `searchDraft`), the form starts from that saved search's filters and
 * offers "Save changes" (searches.update, keeping its name, schedule, pages, pause and alert rules as they are
 * now) and "Save as new…"; nothing is searched until the user presses Search, since every search page spends a
 * request of the quota. Closed and opened again (a lot opened from the results and Back, another view), it shows the
 * same filters, page and results as it was left (the app store's SearchSession), with how long ago the page was read.
 */
export function SearchView({ store }: { store: AppStore }) {
  const call = useCaller();
  const info = useCall('app.info');
  const filters = useCall('vehicles.filters');
  const draft = useStore(store, (s) => s.searchDraft);
  // The filters body is large (about 2 MB on the real service): read it once per answer, not on every render.
  const filterMeta = useMemo(() => readFilterMeta(filters.data?.data), [filters.data]);
  // The last search kept while the view was closed (a lot opened from the results, another view): shown again as
  // it was, with no request, unless it came from the other mode or a saved search has been opened since.
  const [kept] = useState(() => {
    const { searchSession: k, info: i } = store.getState();
    return k && k.mode === (i?.mode ?? null) && k.draftOpened === (draft?.opened ?? null) ? k : null;
  });
  // The form starts from the kept search, else the saved search being edited, read once: a later save or "Stop
  // editing" keeps what the user has in the form.
  const [initial] = useState<SearchForm>(() =>
    kept
      ? { ...emptyForm(), ...(kept.form as Partial<SearchForm>) }
      : draft
        ? fromParams(draft.params)
        : emptyForm(),
  );
  const [params, setParams] = useState<Record<string, unknown> | null>(kept?.params ?? null);
  const [page, setPage] = useState<Page | null>(kept?.page ?? null);
  const [pageNo, setPageNo] = useState(kept?.pageNo ?? 1);
  const [readAt, setReadAt] = useState<number | null>(kept?.readAt ?? null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<ErrorPayload | null>(null);
  const [photoChoice, setPhotoChoice] = useState<boolean | null>(kept?.photoChoice ?? null);
  const now = useNow(30_000);
  const [saving, setSaving] = useState<Record<string, unknown> | null>(null);
  const [updating, setUpdating] = useState(false);
  const [updateError, setUpdateError] = useState<ErrorPayload | null>(null);
  const [updated, setUpdated] = useState<string | null>(null);
  const seq = useRef(0);
  const photos = photoChoice ?? info.data?.mode === 'demo';

  // Each run is a new action: it clears the previous run's message at once, and a failed run clears the results
  // too, so an error never stands above the lots of an earlier search or page ("Page 1 · 20 lots").
  const run = useCallback(
    async (p: Record<string, unknown>, cursor: string | undefined, nextPageNo: number) => {
      const my = ++seq.current;
      setLoading(true);
      setError(null);
      // Damage the service cannot search is never sent: Lotwatch keeps the page's lots that have it.
      const { params: sent, refine } = splitSearch(p);
      const r = await call('vehicles.search', {
        params: sent,
        ...(isUnrefined(refine) ? {} : { refine }),
        ...(cursor ? { cursor } : {}),
      });
      if (my !== seq.current) return;
      setLoading(false);
      if (r.ok) {
        setPage(r.value);
        setPageNo(nextPageNo);
        setReadAt(appNow());
      } else {
        setPage(null);
        setError(r.error);
      }
    },
    [call],
  );

  // What the view shows, kept in the app's store for when it opens again (nothing is sent).
  const draftOpened = draft?.opened ?? null;
  useEffect(() => {
    store.getState().keepSearchSession({
      params,
      page,
      pageNo,
      readAt,
      photoChoice,
      mode: store.getState().info?.mode ?? null,
      draftOpened,
    });
  }, [store, params, page, pageNo, readAt, photoChoice, draftOpened]);
  const keepForm = useCallback(
    (f: SearchForm) => store.getState().keepSearchSession({ form: f as unknown as Record<string, unknown> }),
    [store],
  );

  const onSearch = (f: SearchForm) => {
    keepForm(f);
    const p = toParams(f);
    setParams(p);
    // Other filters: the lots of the previous search are not shown while this one loads.
    setPage(null);
    void run(p, undefined, 1);
  };

  /**
   * Saves the form's filters to the saved search being edited. Its other settings are read afresh first
   * (searches.list, no quota), because searches.update replaces them all and they may have changed since it was
   * opened (paused, renamed from Saved searches).
   */
  const onUpdate = async (f: SearchForm) => {
    if (!draft) return;
    const { params: p, refine } = splitSearch(toParams(f));
    setUpdating(true);
    setUpdated(null);
    const list = await call('searches.list');
    const current = list.ok ? list.value.find((s) => s.id === draft.id) : undefined;
    const r = !list.ok
      ? list
      : !current
        ? ({
            ok: false,
            error: {
              code: 'not_found',
              message: `“${draft.name}” is no longer a saved search. Use Save as new… to keep these filters.`,
              retryable: false,
            },
          } as const)
        : await call('searches.update', {
            id: current.id,
            name: current.name,
            params: p,
            refine,
            schedule: current.schedule,
            max_pages: current.max_pages,
            paused: current.paused,
            rules: current.rules,
            // Refused (`conflict`, saying who and when) when another member changed it since it was opened here.
            ...(draft.updatedAt > 0 ? { expected_updated_at: draft.updatedAt } : {}),
          });
    setUpdating(false);
    if (r.ok) {
      setUpdateError(null);
      setUpdated(`Saved the filters of “${r.value.name}”.`);
      store.getState().updateSearchDraft(r.value);
    } else setUpdateError(r.error);
  };

  const errors = { ...fieldErrors(error), ...fieldErrors(updateError) };
  const updateFieldError = !!updateError && Object.keys(fieldErrors(updateError)).length > 0;
  const generalError = error && !Object.keys(fieldErrors(error)).length ? error : null;
  const meta = page?.meta ?? null;
  const rows = page?.lots ?? [];

  return (
    <div className="search">
      <aside className="search-filters">
        {draft && (
          <div className="sf-editing" role="region" aria-label="Editing a saved search">
            <p className="sf-editing-head">
              <span>
                Editing <strong>{draft.name}</strong>
              </span>
              <button
                type="button"
                className="link-button"
                onClick={() => {
                  store.getState().closeSearchDraft();
                  setUpdateError(null);
                  setUpdated(null);
                }}
              >
                Stop editing
              </button>
            </p>
            {updated ? (
              <p className="sf-editing-note" role="status">
                {updated}
              </p>
            ) : (
              !updateError && <p className="muted small">Nothing is saved or run until you choose.</p>
            )}
            {updateFieldError && <p className="field-error">Not saved: correct the highlighted filters.</p>}
            {updateError && !updateFieldError && <ErrorNotice error={updateError} />}
          </div>
        )}
        {filters.error && (
          <p className="muted small sf-meta-note" role="status">
            The service's lists of filter choices could not be loaded, so Lotwatch's own lists are shown;
            search works the same.
          </p>
        )}
        <FilterPanel
          meta={filterMeta}
          initial={initial}
          errors={errors}
          loading={loading}
          onSearch={onSearch}
          onSave={(f) => setSaving(toParams(f))}
          onValues={keepForm}
          {...(draft
            ? { editing: { name: draft.name, busy: updating, onUpdate: (f: SearchForm) => void onUpdate(f) } }
            : {})}
        />
      </aside>
      <section className="search-results" aria-label="Results" aria-busy={loading}>
        <div className="sr-toolbar">
          <span className="sr-summary" role="status">
            {loading
              ? 'Searching…'
              : page
                ? (rows.length
                    ? `Page ${pageNo} · ${rows.length} ${rows.length === 1 ? 'lot' : 'lots'}`
                    : 'No lots') + readWhen(readAt, now)
                : 'Set filters and press Search'}
          </span>
          {rows.length > 0 && (
            <span className="muted small sr-jump">
              <kbd>Alt</kbd>+<kbd>R</kbd> to the results
            </span>
          )}
          <label className="sr-photos">
            <input type="checkbox" checked={photos} onChange={(e) => setPhotoChoice(e.target.checked)} />
            <span>Show photos</span>
          </label>
          {info.data?.mode === 'live' && !photos && (
            <span className="muted small">Each photo costs one request.</span>
          )}
          <div className="sr-pager">
            <button
              type="button"
              disabled={loading || !meta?.prev_cursor || !params}
              onClick={() =>
                params && meta?.prev_cursor && void run(params, meta.prev_cursor, Math.max(1, pageNo - 1))
              }
            >
              ← Previous
            </button>
            <button
              type="button"
              disabled={loading || !meta?.next_cursor || !params}
              onClick={() => params && meta?.next_cursor && void run(params, meta.next_cursor, pageNo + 1)}
            >
              Next →
            </button>
          </div>
        </div>
        <div
          className={loading ? 'progress active' : 'progress'}
          role="progressbar"
          aria-label="Loading results"
          aria-hidden={!loading}
        />
        {/* The parser's warnings name record paths (for the API console and the log), not words for a buyer: one line
            says what they mean here. */}
        {page && page.warnings.length > 0 && (
          <p className="notice small">
            Some details of these lots came in a form Lotwatch could not read: those show as missing,
            everything else is shown.
          </p>
        )}
        {page?.refined_out !== undefined && page.refined_out > 0 && (
          <p className="muted small sr-refined" role="status">
            {page.refined_out} {page.refined_out === 1 ? 'lot' : 'lots'} of this page left out by Lotwatch's
            own damage filter (the service cannot search that damage)
            {page.meta?.next_cursor ? '; the next pages may hold more matches.' : '.'}
          </p>
        )}
        {error && Object.keys(fieldErrors(error)).length > 0 && (
          <ErrorNotice error={error} fieldsShown subject="search" />
        )}
        {generalError && (
          <ErrorNotice error={generalError} onRetry={() => params && void run(params, undefined, 1)} />
        )}
        {!page && !loading && !error && (
          <div className="sr-empty">
            <h2>Search both platforms</h2>
            <p className="muted">
              Choose a make, a year range or a price, or type a lot number or VIN, then press <kbd>Enter</kbd>{' '}
              or Search. Results come a page at a time; save a search to have Lotwatch watch it for you.
            </p>
          </div>
        )}
        {page && rows.length === 0 && !loading && (
          <div className="sr-empty">
            <h2>No lots match</h2>
            <p className="muted">
              Widen the filters: clear the model, widen the year or price range, or set Auction to Live or
              Ended. You can still save this search to be alerted when a match appears.
            </p>
          </div>
        )}
        {rows.length > 0 && <ResultsTable rows={rows} photos={photos} />}
      </section>
      {saving && <SaveSearchDialog params={saving} onClose={() => setSaving(null)} />}
    </div>
  );
}
