import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyFilterMeta, readFilterMeta, specChoices, type FilterMeta } from '../../src/shared/filterMeta';
import { SEARCH_ENUMS, toSpecValue, toSpecValues } from '../../src/shared/vehicleParams';
import { realFiltersData } from './fixtures/realFilters';

/** The specification-style body of Lotwatch's sandbox (src/sandbox vehicleFilters): flat lists of {value, count}. */
function legacyFiltersData(): Record<string, unknown> {
  return {
    platforms: [
      { value: 'copart', label: 'Copart', auction_type: 1 },
      { value: 'iaai', label: 'IAAI', auction_type: 2 },
    ],
    lot_status: ['All', 'Timed', 'Buy Now'],
    lot_sub_status: ['Live', 'Open', 'Ended'],
    has_key: ['No', 'All', 'With'],
    units: ['mi', 'km'],
    ports: ['Miami', 'NY'],
    makes: [
      { value: 'HONDA', count: 12 },
      { value: 'TOYOTA', count: 30 },
    ],
    models: {
      HONDA: [{ value: 'CIVIC', count: 12 }],
      TOYOTA: [
        { value: 'CAMRY', count: 10 },
        { value: 'COROLLA', count: 20 },
      ],
    },
    types: [
      { value: 'AUTOMOBILE', count: 40 },
      { value: 'SUV', count: 2 },
    ],
    colors: [{ value: 'Black', count: 9 }],
    fuel_types: [{ value: 'Gasoline', count: 40 }],
    transmissions: [{ value: 'Automatic', count: 41 }],
    drive_types: [{ value: 'FWD', count: 30 }],
    cylinders: [
      { value: '4', count: 30 },
      { value: '6', count: 12 },
    ],
    damages: [
      { value: 'Hail', count: 3 },
      { value: 'Front End', count: 20 },
    ],
    run_conditions: [{ value: 'RUNS AND DRIVES', count: 33 }],
    seller_types: [{ value: 'insurance', count: 35 }],
    sale_document_types: [{ value: 'SALVAGE', count: 30 }],
    loc_states: [{ value: 'TX', count: 20 }],
    year: { min: 2004, max: 2025 },
    price: { min: 0, max: 41000 },
    odometer: { min: 12, max: 240000 },
    engine_size: { min: null, max: null },
    engine_hp: { min: 98, max: 450 },
  };
}

/** Every part of a FilterMeta has its declared type. */
function wellFormed(m: FilterMeta): void {
  const strings = (l: unknown) =>
    Array.isArray(l) && l.every((x) => typeof x === 'string' && x.trim() !== '');
  expect(strings(m.makes)).toBe(true);
  expect(strings(m.types)).toBe(true);
  for (const [k, l] of Object.entries(m.modelsByMake)) {
    expect(typeof k).toBe('string');
    expect(strings(l)).toBe(true);
  }
  expect(m.cylinders.every((n) => Number.isSafeInteger(n) && n > 0)).toBe(true);
  const choiceLists = [
    m.colors,
    m.fuelTypes,
    m.transmissions,
    m.driveTypes,
    m.damage,
    m.runConditions,
    m.hasKey,
    m.sellerTypes,
    m.lotStatuses,
    m.lotSubStatuses,
    m.saleDocumentTypes,
    m.locStates,
  ];
  for (const l of choiceLists) {
    for (const c of l) {
      expect(typeof c.value).toBe('string');
      expect(typeof c.label).toBe('string');
      if (c.count !== undefined) expect(Number.isFinite(c.count)).toBe(true);
    }
  }
  for (const r of Object.values(m.ranges)) {
    if (r === null) continue;
    expect(r.min === null || Number.isFinite(r.min)).toBe(true);
    expect(r.max === null || Number.isFinite(r.max)).toBe(true);
    expect(r.min !== null || r.max !== null).toBe(true);
  }
}

describe('readFilterMeta: the real service body', () => {
  const data = realFiltersData();
  const m = readFilterMeta(data);

  it('the fixture has the 20 keys docs/service-contract.md "Filters" lists', () => {
    expect(Object.keys(data).sort()).toEqual(
      [
        'auction_date',
        'auction_type',
        'color',
        'cylinders',
        'damage',
        'drive_type',
        'engine_type',
        'fuel_type',
        'has_key',
        'location_filters',
        'lot',
        'make_model',
        'ranges',
        'running_condition',
        'sale_document_filters',
        'seller_type',
        'shipping',
        'today_only',
        'transmission',
        'types',
      ].sort(),
    );
  });

  it('reads makes and models_by_make from make_model', () => {
    expect(m.makes).toEqual(['AUDI', 'BMW', 'TOYOTA']);
    expect(m.modelsByMake).toEqual({
      AUDI: ['A4', 'Q5', 'S5'],
      BMW: ['M3', 'X5'],
      TOYOTA: ['CAMRY', 'COROLLA', 'RAV4'],
    });
  });

  it('reads vehicle types by name, never by id', () => {
    expect(m.types).toEqual(['AUTOMOBILE', 'MOTORCYCLE', 'TRUCK']);
  });

  it('reads cylinders, colors and the {options} lists as listed', () => {
    expect(m.cylinders).toEqual([1, 2, 3, 4, 5, 6, 8, 10, 12]);
    expect(m.colors.map((c) => c.value)).toEqual(['BLACK', 'BLUE', 'GRAY', 'RED', 'SILVER', 'WHITE']);
    expect(m.damage.map((c) => c.value)).toEqual([
      'Mechanical',
      'Hail',
      'Water',
      'Fire',
      'Vandalism',
      'Biohazard',
      'Burn',
      'theft',
    ]);
    expect(m.driveTypes.map((c) => c.value)).toContain('All Wheel Drive');
    expect(m.transmissions.map((c) => c.value)).toEqual(['Automatic', 'Manual']);
    expect(m.fuelTypes).toHaveLength(6);
  });

  it('reads run conditions, keys, seller types and lot statuses as {value, label}', () => {
    expect(m.runConditions).toEqual([
      { value: 'RUNS AND DRIVES', label: 'Run & Drive' },
      { value: 'ENGINE START PROGRAM', label: 'Engine Start Program' },
      { value: 'STATIONARY / NO INFORMATION', label: 'Stationary' },
    ]);
    expect(m.hasKey.map((c) => c.value)).toEqual(['All', 'With', 'No']);
    expect(m.sellerTypes.map((c) => c.value)).toEqual(['insurance', 'non_insurance', 'unknown']);
    expect(m.lotStatuses.map((c) => c.value)).toEqual(['All', 'Timed', 'Buy Now']);
    expect(m.lotSubStatuses.find((c) => c.value === 'Open')?.label).toBe('Upcoming');
  });

  it('reads sale document types and state codes', () => {
    expect(m.saleDocumentTypes.map((c) => c.value)).toEqual([
      'SALVAGE - REPAIRABLE-COLLISION',
      'CLEAR',
      'CERTIFICATE OF DESTRUCTION',
    ]);
    expect(m.locStates).toEqual([
      { value: 'MA', label: 'Massachusetts' },
      { value: 'TX', label: 'Texas' },
    ]);
  });

  it('reads ranges written {min, max} or {from, to}, numbers or numeric strings', () => {
    expect(m.ranges).toEqual({
      year: { min: 1998, max: 2026 },
      odometer: { min: 0, max: 250000 },
      price: { min: 0, max: 180000 },
      engineSize: { min: 0.6, max: 8.4 },
      engineHp: { min: 50, max: 800 },
    });
  });

  it('is well formed', () => wellFormed(m));
});

describe('readFilterMeta: the specification-style body (fallback dialect)', () => {
  const m = readFilterMeta(legacyFiltersData());

  it('reads the flat lists, models by make and the top-level ranges', () => {
    expect(m.makes).toEqual(['HONDA', 'TOYOTA']);
    expect(m.modelsByMake).toEqual({ HONDA: ['CIVIC'], TOYOTA: ['CAMRY', 'COROLLA'] });
    expect(m.types).toEqual(['AUTOMOBILE', 'SUV']);
    expect(m.colors).toEqual([{ value: 'Black', label: 'Black', count: 9 }]);
    expect(m.cylinders).toEqual([4, 6]);
    expect(m.damage.map((c) => c.value)).toEqual(['Hail', 'Front End']);
    expect(m.runConditions.map((c) => c.value)).toEqual(['RUNS AND DRIVES']);
    expect(m.sellerTypes.map((c) => c.value)).toEqual(['insurance']);
    expect(m.saleDocumentTypes.map((c) => c.value)).toEqual(['SALVAGE']);
    expect(m.locStates.map((c) => c.value)).toEqual(['TX']);
    expect(m.lotStatuses.map((c) => c.value)).toEqual(['All', 'Timed', 'Buy Now']);
    expect(m.hasKey.map((c) => c.value)).toEqual(['No', 'All', 'With']);
    expect(m.ranges.year).toEqual({ min: 2004, max: 2025 });
    expect(m.ranges.odometer).toEqual({ min: 12, max: 240000 });
    expect(m.ranges.engineSize).toBeNull();
    expect(m.ranges.engineHp).toEqual({ min: 98, max: 450 });
  });

  it('is well formed', () => wellFormed(m));
});

describe('readFilterMeta: lenient, never guessing', () => {
  it('gives empty lists and null ranges for a missing or unreadable body', () => {
    for (const v of [null, undefined, [], {}, 'filters', 42, true, { data: {} }])
      expect(readFilterMeta(v)).toEqual(emptyFilterMeta());
  });

  it('reads makes given as objects and models keyed by the make id or slug; an unknown bare id is left out', () => {
    const m = readFilterMeta({
      make_model: {
        makes: [
          { id: 7, name: 'AUDI', slug: 'audi' },
          { id: 9, name: 'BMW', slug: 'bmw' },
        ],
        models_by_make: { 7: [{ id: 70, name: 'S5' }], bmw: ['X5'], 99: ['GHOST'] },
      },
    });
    expect(m.makes).toEqual(['AUDI', 'BMW']);
    expect(m.modelsByMake).toEqual({ AUDI: ['S5'], BMW: ['X5'] });
  });

  it('takes a type name from {value, label} with a numeric value as its label, never the number', () => {
    expect(readFilterMeta({ types: [{ value: 1, label: 'AUTOMOBILE' }] }).types).toEqual(['AUTOMOBILE']);
    expect(readFilterMeta({ types: [{ id: 1 }] }).types).toEqual([]);
  });

  it('keeps a make called "__proto__" as an own key', () => {
    const data = JSON.parse(
      '{"make_model":{"makes":["__proto__"],"models_by_make":{"__proto__":["X"]}}}',
    ) as unknown;
    const m = readFilterMeta(data);
    expect(Object.keys(m.modelsByMake)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(m.modelsByMake)).toBe(Object.prototype);
  });

  it('drops blanks, repeats, non-whole cylinders and unreadable items', () => {
    const m = readFilterMeta({
      cylinders: { options: [4, '6', 4, 2.5, -1, 'V8', null, { value: 8 }] },
      damage: { options: ['Hail', ' ', 'Hail', null, { label: 'no value' }, ['Fire']] },
      ranges: { year: { min: 'old', max: 'new' }, price: [100, 200] },
    });
    expect(m.cylinders).toEqual([4, 6, 8]);
    expect(m.damage.map((c) => c.value)).toEqual(['Hail']);
    expect(m.ranges.year).toBeNull();
    expect(m.ranges.price).toEqual({ min: 100, max: 200 });
  });

  it('never throws on arbitrary JSON, and what it returns is well formed', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        wellFormed(readFilterMeta(v));
      }),
      { numRuns: 300 },
    );
  });

  it('never throws when the real keys hold arbitrary JSON', () => {
    const keys = [...Object.keys(realFiltersData()), 'makes', 'models', 'types', 'damages', 'year', 'ranges'];
    const inner = fc.dictionary(
      fc.constantFrom(
        'options',
        'makes',
        'models_by_make',
        'status',
        'states',
        'year',
        'min',
        'max',
        'from',
        'to',
        'value',
        'name',
        'label',
      ),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...keys), fc.oneof(fc.jsonValue(), inner)), (v) => {
        wellFormed(readFilterMeta(v));
      }),
      { numRuns: 300 },
    );
  });
});

describe('specChoices: only what the specification allows', () => {
  const real = readFilterMeta(realFiltersData());

  it('damage: listed values the spec allows, in its spelling; the rest not sendable', () => {
    const c = specChoices('damage', real.damage);
    expect(c.filter((x) => x.sendable).map((x) => x.value)).toEqual([
      'Mechanical',
      'Hail',
      'Water',
      'Fire',
      'Theft',
    ]);
    expect(c.filter((x) => !x.sendable).map((x) => x.value)).toEqual(['Vandalism', 'Biohazard', 'Burn']);
    for (const x of c.filter((y) => y.sendable)) expect(SEARCH_ENUMS.damage).toContain(x.value);
  });

  it('drive_type: the long words map to AWD, FWD, RWD; "4x4 w/Front Whl Drv" is not guessed', () => {
    const c = specChoices('drive_type', real.driveTypes);
    expect(c.filter((x) => x.sendable).map((x) => x.value)).toEqual(['AWD', 'FWD', 'RWD']);
    expect(c.filter((x) => !x.sendable).map((x) => x.value)).toEqual(['4x4 w/Front Whl Drv']);
  });

  it('run_cond keeps the service label; "STATIONARY / NO INFORMATION" offers both spec values it folds', () => {
    const c = specChoices('run_cond', real.runConditions);
    expect(c).toEqual([
      { value: 'RUNS AND DRIVES', label: 'Run & Drive', sendable: true },
      { value: 'ENGINE START PROGRAM', label: 'Engine Start Program', sendable: true },
      { value: 'STATIONARY', label: 'Stationary', sendable: true },
      { value: 'NO INFORMATION', label: 'No information', sendable: true },
    ]);
    expect(c.map((x) => x.value).sort()).toEqual([...SEARCH_ENUMS.run_cond].sort());
  });

  it('a folded value is split only when every part is one spec value', () => {
    expect(toSpecValues('run_cond', 'STATIONARY / NO INFORMATION')).toEqual(['STATIONARY', 'NO INFORMATION']);
    expect(toSpecValues('run_cond', 'stationary/no information')).toEqual(['STATIONARY', 'NO INFORMATION']);
    expect(toSpecValues('run_cond', 'STATIONARY / UNKNOWN')).toEqual([]);
    expect(toSpecValues('damage', 'Hail')).toEqual(['Hail']);
    expect(toSpecValues('drive_type', '4x4 w/Front Whl Drv')).toEqual([]);
    // The folded count belongs to both together, so neither part claims it.
    const c = specChoices('run_cond', [
      { value: 'STATIONARY / NO INFORMATION', label: 'Stationary', count: 9 },
    ]);
    expect(c.map((x) => x.count)).toEqual([undefined, undefined]);
  });

  it('seller_type: "unknown" is listed by the service but not sendable', () => {
    const c = specChoices('seller_type', real.sellerTypes);
    expect(c.map((x) => [x.value, x.sendable])).toEqual([
      ['insurance', true],
      ['non_insurance', true],
      ['unknown', false],
    ]);
  });

  it('the specification list when nothing is listed, or nothing listed is allowed', () => {
    for (const p of Object.keys(SEARCH_ENUMS) as (keyof typeof SEARCH_ENUMS)[]) {
      expect(specChoices(p, []).map((x) => x.value)).toEqual([...SEARCH_ENUMS[p]]);
    }
    const c = specChoices('fuel_type', [{ value: 'Flexible Fuel', label: 'Flexible Fuel' }]);
    expect(c.map((x) => x.value)).toEqual([...SEARCH_ENUMS.fuel_type, 'Flexible Fuel']);
    expect(c.at(-1)?.sendable).toBe(false);
  });

  it('merges repeats; the value decides, the label only for a bare id', () => {
    const c = specChoices('damage', [
      { value: 'hail', label: 'hail' },
      { value: 'HAIL', label: 'Hail storm' },
      { value: 'Front End', label: 'Fire' },
      { value: '7', label: 'Water' },
      { value: '8', label: 'Front end' },
    ]);
    expect(c).toEqual([
      { value: 'Hail', label: 'Hail', sendable: true },
      { value: 'Water', label: 'Water', sendable: true },
      { value: 'Front End', label: 'Fire', sendable: false },
      { value: '8', label: 'Front end', sendable: false },
    ]);
  });
});

describe('vehicleParams', () => {
  it('lists the allowed values exactly as the spec table "GET /vehicles: query parameters" does', () => {
    expect(SEARCH_ENUMS).toEqual({
      lot_status: ['All', 'Timed', 'Buy Now'],
      lot_sub_status: ['Live', 'Open', 'Ended'],
      fuel_type: ['Diesel', 'Hybrid', 'Electric', 'Flexible', 'Gasoline', 'All others'],
      transmission: ['Manual', 'Unknown', 'Automatic'],
      drive_type: ['AWD', 'FWD', 'RWD'],
      run_cond: ['STATIONARY', 'NO INFORMATION', 'RUNS AND DRIVES', 'ENGINE START PROGRAM'],
      damage: [
        'Fire',
        'Hail',
        'Theft',
        'Water',
        'Chemical',
        'Rollover',
        'Mechanical',
        'Vandalized',
        'Repossession',
      ],
      has_key: ['No', 'All', 'With'],
      units: ['km', 'mi'],
      seller_type: ['dealer', 'finance', 'insurance', 'non_insurance'],
    });
  });

  it('toSpecValue ignores case and separators and maps to the spec spelling', () => {
    expect(toSpecValue('damage', 'mechanical')).toBe('Mechanical');
    expect(toSpecValue('lot_status', 'buy_now')).toBe('Buy Now');
    expect(toSpecValue('seller_type', 'Non-Insurance')).toBe('non_insurance');
    expect(toSpecValue('fuel_type', 'all others')).toBe('All others');
    expect(toSpecValue('drive_type', 'all-wheel drive')).toBe('AWD');
    expect(toSpecValue('drive_type', 'Four Wheel Drive')).toBeNull();
    expect(toSpecValue('damage', 'Vandalism')).toBeNull();
    expect(toSpecValue('damage', '')).toBeNull();
    expect(toSpecValue('run_cond', 'STATIONARY / NO INFORMATION')).toBeNull();
  });
});
