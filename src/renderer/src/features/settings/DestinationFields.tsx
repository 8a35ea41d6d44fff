import type { DeskSettings } from '../../../../shared/desk';
import { CAR_PORTS, portLabel, type Destination } from '../../../../shared/shipping';

/**
 * Ocean freight and duty per destination (src/shared/shipping.ts): one row per US port, the country it ships to,
 * the buyer's own ocean freight (USD a vehicle) and import duty (% of the bid). The landed cost of a lot uses the row
 * of the port it ships to; a port without a row is named beside the number. Part of the Settings form's draft.
 */
export function DestinationFields({
  value,
  onChange,
  fieldError,
}: {
  value: DeskSettings;
  onChange: (d: DeskSettings) => void;
  fieldError: (path: string) => string | undefined;
}) {
  const rows = value.destinations;
  const set = (ds: Destination[]) => onChange({ ...value, destinations: ds });
  const edit = (i: number, d: Partial<Destination>) =>
    set(rows.map((x, j) => (j === i ? { ...x, ...d } : x)));
  const num = (s: string) => (s.trim() === '' ? 0 : Number(s));
  const free = CAR_PORTS.find((p) => !rows.some((d) => d.port === p)) ?? 'Savannah';
  const rowError = (i: number) =>
    fieldError(`destinations.${i}.country`) ??
    fieldError(`destinations.${i}.ocean_freight_usd`) ??
    fieldError(`destinations.${i}.duty_percent`) ??
    fieldError(`destinations.${i}.port`);
  return (
    <div className="desk-lines" role="group" aria-label="Destinations">
      <span className="desk-lines-title">
        Destinations: ocean freight and duty from each port (your own numbers; leave empty if you do not
        export)
      </span>
      {rows.length > 0 && (
        <span className="muted small">
          Each row: port, country, ocean freight (USD a vehicle), duty (% of the bid).
        </span>
      )}
      {rows.map((d, i) => (
        <div className="desk-line" key={i}>
          <select
            aria-label={`Destination ${i + 1}: port`}
            value={d.port}
            onChange={(e) => edit(i, { port: e.target.value })}
          >
            {[...new Set([...CAR_PORTS, d.port])].map((p) => (
              <option key={p} value={p}>
                {portLabel(p)}
              </option>
            ))}
          </select>
          <input
            type="text"
            aria-label={`Destination ${i + 1}: country`}
            value={d.country}
            placeholder="Country"
            onChange={(e) => edit(i, { country: e.target.value })}
          />
          <input
            type="number"
            min={0}
            aria-label={`Destination ${i + 1}: ocean freight (USD)`}
            value={String(d.ocean_freight_usd)}
            onChange={(e) => edit(i, { ocean_freight_usd: num(e.target.value) })}
          />
          <input
            type="number"
            min={0}
            step="any"
            aria-label={`Destination ${i + 1}: duty (% of the bid)`}
            value={String(d.duty_percent)}
            onChange={(e) => edit(i, { duty_percent: num(e.target.value) })}
          />
          <button type="button" className="link-button" onClick={() => set(rows.filter((_, j) => j !== i))}>
            Remove
          </button>
          {rowError(i) && <span className="field-error">{rowError(i)}</span>}
        </div>
      ))}
      {fieldError('destinations') && <span className="field-error">{fieldError('destinations')}</span>}
      <div className="desk-line-adds">
        <button
          type="button"
          onClick={() => set([...rows, { port: free, country: '', ocean_freight_usd: 0, duty_percent: 0 }])}
        >
          Add a destination
        </button>
      </div>
    </div>
  );
}
