import { useState } from 'react';
import {
  FACET_LABELS,
  type FacetCounts,
  type FacetSelection,
  type LibraryFacet,
} from '../../../../shared/libraryFacets';

/** Values shown per facet before "Show all". */
const SHOWN = 6;

const YES_NO: Partial<Record<LibraryFacet, [yes: string, no: string]>> = {
  keys: ['Keys present', 'No keys'],
  export: ['Exportable', 'Not exportable'],
};
const SELLER: Record<string, string> = {
  insurance: 'Insurance',
  non_insurance: 'Non-insurance',
  unknown: 'Unknown seller',
};
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A facet value as the buyer reads it: "yes"/"no" of keys and export in words, the seller type in words, a sale
 * month "2026-08" as "Aug 2026"; the record's own words otherwise.
 */
export function facetValueText(facet: LibraryFacet, value: string): string {
  const yn = YES_NO[facet];
  if (yn && (value === 'yes' || value === 'no')) return value === 'yes' ? yn[0] : yn[1];
  if (facet === 'seller_type') return SELLER[value] ?? value;
  const m = facet === 'sale_month' ? /^(\d{4})-(\d{2})$/.exec(value) : null;
  if (m) return `${MONTHS[Number(m[2]) - 1] ?? m[2]} ${m[1]}`;
  return value;
}

/**
 * The Library's facet panel: per facet, its values with how many lots of the current search carry each; ticking
 * values narrows the list (any ticked value of a facet, every facet with a tick). Picked values stay listed with
 * their count even when it falls to 0, so they can be unticked. Each facet is a fieldset of checkboxes: Tab and
 * Space work as everywhere.
 */
export function FacetPanel({
  counts,
  picks,
  onChange,
}: {
  counts: FacetCounts | null;
  picks: FacetSelection;
  onChange: (next: FacetSelection) => void;
}) {
  const [open, setOpen] = useState<Partial<Record<LibraryFacet, boolean>>>({});
  const anyPick = Object.values(picks).some((v) => v && v.length > 0);
  const toggle = (facet: LibraryFacet, value: string) => {
    const cur = picks[facet] ?? [];
    const next = cur.includes(value) ? cur.filter((v) => v !== value) : [...cur, value];
    onChange({ ...picks, [facet]: next });
  };
  return (
    <aside className="lib-facets" aria-label="Facets">
      <div className="lib-facets-head">
        <h2>Refine</h2>
        {anyPick && (
          <button type="button" className="lw-small" onClick={() => onChange({})}>
            Clear all
          </button>
        )}
      </div>
      {counts === null && <p className="lib-facet-empty">Counting…</p>}
      {counts?.map(({ facet, values }) => {
        const picked = picks[facet] ?? [];
        const listed = [
          ...values,
          ...picked.filter((p) => !values.some((v) => v.value === p)).map((value) => ({ value, count: 0 })),
        ];
        if (listed.length === 0) return null;
        const all = open[facet] ?? false;
        const shown = all ? listed : listed.filter((v, i) => i < SHOWN || picked.includes(v.value));
        return (
          <fieldset key={facet} className="lib-facet">
            <legend>{FACET_LABELS[facet]}</legend>
            {shown.map(({ value, count }) => (
              <label key={value} className="lib-facet-value">
                <input
                  type="checkbox"
                  checked={picked.includes(value)}
                  onChange={() => toggle(facet, value)}
                />
                <span className="lib-facet-text" title={facetValueText(facet, value)}>
                  {facetValueText(facet, value)}
                </span>
                <span className="lib-facet-count">{count.toLocaleString('en-US')}</span>
              </label>
            ))}
            {listed.length > SHOWN && (
              <button
                type="button"
                className="lw-link lib-facet-more"
                aria-expanded={all}
                onClick={() => setOpen({ ...open, [facet]: !all })}
              >
                {all ? 'Show fewer' : `Show all ${listed.length}`}
              </button>
            )}
          </fieldset>
        );
      })}
    </aside>
  );
}
