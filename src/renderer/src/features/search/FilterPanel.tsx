import { Fragment, useEffect, useState, type ChangeEvent, type ReactNode } from 'react';
import { useForm, useWatch, type UseFormRegister } from 'react-hook-form';
import type { FilterMeta, NumberRange } from '../../../../shared/filterMeta';
import { searchParam, SEARCH_DEFAULTS } from '../../../../shared/vehicleParams';
import { LOCAL_FILTER_NOTE } from '../../../../shared/localRefinements';
import {
  damageOptions,
  defaultLabel,
  enumOptions,
  labelOf,
  listOptions,
  modelsOf,
  PLATFORM_OPTIONS,
  rangeHint,
  type Option,
  type SearchForm,
} from './params';

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

function Text({
  name,
  label = labelOf(name),
  reg,
  errors,
  placeholder,
  list,
  type = 'text',
}: {
  name: Name;
  label?: string;
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

/**
 * A single choice. `current` is the form's value (or the value it started with): when it is not among the options
 * (a saved search made with an older list, or one the service does not list now) it is shown as its own option,
 * so what the select shows is what is sent.
 */
function Select({
  name,
  label = labelOf(name),
  reg,
  errors,
  options,
  anyLabel = defaultLabel(name),
  current,
  onChange,
}: {
  name: Name;
  label?: string;
  reg: Reg;
  errors: Errors;
  options: Option[];
  anyLabel?: string;
  current?: string;
  onChange?: (e: ChangeEvent<HTMLSelectElement>) => void;
}) {
  const extra: Option[] =
    current && !options.some((o) => o.value === current) ? [{ value: current, label: current }] : [];
  return (
    <label className="sf-field">
      <span>{label}</span>
      <select {...reg(name, onChange ? { onChange } : undefined)} {...invalid(name, errors)}>
        <option value="">{anyLabel}</option>
        {[...extra, ...options].map((o) => (
          <option key={o.value} value={o.value} disabled={o.disabled} title={o.title}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldError name={name} errors={errors} />
    </label>
  );
}

/** A select when the service listed choices, else a text field (offline, or a list the service does not give). */
function ChoiceOrText(props: {
  name: Name;
  label?: string;
  reg: Reg;
  errors: Errors;
  options: Option[];
  anyLabel?: string;
  current?: string;
  placeholder?: string;
  onChange?: (e: ChangeEvent<HTMLSelectElement>) => void;
}) {
  const { placeholder, ...select } = props;
  return props.options.length ? (
    <Select {...select} />
  ) : (
    <Text
      name={props.name}
      label={props.label}
      reg={props.reg}
      errors={props.errors}
      placeholder={placeholder}
    />
  );
}

/**
 * Two number inputs for a `*_from`/`*_to` (or `*_min`/`*_max`) pair, labelled from SEARCH_PARAMS ("Year", "Year
 * from", "Year to"). The range the service lists shows as placeholders and as a hint both inputs are described by.
 */
function Range({
  from,
  to,
  reg,
  errors,
  range,
  step,
}: {
  from: Name;
  to: Name;
  reg: Reg;
  errors: Errors;
  range: NumberRange | null;
  step?: string;
}) {
  const label = searchParam(from)?.range?.group ?? labelOf(from);
  const hint = rangeHint(range);
  const hintId = `sf-${from}-hint`;
  /** aria props of one input: the listed range, and the error message when there is one. */
  const aria = (name: Name) => {
    const ids = [hint ? hintId : null, errors[name] ? errId(name) : null].filter(Boolean).join(' ');
    return {
      ...(errors[name] ? { 'aria-invalid': true as const } : {}),
      ...(ids ? { 'aria-describedby': ids } : {}),
    };
  };
  return (
    <fieldset className="sf-range">
      <legend>{label}</legend>
      <div className="sf-range-inputs">
        <input
          type="number"
          step={step ?? 'any'}
          aria-label={labelOf(from)}
          placeholder={range && range.min !== null ? `from ${range.min}` : 'from'}
          {...reg(from)}
          {...aria(from)}
        />
        <span aria-hidden="true">–</span>
        <input
          type="number"
          step={step ?? 'any'}
          aria-label={labelOf(to)}
          placeholder={range && range.max !== null ? `to ${range.max}` : 'to'}
          {...reg(to)}
          {...aria(to)}
        />
      </div>
      {hint && (
        <span className="sf-hint muted small" id={hintId}>
          Listed: {hint}
        </span>
      )}
      <FieldError name={from} errors={errors} />
      <FieldError name={to} errors={errors} />
    </fieldset>
  );
}

/**
 * Checkboxes for a multi parameter; scrolls when the list is long. A choice the specification does not allow is
 * shown disabled with its reason as the title; a choice Lotwatch filters itself (`local`) comes after a
 * "Filtered by Lotwatch" heading, and one line under the list says why and what it costs in pages. `saved` are the values the form started with (a saved search's):
 * one the options do not hold (not listed now, or the metadata is missing) is shown too, first, so every filter
 * the search sends can be seen and unticked. Nothing shows when there is nothing to choose and no error.
 */
function Checks({
  name,
  label = labelOf(name),
  reg,
  errors,
  options: listed,
  saved = [],
}: {
  name: Name;
  label?: string;
  reg: Reg;
  errors: Errors;
  options: Option[];
  saved?: readonly string[];
}) {
  const options: Option[] = [
    ...saved.filter((v) => !listed.some((o) => o.value === v)).map((v) => ({ value: v, label: v })),
    ...listed,
  ];
  if (!options.length && !errors[name]) return null;
  return (
    <fieldset className={options.length > 6 ? 'sf-checks long' : 'sf-checks'} {...invalid(name, errors)}>
      <legend>{label}</legend>
      <div className="sf-check-list">
        {options.map((o, i) => (
          <Fragment key={o.value}>
            {o.local && !options[i - 1]?.local && (
              <p className="sf-local-head" aria-hidden="true">
                Filtered by Lotwatch
              </p>
            )}
            <label className={o.local ? 'sf-check sf-check-local' : 'sf-check'} title={o.title}>
              <input
                type="checkbox"
                value={o.value}
                disabled={o.disabled}
                title={o.title}
                {...(o.local ? { 'aria-describedby': `sf-${name}-local` } : {})}
                {...reg(name)}
              />
              <span>{o.label}</span>
              {o.count !== undefined && <span className="sf-count">{o.count.toLocaleString('en-US')}</span>}
            </label>
          </Fragment>
        ))}
      </div>
      {options.some((o) => o.local) && (
        <p className="sf-local-note" id={`sf-${name}-local`}>
          {LOCAL_FILTER_NOTE} It keeps the matching lots of each page, so a search reads more pages to find as
          many.
        </p>
      )}
      <FieldError name={name} errors={errors} />
    </fieldset>
  );
}

function Flag({ name, label = labelOf(name), reg }: { name: Name; label?: ReactNode; reg: Reg }) {
  return (
    <label className="sf-flag">
      <input type="checkbox" {...reg(name)} />
      <span>{label}</span>
    </label>
  );
}

/**
 * The search filters: every GET /vehicles parameter of the spec, the common ones first and the rest under
 * "More filters". Choices come from the GET /vehicles/filters metadata (`meta`, read by readFilterMeta from
 * either dialect): makes, models of the chosen make, vehicle types by name, cylinders, colors, ranges as hints.
 * Enumerated parameters offer only what the specification allows (values the service lists beyond it show
 * disabled), and the spec's own lists when the metadata is missing. Fields, labels and defaults come from
 * SEARCH_PARAMS (src/shared/vehicleParams). `errors` maps parameter names to the service's messages. Nothing is
 * sent until the user presses Search (a search spends a request of the quota).
 */
export function FilterPanel({
  meta,
  initial,
  errors,
  loading,
  onSearch,
  onSave,
  onValues,
  editing,
}: {
  meta: FilterMeta;
  initial: SearchForm;
  errors: Errors;
  loading: boolean;
  onSearch: (f: SearchForm) => void;
  /** "Save this search…" (or "Save as new…" while editing a saved search): the form's values, nothing sent yet. */
  onSave: (f: SearchForm) => void;
  /** The form's values after each edit (the Search view keeps them for when it opens again); nothing is sent. */
  onValues?: (f: SearchForm) => void;
  /**
   * The saved search whose filters the form holds, when opened from Saved searches: "Save changes" then hands the
   * form's values to `onUpdate` (searches.update), and Reset goes back to the saved filters.
   */
  editing?: { name: string; busy: boolean; onUpdate: (f: SearchForm) => void };
}) {
  const {
    register: reg,
    handleSubmit,
    reset,
    control,
    getValues,
    setValue,
    subscribe,
  } = useForm<SearchForm>({ defaultValues: initial });
  useEffect(() => {
    if (!onValues) return;
    return subscribe({ formState: { values: true }, callback: ({ values }) => onValues(values) });
  }, [subscribe, onValues]);
  const [make, model, type, locState, saleDoc] = useWatch({
    control,
    name: ['make', 'model', 'type', 'loc_state', 'sale_document_type'],
  });
  const errorInMore = Object.keys(errors).some((k) => MORE_FIELDS.has(k));
  const [moreOpen, setMoreOpen] = useState(false);
  const models = modelsOf(meta, make);
  // loc_state takes a 2-letter code (Lotwatch refuses anything else before sending): offer only codes.
  const states = listOptions(meta.locStates.filter((c) => /^[A-Za-z]{2}$/.test(c.value)));
  // A model typed or picked for another make would search for nothing: clear it when the new make lists models
  // and this one is not among them.
  const onMakeChange = (e: ChangeEvent<HTMLSelectElement>) => {
    const listed = modelsOf(meta, e.target.value);
    const current = getValues('model').trim().toLowerCase();
    if (current && listed.length && !listed.some((m) => m.toLowerCase() === current)) setValue('model', '');
  };

  return (
    <form className="sf" aria-label="Search filters" onSubmit={handleSubmit(onSearch)} noValidate>
      <div className="sf-scroll">
        <label className="sf-field">
          <span>{labelOf('s')}</span>
          <input
            type="search"
            {...reg('s')}
            placeholder="e.g. 50293048, 5TDX…, Corolla"
            {...invalid('s', errors)}
          />
          <FieldError name="s" errors={errors} />
        </label>
        <div className="sf-grid2">
          <Select
            name="platform"
            current={initial.platform}
            reg={reg}
            errors={errors}
            options={PLATFORM_OPTIONS}
            anyLabel="Both"
          />
          <Select
            name="lot_status"
            current={initial.lot_status}
            reg={reg}
            errors={errors}
            options={enumOptions(meta, 'lot_status')}
          />
          <Select
            name="lot_sub_status"
            current={initial.lot_sub_status}
            reg={reg}
            errors={errors}
            options={enumOptions(meta, 'lot_sub_status')}
          />
          <ChoiceOrText
            name="make"
            reg={reg}
            errors={errors}
            options={listOptions(meta.makes)}
            current={make}
            onChange={onMakeChange}
            placeholder="e.g. TOYOTA"
          />
        </div>
        <ChoiceOrText
          name="model"
          reg={reg}
          errors={errors}
          options={listOptions(models)}
          anyLabel="Any model"
          current={model}
          placeholder={make ? 'Any model' : 'Pick a make first, or type'}
        />
        <Range from="year_from" to="year_to" reg={reg} errors={errors} range={meta.ranges.year} step="1" />
        <Range from="price_min" to="price_max" reg={reg} errors={errors} range={meta.ranges.price} />
        <Range from="odometer_from" to="odometer_to" reg={reg} errors={errors} range={meta.ranges.odometer} />
        <Checks
          name="damage"
          saved={initial.damage}
          reg={reg}
          errors={errors}
          options={damageOptions(meta)}
        />
        <fieldset className="sf-range">
          <legend>{searchParam('auction_date_from')?.range?.group}</legend>
          <div className="sf-range-inputs">
            <input
              type="date"
              aria-label={labelOf('auction_date_from')}
              {...reg('auction_date_from')}
              {...invalid('auction_date_from', errors)}
            />
            <span aria-hidden="true">–</span>
            <input
              type="date"
              aria-label={labelOf('auction_date_to')}
              {...reg('auction_date_to')}
              {...invalid('auction_date_to', errors)}
            />
          </div>
          <FieldError name="auction_date_from" errors={errors} />
          <FieldError name="auction_date_to" errors={errors} />
        </fieldset>
        <Flag name="today_only" reg={reg} />

        <details
          className="sf-more"
          open={moreOpen || errorInMore}
          onToggle={(e) => setMoreOpen(e.currentTarget.open)}
        >
          <summary>More filters</summary>
          <div className="sf-more-body">
            <ChoiceOrText
              name="type"
              reg={reg}
              errors={errors}
              options={listOptions(meta.types)}
              current={type}
              placeholder="e.g. AUTOMOBILE"
            />
            <Checks
              name="color"
              saved={initial.color}
              reg={reg}
              errors={errors}
              options={listOptions(meta.colors)}
            />
            <Checks
              name="fuel_type"
              saved={initial.fuel_type}
              reg={reg}
              errors={errors}
              options={enumOptions(meta, 'fuel_type')}
            />
            <Checks
              name="transmission"
              saved={initial.transmission}
              reg={reg}
              errors={errors}
              options={enumOptions(meta, 'transmission')}
            />
            <Checks
              name="drive_type"
              saved={initial.drive_type}
              reg={reg}
              errors={errors}
              options={enumOptions(meta, 'drive_type')}
            />
            <Checks
              name="cylinders"
              saved={initial.cylinders}
              reg={reg}
              errors={errors}
              options={meta.cylinders.map((n) => ({ value: String(n), label: String(n) }))}
            />
            <Range
              from="engine_size_from"
              to="engine_size_to"
              reg={reg}
              errors={errors}
              range={meta.ranges.engineSize}
            />
            <Range
              from="engine_hp_from"
              to="engine_hp_to"
              reg={reg}
              errors={errors}
              range={meta.ranges.engineHp}
              step="1"
            />
            <div className="sf-grid2">
              <Select
                name="run_cond"
                current={initial.run_cond}
                reg={reg}
                errors={errors}
                options={enumOptions(meta, 'run_cond')}
              />
              <Select
                name="has_key"
                current={initial.has_key}
                reg={reg}
                errors={errors}
                options={enumOptions(meta, 'has_key')}
              />
            </div>
            <fieldset className="sf-range">
              <legend>Near a ZIP code</legend>
              <div className="sf-zip">
                <input
                  type="text"
                  inputMode="numeric"
                  aria-label={labelOf('zip')}
                  placeholder="ZIP"
                  {...reg('zip')}
                  {...invalid('zip', errors)}
                />
                <input
                  type="number"
                  min={0}
                  aria-label={labelOf('radius')}
                  placeholder="radius"
                  {...reg('radius')}
                  {...invalid('radius', errors)}
                />
                <select aria-label={labelOf('units')} {...reg('units')} {...invalid('units', errors)}>
                  <option value="">{SEARCH_DEFAULTS.units}</option>
                  {enumOptions(meta, 'units')
                    .filter((o) => o.value !== SEARCH_DEFAULTS.units)
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
              <ChoiceOrText
                name="loc_state"
                reg={reg}
                errors={errors}
                options={states}
                current={locState}
                placeholder="e.g. TX"
              />
              <Text name="facility_id" reg={reg} errors={errors} />
            </div>
            <Text name="office_name" reg={reg} errors={errors} />
            <div className="sf-grid2">
              <Select
                name="seller_type"
                current={initial.seller_type}
                reg={reg}
                errors={errors}
                options={enumOptions(meta, 'seller_type')}
              />
              <ChoiceOrText
                name="sale_document_type"
                reg={reg}
                errors={errors}
                options={listOptions(meta.saleDocumentTypes)}
                current={saleDoc}
              />
            </div>
            <Flag name="sale_document_pending" reg={reg} />
            <Flag name="has_shipping_price" reg={reg} />
          </div>
        </details>
      </div>
      <div className="sf-actions">
        <button type="submit" className="primary" disabled={loading}>
          {loading ? 'Searching…' : 'Search'}
        </button>
        {editing && (
          <button
            type="button"
            disabled={editing.busy}
            onClick={() => editing.onUpdate(getValues())}
            title={`Save these filters to “${editing.name}”`}
          >
            {editing.busy ? 'Saving…' : 'Save changes'}
          </button>
        )}
        <button type="button" onClick={() => onSave(getValues())}>
          {editing ? 'Save as new…' : 'Save this search…'}
        </button>
        <button type="button" className="sf-reset" onClick={() => reset(initial)}>
          Reset
        </button>
      </div>
    </form>
  );
}
