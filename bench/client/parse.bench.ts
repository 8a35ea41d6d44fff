import { bench, describe } from 'vitest';
import { parseVehicleList } from '../../src/core/api';
import { page20 } from '../../tests/core/api/fixtures/records';

// Records per second = 20 x the reported hz (one iteration parses a 20-record page, half of them drifted).
const body = JSON.parse(JSON.stringify(page20())) as unknown;
const text = JSON.stringify(body);

describe('client parser, 20-record page', () => {
  bench('parseVehicleList (already decoded)', () => {
    const r = parseVehicleList(body);
    if (!r.ok) throw new Error(r.reason);
  });
  bench('JSON.parse + parseVehicleList', () => {
    const r = parseVehicleList(JSON.parse(text));
    if (!r.ok) throw new Error(r.reason);
  });
});
