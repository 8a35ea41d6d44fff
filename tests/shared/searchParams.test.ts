import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiInputError } from '../../src/core/api';
import { checkSearchParams } from '../../src/core/api/validate';
import {
  describeSearchParams,
  SEARCH_DEFAULTS,
  SEARCH_PARAM_NAMES,
  SEARCH_PARAMS,
  searchParam,
} from '../../src/shared/vehicleParams';
import { makeCore } from '../helpers/core';

/** The messages the validator gives `name` when it is sent an object (a value no parameter takes). */
function refusal(name: string): string[] {
  try {
    checkSearchParams({ [name]: { not: 'a value' } } as never);
  } catch (e) {
    expect(e).toBeInstanceOf(ApiInputError);
    return (e as ApiInputError).fields?.[name] ?? [];
  }
  throw new Error(`${name}: an object was accepted`);
}
const UNKNOWN = 'Not a parameter of this endpoint.';

interface OpenApiParam {
  name: string;
  in: string;
  schema: {
    type: string;
    enum?: unknown[];
    default?: unknown;
    minimum?: number;
    maximum?: number;
    format?: string;
    items?: { type: string; enum?: unknown[] };
  };
}

/** The GET /vehicles query parameters of the vendor's OpenAPI document (contract 1.1.0), kept in the repository. */
function openApiVehicleParams(): OpenApiParam[] {
  const doc = JSON.parse(
    readFileSync('tests/sandbox/fixtures/openapi-vehicle-auction-v1.1.0.json', 'utf8'),
  ) as {
    paths: Record<string, { get?: { parameters?: OpenApiParam[] } }>;
  };
  const path = Object.keys(doc.paths).find((p) => p.endsWith('/vehicles'));
  return (doc.paths[path ?? '']?.get?.parameters ?? []).filter((p) => p.in === 'query');
}

describe('SEARCH_PARAMS against the vendor OpenAPI document', () => {
  const api = openApiVehicleParams();

  it('names every /vehicles parameter of the OpenAPI except the two the specification does not list', () => {
    const apiNames = api.map((p) => p.name);
    expect(apiNames.filter((n) => !SEARCH_PARAM_NAMES.includes(n as never))).toEqual([
      'upcoming',
      'updated_within_minutes',
    ]);
    expect(SEARCH_PARAM_NAMES.filter((n) => !apiNames.includes(n))).toEqual([]);
    // The same order as the specification's table (which follows the OpenAPI's).
    expect(apiNames.filter((n) => SEARCH_PARAM_NAMES.includes(n as never))).toEqual([...SEARCH_PARAM_NAMES]);
  });

  it('agrees on type, multi, allowed values and defaults of each parameter', () => {
    const typeOf: Record<string, string> = {
      string: 'string',
      integer: 'int',
      number: 'number',
      boolean: 'bool',
    };
    for (const p of api) {
      const def = searchParam(p.name);
      if (!def) continue;
      const multi = p.schema.type === 'array';
      const item = multi ? (p.schema.items ?? { type: 'string' }) : p.schema;
      expect(def.multi, p.name).toBe(multi);
      expect(def.values ? [...def.values] : undefined, p.name).toEqual(item.enum);
      const expected =
        p.schema.format === 'date'
          ? 'date'
          : item.enum && item.type === 'string'
            ? 'enum'
            : typeOf[item.type];
      expect(def.type, p.name).toBe(expected);
      expect(def.default, p.name).toEqual(p.schema.default);
    }
    // The one limit: the OpenAPI gives per_page a minimum; the specification's "Limits" add the maximum.
    expect([searchParam('per_page')?.min, searchParam('per_page')?.max]).toEqual([1, 20]);
  });
});

describe('the four places that say the GET /vehicles parameters agree with SEARCH_PARAMS', () => {
  const core = makeCore();
  afterAll(() => core.cleanup());

  it('the validator accepts exactly the names of SEARCH_PARAMS', () => {
    for (const name of SEARCH_PARAM_NAMES) expect(refusal(name), name).not.toContain(UNKNOWN);
    // A name no parameter has (e.g. one an old saved search carried) is refused as such.
    for (const name of ['odometer_max', 'upcoming', 'price']) expect(refusal(name)).toEqual([UNKNOWN]);
  });

  it("the API console's GET /vehicles lists the names of SEARCH_PARAMS, in order", async () => {
    const r = await core.core.invoke('console.endpoints', undefined);
    if (!r.ok) throw new Error(r.error.message);
    const eps = r.value as { name: string; query_params: string[] }[];
    expect(eps.find((e) => e.name === 'GET /vehicles')?.query_params).toEqual([...SEARCH_PARAM_NAMES]);
  });

  it('the saved-search description has a phrase for every parameter', () => {
    const sample: Record<string, unknown> = {};
    for (const def of SEARCH_PARAMS) {
      const values = searchParam(def.name)?.values;
      sample[def.name] =
        def.type === 'bool'
          ? true
          : values
            ? values[0]
            : def.type === 'int' || def.type === 'number'
              ? 7
              : 'X';
      if (def.multi) sample[def.name] = [sample[def.name]];
    }
    for (const def of SEARCH_PARAMS) {
      const alone = describeSearchParams({ [def.name]: sample[def.name] });
      expect(alone, def.name).toHaveLength(1);
      expect(alone[0], def.name).not.toContain('=');
    }
  });
});

describe('saved-search descriptions', () => {
  it('reads as phrases: make and model together, ranges joined, odometer in miles, prices in USD', () => {
    expect(
      describeSearchParams({
        make: 'TESLA',
        model: 'MODEL 3',
        year_from: 2019,
        year_to: 2022,
        odometer_to: 80000,
        price_min: 5000,
        price_max: 12000,
        damage: ['Hail', 'Water'],
        platform: 'copart',
        run_cond: 'NO INFORMATION',
        today_only: false,
      }).join(' · '),
    ).toBe(
      'TESLA MODEL 3 · 2019–2022 · price $5,000–$12,000 · Copart only · odometer under 80,000 mi · run condition no information · Hail or Water damage',
    );
  });

  it('says one end of a range, a radius with its ZIP and units, and an unlisted name as name=value', () => {
    expect(describeSearchParams({ year_from: 2018, price_max: 9000 })).toEqual([
      '2018 or newer',
      'price under $9,000',
    ]);
    expect(describeSearchParams({ zip: '75001', radius: 50, units: 'km' })).toEqual([
      'within 50 km of ZIP 75001',
    ]);
    expect(describeSearchParams({ zip: '75001', radius: 50 })).toEqual([
      `within 50 ${SEARCH_DEFAULTS.units} of ZIP 75001`,
    ]);
    // An old saved search's odometer_max is not a parameter of the spec: shown as it is sent, not dressed up.
    expect(describeSearchParams({ odometer_max: 80000 })).toEqual(['odometer_max=80000']);
    expect(describeSearchParams({ make: '', color: [], s: null })).toEqual([]);
  });
});
