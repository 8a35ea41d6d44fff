import type { DeskSettings } from '../../../../shared/desk';
import { BID_FEE_ID, FEE_LOADS, type OwnLine } from '../../../../shared/fees';
import { MEMBERSHIPS, membershipKinds } from '../../../../shared/feeTable';
import { PLATFORMS } from '../../../../shared/vehicle';
import { platformName, usd } from '../../lib/format';
import { SHIP_PORTS, portChoiceLabel, portLabel } from '../../../../shared/shipping';
import { DestinationFields } from './DestinationFields';

/** A fresh id for a line the user adds (ids only tell lines apart; labels are what the user reads). */
const newId = (lines: readonly { id: string }[], prefix: string) => {
  let n = lines.length + 1;
  while (lines.some((l) => l.id === `${prefix}_${n}`)) n++;
  return `${prefix}_${n}`;
};

/**
 * How the user buys, for landed cost and max bid: the membership kind on each platform (with each lot's title
 * document it picks the published fee table in data/fees; a kind whose fees are not known is said so here), the port, whether they pay the internet bid fee, extra fee lines (a broker's
 * fee) and their own lines after the auction (ocean freight, duty as a percentage of the bid, repairs, a margin).
 * Part of the Settings form: edits go into its draft and are saved with it.
 */
export function DeskFields({
  value,
  onChange,
  fieldError,
}: {
  value: DeskSettings;
  onChange: (d: DeskSettings) => void;
  /** The save error for a field path under `desk` (e.g. `own_lines.0.usd`), if any. */
  fieldError: (path: string) => string | undefined;
}) {
  const set = <K extends keyof DeskSettings>(k: K, v: DeskSettings[K]) => onChange({ ...value, [k]: v });
  const inPerson = value.omit_fees.includes(BID_FEE_ID);
  const ownAmount = (l: OwnLine) => ('percent' in l ? String(l.percent) : String(l.usd));
  const setOwn = (i: number, l: OwnLine) =>
    set(
      'own_lines',
      value.own_lines.map((x, j) => (j === i ? l : x)),
    );
  const num = (s: string) => (s.trim() === '' ? 0 : Number(s));
  return (
    <fieldset className="desk-fields">
      <legend>Costs: landed cost and max bid</legend>
      <p className="muted small">
        Lotwatch adds the platform&apos;s buyer fees, shipping to your port and your own lines to a bid, and
        works out the most you can bid for a target. Each lot pays the table of its title document (clean or
        not) under your membership; a lot without a known title document pays the stricter table. Fees are the
        published schedules (read on{' '}
        {PLATFORMS.map((p) => {
          const load = FEE_LOADS[p];
          return `${platformName(p)} ${load.ok ? load.file.read_on : 'unreadable: ' + load.problem}`;
        }).join(', ')}
        ); check them before you bid.
      </p>
      <div className="desk-row">
        {PLATFORMS.map((p) => {
          const load = FEE_LOADS[p];
          const known = !load.ok || value.membership[p] in load.file.memberships;
          return (
            <label className="field" key={p}>
              <span>{platformName(p)} membership</span>
              <select
                name={`desk-membership-${p}`}
                value={value.membership[p]}
                onChange={(e) => set('membership', { ...value.membership, [p]: e.target.value })}
              >
                {membershipKinds(p).map((k) => (
                  <option key={k} value={k}>
                    {(MEMBERSHIPS[p] as Record<string, string>)[k]}
                    {load.ok && !(k in load.file.memberships) ? ' (fees not known)' : ''}
                  </option>
                ))}
              </select>
              {!known && (
                <span className="field-error">
                  Lotwatch has no published {platformName(p)} fee table for this membership: its lots get no
                  landed cost or max bid.
                </span>
              )}
            </label>
          );
        })}
        <label className="field">
          <span>Port</span>
          <select name="desk-port" value={value.port} onChange={(e) => set('port', e.target.value)}>
            {SHIP_PORTS.map((p) => (
              <option key={p} value={p}>
                {portChoiceLabel(p)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Port for landed cost</span>
          <select
            name="desk-port-choice"
            value={value.port_choice}
            onChange={(e) => set('port_choice', e.target.value === 'cheapest' ? 'cheapest' : 'port')}
          >
            <option value="port">Your port ({portLabel(value.port)})</option>
            <option value="cheapest">Cheapest port of each lot</option>
          </select>
        </label>
      </div>
      <label className="check">
        <input
          type="checkbox"
          name="desk-in-person"
          checked={inPerson}
          onChange={(e) =>
            set(
              'omit_fees',
              e.target.checked
                ? [...value.omit_fees, BID_FEE_ID]
                : value.omit_fees.filter((x) => x !== BID_FEE_ID),
            )
          }
        />
        <span>I bid in person at the yard (no internet bid fee)</span>
      </label>

      <div className="desk-lines" role="group" aria-label="Extra fee lines">
        <span className="desk-lines-title">Extra fees on every purchase (a broker&apos;s fee, say), USD</span>
        {value.custom_fees.map((f, i) => (
          <div className="desk-line" key={f.id}>
            <input
              type="text"
              aria-label="Fee name"
              value={f.label}
              onChange={(e) =>
                set(
                  'custom_fees',
                  value.custom_fees.map((x, j) => (j === i ? { ...x, label: e.target.value } : x)),
                )
              }
            />
            <input
              type="number"
              min={0}
              aria-label={`${f.label || 'Fee'} (USD)`}
              value={String(f.usd)}
              onChange={(e) =>
                set(
                  'custom_fees',
                  value.custom_fees.map((x, j) => (j === i ? { ...x, usd: num(e.target.value) } : x)),
                )
              }
            />
            <button
              type="button"
              className="link-button"
              onClick={() =>
                set(
                  'custom_fees',
                  value.custom_fees.filter((_, j) => j !== i),
                )
              }
            >
              Remove
            </button>
            {fieldError(`custom_fees.${i}.usd`) && (
              <span className="field-error">{fieldError(`custom_fees.${i}.usd`)}</span>
            )}
          </div>
        ))}
        <button
          type="button"
          onClick={() =>
            set('custom_fees', [
              ...value.custom_fees,
              { id: newId(value.custom_fees, 'fee'), label: 'Broker fee', usd: 0 },
            ])
          }
        >
          Add a fee
        </button>
      </div>

      <div className="desk-lines" role="group" aria-label="Your own costs">
        <span className="desk-lines-title">
          Your own costs after the auction (ocean freight, duty, repairs, margin)
        </span>
        {value.own_lines.map((l, i) => (
          <div className="desk-line" key={l.id}>
            <input
              type="text"
              aria-label="Cost name"
              value={l.label}
              onChange={(e) => setOwn(i, { ...l, label: e.target.value })}
            />
            <input
              type="number"
              min={0}
              step="any"
              aria-label={`${l.label || 'Cost'} (${'percent' in l ? '% of the bid' : 'USD'})`}
              value={ownAmount(l)}
              onChange={(e) =>
                setOwn(
                  i,
                  'percent' in l
                    ? { id: l.id, label: l.label, percent: num(e.target.value) }
                    : { id: l.id, label: l.label, usd: num(e.target.value) },
                )
              }
            />
            <select
              aria-label={`${l.label || 'Cost'}: amount or percentage`}
              value={'percent' in l ? 'percent' : 'usd'}
              onChange={(e) =>
                setOwn(
                  i,
                  e.target.value === 'percent'
                    ? { id: l.id, label: l.label, percent: 0 }
                    : { id: l.id, label: l.label, usd: 0 },
                )
              }
            >
              <option value="usd">USD</option>
              <option value="percent">% of the bid</option>
            </select>
            <button
              type="button"
              className="link-button"
              onClick={() =>
                set(
                  'own_lines',
                  value.own_lines.filter((_, j) => j !== i),
                )
              }
            >
              Remove
            </button>
            {(fieldError(`own_lines.${i}.usd`) ??
              fieldError(`own_lines.${i}.percent`) ??
              fieldError(`own_lines.${i}.label`)) && (
              <span className="field-error">
                {fieldError(`own_lines.${i}.usd`) ??
                  fieldError(`own_lines.${i}.percent`) ??
                  fieldError(`own_lines.${i}.label`)}
              </span>
            )}
          </div>
        ))}
        <div className="desk-line-adds">
          <button
            type="button"
            onClick={() =>
              set('own_lines', [
                ...value.own_lines,
                { id: newId(value.own_lines, 'own'), label: 'Ocean freight', usd: 0 },
              ])
            }
          >
            Add an amount
          </button>
          <button
            type="button"
            onClick={() =>
              set('own_lines', [
                ...value.own_lines,
                { id: newId(value.own_lines, 'own'), label: 'Import duty', percent: 0 },
              ])
            }
          >
            Add a percentage
          </button>
        </div>
        {value.own_lines.length > 0 && (
          <p className="muted small">
            Fixed lines add up to {usd(value.own_lines.reduce((n, l) => n + ('usd' in l ? l.usd : 0), 0))} per
            vehicle.
          </p>
        )}
      </div>
      <DestinationFields value={value} onChange={onChange} fieldError={fieldError} />
    </fieldset>
  );
}
