import { COLORS, makeVin, type ModelSpec } from './catalog';
import type { Vehicle } from './market';
import type { Rng } from './rng';

/** The lower-case copies of a vehicle's filterable words, made once so a search does not allocate per lot. */
export function lowerCased(
  spec: ModelSpec,
  color: string,
  fuel: string,
  transmission: string,
  drive: string,
): Vehicle['lc'] {
  return {
    make: spec.make.toLowerCase(),
    model: spec.model.toLowerCase(),
    type: spec.type.toLowerCase(),
    color: color.toLowerCase(),
    fuel: fuel.toLowerCase(),
    transmission: transmission.toLowerCase(),
    drive: drive.toLowerCase(),
  };
}

/**
 * The pre-damage market value of a vehicle, USD: the model's new price (ModelSpec.msrp) lowered 14% a year of age
 * and by its odometer (miles; down to 30% of the aged price at 245,000 mi and beyond). What its lots sell for
 * follows from it (pricing.ts), so newer and lower-mileage cars sell higher.
 */
export function vehicleValue(msrp: number, age: number, odometer: number): number {
  return msrp * 0.86 ** age * Math.max(0.3, 1 - odometer / 350_000);
}

/**
 * A new vehicle of model `spec` and model `year`, its engine, odometer (miles, about 12,500 a year of age, 3,000 on
 * a motorcycle), value (vehicleValue), VIN (one not in `taken`, which gets it), colour, transmission, drive and trim
 * drawn from `rng` in that order. `baseYear` is the market's current year. Throws nothing.
 */
export function drawVehicle(
  rng: Rng,
  spec: ModelSpec,
  year: number,
  baseYear: number,
  taken: Set<string>,
): Vehicle {
  const [engineL, cylinders, hp, fuel] = rng.pick(spec.engines);
  const age = Math.max(0, baseYear - year);
  const perYear = spec.type === 'MOTORCYCLE' ? 3000 : 12_500;
  const odometer = Math.round(age * perYear * (0.5 + rng.next()) + rng.int(5, 9000));
  const value = vehicleValue(spec.msrp, age, odometer);
  let vin = makeVin(rng, spec.make, year);
  while (taken.has(vin)) vin = makeVin(rng, spec.make, year);
  taken.add(vin);
  const color = rng.weighted(COLORS);
  const transmission =
    fuel === 'Electric'
      ? 'Automatic'
      : rng.weighted([
          ['Automatic', 90],
          ['Manual', 7],
          ['Unknown', 3],
        ] as const);
  const drive = rng.pick(spec.drives);
  const trim = rng.pick(spec.trims);
  return {
    vin,
    spec,
    year,
    trim,
    color,
    fuel,
    transmission,
    drive,
    cylinders,
    engineL,
    hp,
    odometer,
    value,
    lc: lowerCased(spec, color, fuel, transmission, drive),
  };
}
