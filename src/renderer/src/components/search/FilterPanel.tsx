import { useState, type ReactNode } from 'react';
import { useForm, useWatch, type UseFormRegister } from 'react-hook-form';
import { modelsFor, optionsFor, rangeFor, type Option, type SearchForm } from './params';

type Meta = Record<string, unknown> | null;
type Errors = Record<string, string>;
type Reg = UseFormRegister<SearchForm>;
type Name = keyof SearchForm;

/** Parameters grouped under "More filters"; a field error on one of them opens the group. */
export const MORE_FIELDS = new Set<string>([
  'type',
  'color',
  'fuel_type',
  'transmission',
  'cylinders',
  'drive_type',
  'engine_size_from',
  'engine_size_to',
  'engine_hp_from',
  'engine_hp_to',
  'run_cond',
  'has_key',
  'zip',
  'radius',
  'units',
  'facility_id',
  'loc_state',
  'office_name',
  'sale_document_pending',
  'sale_document_type',
  'seller_type',
  'has_shipping_price',
]);

const errId = (name: string) => `sf-${name}-error`;

function FieldError({ name, errors }: { name: string; errors: Errors }) {
  const m = errors[name];
  return m ? (
    <span className="field-error" id={errId(name)}>
      {m}
    </span>
  ) : null;
}

/** aria props that tie an input to its error message. */
function invalid(name: string, errors: Errors) {
  return errors[name] ? { 'aria-invalid': true as const, 'aria-describedby': errId(name) } : {};
}

function Text({ name, label, reg, errors, placeholder, list, type = 'text' }: {
  name: Name;
  label: string;
  reg: Reg;
  errors: Errors;
  placeholder?: string;
  list?: string;
  type?: 'text' | 'date' | 'search';
}) {
  return (
    <label className="sf-field">
      <span>{label}</span>
      <input type={type} {...reg(name)} placeholder={placeholder} list={list} {...invalid(name, errors)} />
      <FieldError name={name} errors={errors} />
    </label>
  );
}

function Select({ name, label, reg, errors, options, anyLabel = 'Any' }: {
  name: Name;
  label: string;
  reg: Reg;
  errors: Errors;
  options: Option[];
  anyLabel?: string;
}) {
  return (
    <label className="sf-field">
      <span>{label}</span>
      <select {...reg(name)} {...invalid(name, errors)}>
        <option value="">{anyLabel}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldError name={name} errors={errors} />
    </label>
  );
}

/** Two number inputs for a `*_from`/`*_to` (or `*_min`/`*_max`) pair. */
function Range({ label, from, to, reg, errors, range, step }: {
  label: string;
  from: Name;
  to: Name;
  reg: Reg;
  errors: Errors;
  range: { min: number | null; max: number | null };
  step?: string;
}) {
  return (
    <fieldset className="sf-range">
      <legend>{label}</legend>
      <div className="sf-range-inputs">
        <input
          type="number"
          step={step ?? 'any'}
          aria-label={`${label} from`}
          placeholder={range.min !== null ? `from ${range.min}` : 'from'}
          {...reg(from)}
          {...invalid(from, errors)}
        />
        <span aria-hidden="true">–</span>
        <input
          type="number"
          step={step ?? 'any'}
          aria-label={`${label} to`}
          placeholder={range.max !== null ? `to ${range.max}` : 'to'}
          {...reg(to)}
          {...invalid(to, errors)}
        />
      </div>
      <FieldError name={from} errors={errors} />
      <FieldError name={to} errors={errors} />
    </fieldset>
  );
}

/** Checkboxes for a multi parameter; scrolls when the list is long. */
function Checks({ name, label, reg, errors, options }: { name: Name; label: string; reg: Reg; errors: Errors; options: Option[] }) {
  return (
    <fieldset className={options.length > 6 ? 'sf-checks long' : 'sf-checks'} {...invalid(name, errors)}>
      <legend>{label}</legend>
      <div className="sf-check-list">
        {options.map((o) => (
          <label key={o.value} className="sf-check">
            <input type="checkbox" value={o.value} {...reg(name)} />
            <span>{o.label}</span>
            {o.count !== undefined && <span className="sf-count">{o.count.toLocaleString('en-US')}</span>}
          </label>
        ))}
      </div>
      <FieldError name={name} errors={errors} />
    </fieldset>
  );
}

function Flag({ name, label, reg }: { name: Name; label: ReactNode; reg: Reg }) {
  return (
    <label className="sf-flag">
      <input type="checkbox" {...reg(name)} />
      <span>{label}</span>
    </label>
  );
}

/**
 * The search filters: every GET /vehicles parameter of the spec, the common ones first and the rest under
 * "More filters". Choices come from `vehicles.filters` metadata when it lists them, else from the spec.
 * `errors` maps parameter names to the service's messages.
 */
export function FilterPanel({ meta, initial, errors, loading, onSearch, onSave }: {
  meta: Meta;
  initial: SearchForm;
  errors: Errors;
  loading: boolean;
  onSearch: (f: SearchForm) => void;
  onSave: (f: SearchForm) => void;
}) {
  const { register: reg, handleSubmit, reset, control, getValues } = useForm<SearchForm>({ defaultValues: initial });
  const make = useWatch({ control, name: 'make' });
  const errorInMore = Object.keys(errors).some((k) => MORE_FIELDS.has(k));
  const [moreOpen, setMoreOpen] = useState(false);
  const makes = optionsFor(meta, 'make');
  const models = modelsFor(meta, make);

  return (
    <form className="sf" aria-label="Search filters" onSubmit={handleSubmit(onSearch)} noValidate>
      <div className="sf-scroll">
        <label className="sf-field">
          <span>Lot number, VIN or title</span>
          <input type="search" {...reg('s')} placeholder="e.g. 50293048, 5TDX…, Corolla" {...invalid('s', errors)} />
          <FieldError name="s" errors={errors} />
        </label>
        <div className="sf-grid2">
          <Select name="platform" label="Platform" reg={reg} errors={errors} options={optionsFor(meta, 'platform')} anyLabel="Both" />
          <Select name="lot_status" label="Sale type" reg={reg} errors={errors} options={optionsFor(meta, 'lot_status')} anyLabel="All (default)" />
          <Select name="lot_sub_status" label="Auction" reg={reg} errors={errors} options={optionsFor(meta, 'lot_sub_status')} anyLabel="Open (default)" />
          <Select name="make" label="Make" reg={reg} errors={errors} options={makes} />
        </div>
        <label className="sf-field">
          <span>Model</span>
          <input type="text" {...reg('model')} list="sf-models" placeholder={make ? 'Any model' : 'Pick a make first, or type'} {...invalid('model', errors)} />
          <datalist id="sf-models">
            {models.map((m) => (
              <option key={m.value} value={m.value} />
            ))}
          </datalist>
          <FieldError name="model" errors={errors} />
        </label>
        <Range label="Year" from="year_from" to="year_to" reg={reg} errors={errors} range={rangeFor(meta, 'year')} step="1" />
        <Range label="Price (USD)" from="price_min" to="price_max" reg={reg} errors={errors} range={rangeFor(meta, 'price')} />
        <Range label="Odometer (mi)" from="odometer_from" to="odometer_to" reg={reg} errors={errors} range={rangeFor(meta, 'odometer')} />
        <Checks name="damage" label="Damage" reg={reg} errors={errors} options={optionsFor(meta, 'damage')} />
        <fieldset className="sf-range">
          <legend>Auction date</legend>
          <div className="sf-range-inputs">
            <input type="date" aria-label="Auction date from" {...reg('auction_date_from')} {...invalid('auction_date_from', errors)} />
            <span aria-hidden="true">–</span>
            <input type="date" aria-label="Auction date to" {...reg('auction_date_to')} {...invalid('auction_date_to', errors)} />
          </div>
          <FieldError name="auction_date_from" errors={errors} />
          <FieldError name="auction_date_to" errors={errors} />
        </fieldset>
        <Flag name="today_only" label="Only auctions today" reg={reg} />

        <details className="sf-more" open={moreOpen || errorInMore} onToggle={(e) => setMoreOpen(e.currentTarget.open)}>
          <summary>More filters</summary>
          <div className="sf-more-body">
            <Select name="type" label="Vehicle type" reg={reg} errors={errors} options={optionsFor(meta, 'type')} />
            <Checks name="color" label="Color" reg={reg} errors={errors} options={optionsFor(meta, 'color')} />
            <Checks name="fuel_type" label="Fuel" reg={reg} errors={errors} options={optionsFor(meta, 'fuel_type')} />
            <Checks name="transmission" label="Transmission" reg={reg} errors={errors} options={optionsFor(meta, 'transmission')} />
            <Checks name="drive_type" label="Drive" reg={reg} errors={errors} options={optionsFor(meta, 'drive_type')} />
            <Checks name="cylinders" label="Cylinders" reg={reg} errors={errors} options={optionsFor(meta, 'cylinders')} />
            <Range label="Engine size (L)" from="engine_size_from" to="engine_size_to" reg={reg} errors={errors} range={rangeFor(meta, 'engine_size')} />
            <Range label="Engine power (hp)" from="engine_hp_from" to="engine_hp_to" reg={reg} errors={errors} range={rangeFor(meta, 'engine_hp')} step="1" />
            <div className="sf-grid2">
              <Select name="run_cond" label="Run condition" reg={reg} errors={errors} options={optionsFor(meta, 'run_cond')} />
              <Select name="has_key" label="Keys" reg={reg} errors={errors} options={optionsFor(meta, 'has_key')} anyLabel="All (default)" />
            </div>
            <fieldset className="sf-range">
              <legend>Near a ZIP code</legend>
              <div className="sf-zip">
                <input type="text" inputMode="numeric" aria-label="ZIP code" placeholder="ZIP" {...reg('zip')} {...invalid('zip', errors)} />
                <input type="number" min={0} aria-label="Radius" placeholder="radius" {...reg('radius')} {...invalid('radius', errors)} />
                <select aria-label="Units" {...reg('units')} {...invalid('units', errors)}>
                  <option value="">mi</option>
                  {optionsFor(meta, 'units')
                    .filter((o) => o.value !== 'mi')
                    .map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                </select>
              </div>
              <FieldError name="zip" errors={errors} />
              <FieldError name="radius" errors={errors} />
              <FieldError name="units" errors={errors} />
            </fieldset>
            <div className="sf-grid2">
              <Select name="loc_state" label="State" reg={reg} errors={errors} options={optionsFor(meta, 'loc_state')} />
              <Text name="facility_id" label="Facility ID" reg={reg} errors={errors} />
            </div>
            <Text name="office_name" label="Office or branch" reg={reg} errors={errors} />
            <div className="sf-grid2">
              <Select name="seller_type" label="Seller" reg={reg} errors={errors} options={optionsFor(meta, 'seller_type')} />
              <Select name="sale_document_type" label="Sale document" reg={reg} errors={errors} options={optionsFor(meta, 'sale_document_type')} />
            </div>
            <Flag name="sale_document_pending" label="Sale document pending" reg={reg} />
            <Flag name="has_shipping_price" label="Has a shipping price" reg={reg} />
          </div>
        </details>
      </div>
      <div className="sf-actions">
        <button type="submit" className="primary" disabled={loading}>
          {loading ? 'Searching…' : 'Search'}
        </button>
        <button type="button" onClick={() => onSave(getValues())}>
          Save this search…
        </button>
        <button type="button" className="sf-reset" onClick={() => reset(initial)}>
          Reset
        </button>
      </div>
    </form>
  );
}
