import { describe, expect, it } from 'vitest';
import { parseVehicleDetail, parseVehicleList } from '../../../src/core/api';
import { VehicleSchema } from '../../../src/shared/vehicle';
import { realFinishedRecord } from './fixtures/realRecords';
import { specRecord } from './fixtures/records';

// The service's estimates as fields of the normalised record (docs/service-contract.md "Searching ended lots"):
// the price estimate range, IAAI's ACV and estimated repair cost from `details`, and repair to value.

type Json = Record<string, unknown>;

const read = (rec: unknown) => {
  const r = parseVehicleDetail({ ok: true, data: rec });
  if (!r.ok) throw new Error(r.reason);
  return { v: r.value.data, warnings: r.warnings };
};

/** The real IAAI record with its `details` replaced. */
const withDetails = (details: unknown): Json => ({ ...realFinishedRecord(), details });

/** The real record as Copart sends it: platform 1, no IAAI `details` (no Copart ACV path is known). */
function copartRecord(): Json {
  const rec: Json = { ...realFinishedRecord(), platform: 'copart', platform_id: 1, lot_number: '50314744' };
  delete rec['details'];
  return rec;
}

describe('estimates in the normalised record', () => {
  it('reads the surveyed IAAI record: price estimate, ACV, repair cost and their ratio, silently', () => {
    const { v, warnings } = read(realFinishedRecord());
    expect(warnings).toEqual([]);
    expect(v.pricing).toMatchObject({
      estimated_cost_from_usd: 1450,
      estimated_cost_to_usd: 15000,
      acv_usd: 18_349,
      est_repair_usd: 20_821,
    });
    expect(v.pricing.repair_to_value).toBeCloseTo(1.1347, 4);
    expect(() => VehicleSchema.parse(v)).not.toThrow();
  });

  it('falls back to attributes.EstRepairCost (a number) and attributes.ProviderACV', () => {
    const { v, warnings } = read(
      withDetails({ attributes: { EstRepairCost: 25100, ProviderACV: '$25,250 USD' }, sale_information: {} }),
    );
    expect(warnings).toEqual([]);
    expect(v.pricing).toMatchObject({ acv_usd: 25_250, est_repair_usd: 25_100 });
    expect(v.pricing.repair_to_value).toBeCloseTo(25_100 / 25_250, 10);
  });

  it('sale_information wins over attributes when both are there', () => {
    const { v } = read(
      withDetails({
        attributes: { EstRepairCost: 1 },
        sale_information: { ActualCashValue: '$10,000 USD', EstimatedRepairCost: '$2,500.50 USD' },
      }),
    );
    expect(v.pricing).toMatchObject({ acv_usd: 10_000, est_repair_usd: 2_500.5, repair_to_value: 0.25005 });
  });

  it('a Copart record carries no ACV or repair cost: null, no warning', () => {
    const { v, warnings } = read(copartRecord());
    expect(warnings).toEqual([]);
    expect(v.platform).toBe('copart');
    expect(v.pricing).toMatchObject({
      estimated_cost_from_usd: 1450,
      acv_usd: null,
      est_repair_usd: null,
      repair_to_value: null,
    });
  });

  it('a specification-dialect record has none of them (the specification lists none): null, no warning', () => {
    const { v, warnings } = read(specRecord);
    expect(warnings).toEqual([]);
    expect(v.pricing).toMatchObject({ acv_usd: null, est_repair_usd: null, repair_to_value: null });
  });

  it('reads the same details in a specification-dialect record that carries them (unlisted fields)', () => {
    const { v } = read({
      ...specRecord,
      details: { sale_information: { ActualCashValue: '$8,000 USD', EstimatedRepairCost: '$2,000 USD' } },
    });
    expect(v.pricing).toMatchObject({ acv_usd: 8000, est_repair_usd: 2000, repair_to_value: 0.25 });
  });

  it('an ACV of $0 is no ACV: the ratio is unknown, never infinite', () => {
    const { v, warnings } = read(
      withDetails({ sale_information: { ActualCashValue: '$0 USD', EstimatedRepairCost: '$20,821 USD' } }),
    );
    expect(warnings).toEqual([]);
    expect(v.pricing).toMatchObject({ acv_usd: null, est_repair_usd: 20_821, repair_to_value: null });
  });

  it('a figure IAAI masks (all asterisks) is unknown without a warning', () => {
    const { v, warnings } = read(
      withDetails({ sale_information: { ActualCashValue: '******', EstimatedRepairCost: '$20,821 USD' } }),
    );
    expect(warnings).toEqual([]);
    expect(v.pricing).toMatchObject({ acv_usd: null, repair_to_value: null });
  });

  it.each([
    [
      'text that is no amount',
      'N/A',
      'data.details.sale_information.ActualCashValue: "N/A" is not an amount in USD: read as unknown',
    ],
    [
      'NaN as text',
      'NaN',
      'data.details.sale_information.ActualCashValue: "NaN" is not an amount in USD: read as unknown',
    ],
    [
      '1e308',
      1e308,
      'data.details.sale_information.ActualCashValue: 1e+308 is outside 0 to 10,000,000: read as unknown',
    ],
    [
      'a negative amount',
      -18_349,
      'data.details.sale_information.ActualCashValue: -18349 is outside 0 to 10,000,000: read as unknown',
    ],
    [
      'an amount over $10 million',
      '$18,349,000,000 USD',
      'data.details.sale_information.ActualCashValue: 18349000000 is outside 0 to 10,000,000: read as unknown',
    ],
    ['a list', [18_349], 'data.details.sale_information.ActualCashValue: expected a number, got array'],
  ])('%s is one bad field: null with a warning, the record and its other figures kept', (_, acv, warning) => {
    const { v, warnings } = read(
      withDetails({ sale_information: { ActualCashValue: acv, EstimatedRepairCost: '$20,821 USD' } }),
    );
    expect(warnings).toEqual([warning]);
    expect(v.lot_number).toBe('45139005');
    expect(v.pricing).toMatchObject({
      acv_usd: null,
      est_repair_usd: 20_821,
      repair_to_value: null,
      estimated_cost_from_usd: 1450,
    });
  });

  it('details of the wrong type is a warning, not a bad record', () => {
    const { v, warnings } = read(withDetails('damage details'));
    expect(warnings).toEqual(['data.details: expected an object, got string']);
    expect(v.pricing).toMatchObject({ acv_usd: null, est_repair_usd: null, repair_to_value: null });
  });

  it('a page keeps a record with a bad figure and counts nothing as skipped', () => {
    const bad = withDetails({ sale_information: { ActualCashValue: 'N/A', EstimatedRepairCost: 1e308 } });
    const r = parseVehicleList({ ok: true, data: [realFinishedRecord(), bad], meta: null });
    if (!r.ok) throw new Error(r.reason);
    expect(r.value.skipped).toBe(0);
    expect(r.value.data.map((v) => v.pricing.acv_usd)).toEqual([18_349, null]);
    expect(r.warnings).toEqual([
      'data[1].details.sale_information.ActualCashValue: "N/A" is not an amount in USD: read as unknown',
      'data[1].details.sale_information.EstimatedRepairCost: 1e+308 is outside 0 to 10,000,000: read as unknown',
    ]);
  });
});
