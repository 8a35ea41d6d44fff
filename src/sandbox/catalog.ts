import type { Rng } from './rng';

/**
 * Static vocabulary of the simulated market: makes and models with plausible prices and specs, colours, damage, run
 * conditions, sale documents. Values and their spelling follow the filter lists of spec "GET /vehicles" so that
 * every filter value the spec names can match something.
 */

export interface ModelSpec {
  make: string;
  model: string;
  /** Vehicle type as the service spells it (AUTOMOBILE, SUV, PICKUP, MOTORCYCLE ...). */
  type: string;
  body: string;
  /** New price in USD of the base trim; used to derive what the lot sells for. */
  msrp: number;
  yearFrom: number;
  trims: readonly string[];
  /** Engine options: litres, cylinders, horsepower, fuel. */
  engines: readonly (readonly [number, number, number, string])[];
  drives: readonly string[];
}

interface MakeSpec {
  make: string;
  /** World manufacturer identifiers (VIN positions 1-3). */
  wmi: readonly string[];
  models: readonly Omit<ModelSpec, 'make'>[];
}

const G = 'Gasoline';
const sedan = (
  model: string,
  msrp: number,
  yearFrom = 2008,
  trims = ['BASE', 'SE', 'LE'],
): Omit<ModelSpec, 'make'> => ({
  model,
  type: 'AUTOMOBILE',
  body: 'SEDAN 4D',
  msrp,
  yearFrom,
  trims,
  engines: [
    [2.0, 4, 158, G],
    [2.5, 4, 188, G],
  ],
  drives: ['FWD'],
});
const suv = (
  model: string,
  msrp: number,
  yearFrom = 2008,
  trims = ['LX', 'EX', 'EX-L'],
): Omit<ModelSpec, 'make'> => ({
  model,
  type: 'SUV',
  body: 'SPORT UTILITY 4D',
  msrp,
  yearFrom,
  trims,
  engines: [
    [2.4, 4, 185, G],
    [3.5, 6, 280, G],
    [2.0, 4, 212, 'Hybrid'],
  ],
  drives: ['AWD', 'FWD'],
});
const truck = (
  model: string,
  msrp: number,
  yearFrom = 2008,
  trims = ['XL', 'XLT', 'LARIAT'],
): Omit<ModelSpec, 'make'> => ({
  model,
  type: 'PICKUP',
  body: 'CREW PICKUP',
  msrp,
  yearFrom,
  trims,
  engines: [
    [5.0, 8, 400, G],
    [3.5, 6, 375, G],
    [6.7, 8, 475, 'Diesel'],
  ],
  drives: ['RWD', 'AWD'],
});
const ev = (
  model: string,
  msrp: number,
  yearFrom = 2016,
  trims = ['STANDARD', 'LONG RANGE'],
): Omit<ModelSpec, 'make'> => ({
  model,
  type: 'AUTOMOBILE',
  body: 'SEDAN 4D',
  msrp,
  yearFrom,
  trims,
  engines: [[0, 0, 283, 'Electric']],
  drives: ['RWD', 'AWD'],
});
const moto = (
  model: string,
  msrp: number,
  yearFrom = 2008,
  trims = ['BASE', 'ABS'],
): Omit<ModelSpec, 'make'> => ({
  model,
  type: 'MOTORCYCLE',
  body: 'MOTORCYCLE',
  msrp,
  yearFrom,
  trims,
  engines: [[1.0, 4, 150, G]],
  drives: ['RWD'],
});

const MAKES: readonly MakeSpec[] = [
  {
    make: 'TOYOTA',
    wmi: ['4T1', 'JTD', '5TD', '2T1'],
    models: [
      sedan('CAMRY', 27000),
      sedan('COROLLA', 22000),
      suv('RAV4', 30000, 2008, ['LE', 'XLE', 'LIMITED']),
      suv('HIGHLANDER', 38000, 2008, ['LE', 'XLE', 'LIMITED']),
      truck('TACOMA', 33000, 2008, ['SR', 'SR5', 'TRD OFF ROAD']),
      sedan('PRIUS', 26000, 2010),
    ],
  },
  {
    make: 'HONDA',
    wmi: ['1HG', '2HK', '5J6', '19X'],
    models: [
      sedan('ACCORD', 28000, 2008, ['LX', 'SPORT', 'EX-L']),
      sedan('CIVIC', 24000, 2008, ['LX', 'SPORT', 'EX']),
      suv('CR-V', 30000),
      suv('PILOT', 40000),
      suv('HR-V', 24000, 2016),
    ],
  },
  {
    make: 'FORD',
    wmi: ['1FA', '1FT', '1FM', '3FA'],
    models: [
      truck('F-150', 42000),
      truck('F-250', 48000),
      suv('EXPLORER', 38000, 2008, ['BASE', 'XLT', 'LIMITED']),
      suv('ESCAPE', 28000, 2008, ['S', 'SE', 'TITANIUM']),
      sedan('FUSION', 25000, 2008, ['S', 'SE', 'TITANIUM']),
      sedan('MUSTANG', 32000, 2008, ['ECOBOOST', 'GT']),
    ],
  },
  {
    make: 'CHEVROLET',
    wmi: ['1G1', '1GC', '3GN', '2GN'],
    models: [
      truck('SILVERADO', 42000, 2008, ['WT', 'LT', 'LTZ']),
      sedan('MALIBU', 25000, 2008, ['LS', 'LT', 'PREMIER']),
      suv('EQUINOX', 28000, 2008, ['LS', 'LT', 'PREMIER']),
      suv('TAHOE', 55000, 2008, ['LS', 'LT', 'Z71']),
      ev('BOLT EV', 32000, 2017, ['LT', 'PREMIER']),
    ],
  },
  {
    make: 'NISSAN',
    wmi: ['1N4', '5N1', 'JN8', '3N1'],
    models: [
      sedan('ALTIMA', 26000, 2008, ['S', 'SV', 'SL']),
      sedan('SENTRA', 20000, 2008, ['S', 'SV', 'SR']),
      suv('ROGUE', 28000, 2008, ['S', 'SV', 'SL']),
      suv('PATHFINDER', 36000, 2008, ['S', 'SV', 'PLATINUM']),
    ],
  },
  {
    make: 'HYUNDAI',
    wmi: ['5NP', 'KMH', '5XY'],
    models: [
      sedan('ELANTRA', 21000, 2008, ['SE', 'SEL', 'LIMITED']),
      sedan('SONATA', 26000, 2008, ['SE', 'SEL', 'LIMITED']),
      suv('TUCSON', 28000, 2010, ['SE', 'SEL', 'LIMITED']),
      suv('SANTA FE', 32000, 2008, ['SE', 'SEL', 'LIMITED']),
    ],
  },
  {
    make: 'KIA',
    wmi: ['5XX', 'KNA', '5XY'],
    models: [
      sedan('OPTIMA', 24000, 2011, ['LX', 'EX', 'SX']),
      sedan('FORTE', 20000, 2010, ['FE', 'LXS', 'GT-LINE']),
      suv('SORENTO', 31000, 2011, ['LX', 'EX', 'SX']),
      suv('SPORTAGE', 27000, 2011, ['LX', 'EX', 'SX']),
    ],
  },
  {
    make: 'JEEP',
    wmi: ['1C4', '1J4'],
    models: [
      suv('GRAND CHEROKEE', 42000, 2008, ['LAREDO', 'LIMITED', 'OVERLAND']),
      suv('WRANGLER', 36000, 2008, ['SPORT', 'SAHARA', 'RUBICON']),
      suv('CHEROKEE', 30000, 2014, ['LATITUDE', 'LIMITED', 'TRAILHAWK']),
    ],
  },
  {
    make: 'RAM',
    wmi: ['1C6', '3C6'],
    models: [
      truck('1500', 42000, 2011, ['TRADESMAN', 'BIG HORN', 'LARAMIE']),
      truck('2500', 50000, 2011, ['TRADESMAN', 'BIG HORN', 'LARAMIE']),
    ],
  },
  {
    make: 'DODGE',
    wmi: ['2C3', '1C3', '2C4'],
    models: [
      sedan('CHARGER', 34000, 2008, ['SXT', 'GT', 'R/T']),
      sedan('CHALLENGER', 35000, 2008, ['SXT', 'GT', 'R/T']),
      suv('DURANGO', 40000, 2011, ['SXT', 'GT', 'CITADEL']),
    ],
  },
  {
    make: 'GMC',
    wmi: ['1GT', '3GT', '1GK'],
    models: [
      truck('SIERRA', 45000, 2008, ['SLE', 'SLT', 'DENALI']),
      suv('ACADIA', 38000, 2008, ['SLE', 'SLT', 'DENALI']),
    ],
  },
  {
    make: 'SUBARU',
    wmi: ['4S3', '4S4', 'JF1'],
    models: [
      suv('OUTBACK', 30000, 2008, ['BASE', 'PREMIUM', 'LIMITED']),
      suv('FORESTER', 28000, 2008, ['BASE', 'PREMIUM', 'TOURING']),
      sedan('IMPREZA', 22000, 2008, ['BASE', 'PREMIUM', 'SPORT']),
    ],
  },
  {
    make: 'VOLKSWAGEN',
    wmi: ['3VW', '1VW', 'WVW'],
    models: [
      sedan('JETTA', 22000, 2008, ['S', 'SE', 'SEL']),
      sedan('PASSAT', 27000, 2008, ['S', 'SE', 'SEL']),
      suv('TIGUAN', 30000, 2009, ['S', 'SE', 'SEL']),
    ],
  },
  {
    make: 'BMW',
    wmi: ['WBA', '5UX', 'WBS'],
    models: [
      sedan('3 SERIES', 43000, 2008, ['328I', '330I', '340I']),
      sedan('5 SERIES', 55000, 2008, ['528I', '530I', '540I']),
      suv('X5', 62000, 2008, ['SDRIVE40I', 'XDRIVE40I', 'M50I']),
    ],
  },
  {
    make: 'MERCEDES-BENZ',
    wmi: ['WDD', '4JG', 'W1K'],
    models: [
      sedan('C-CLASS', 45000, 2008, ['C 300', 'C 300 4MATIC', 'AMG C 43']),
      sedan('E-CLASS', 57000, 2008, ['E 350', 'E 450', 'AMG E 53']),
      suv('GLE', 60000, 2016, ['GLE 350', 'GLE 450', 'AMG GLE 53']),
    ],
  },
  {
    make: 'AUDI',
    wmi: ['WAU', 'WA1'],
    models: [
      sedan('A4', 41000, 2008, ['PREMIUM', 'PREMIUM PLUS', 'PRESTIGE']),
      sedan('S5', 55000, 2010, ['3.0T PREMIUM PLUS', '3.0T PRESTIGE']),
      suv('Q5', 45000, 2009, ['PREMIUM', 'PREMIUM PLUS', 'PRESTIGE']),
    ],
  },
  {
    make: 'LEXUS',
    wmi: ['JTH', '2T2', 'JTJ'],
    models: [
      sedan('ES', 42000, 2008, ['350', '300H', 'F SPORT']),
      suv('RX', 48000, 2008, ['350', '450H', 'F SPORT']),
    ],
  },
  {
    make: 'TESLA',
    wmi: ['5YJ', '7SA'],
    models: [
      ev('MODEL 3', 42000, 2017),
      ev('MODEL S', 85000, 2013, ['75D', '100D', 'PLAID']),
      { ...ev('MODEL Y', 50000, 2020), type: 'SUV', body: 'SPORT UTILITY 4D' },
    ],
  },
  {
    make: 'MAZDA',
    wmi: ['JM1', 'JM3', '3MZ'],
    models: [
      sedan('MAZDA3', 23000, 2008, ['SPORT', 'TOURING', 'GRAND TOURING']),
      suv('CX-5', 29000, 2013, ['SPORT', 'TOURING', 'GRAND TOURING']),
    ],
  },
  {
    make: 'CHRYSLER',
    wmi: ['2C4', '1C3'],
    models: [
      sedan('300', 34000, 2008, ['TOURING', 'LIMITED', 'S']),
      { ...suv('PACIFICA', 38000, 2017, ['TOURING', 'LIMITED']), type: 'MINIVAN', body: 'WAGON' },
    ],
  },
  { make: 'HARLEY-DAVIDSON', wmi: ['1HD'], models: [moto('STREET GLIDE', 26000), moto('SPORTSTER', 11000)] },
  { make: 'YAMAHA', wmi: ['JYA'], models: [moto('YZF-R6', 12000), moto('MT-07', 8000)] },
];

/** Every model of every make, flattened, with a selection weight (popular mass-market makes weigh more). */
export const MODELS: readonly ModelSpec[] = MAKES.flatMap((m) =>
  m.models.map((x) => ({ ...x, make: m.make })),
);
const WMI = new Map(MAKES.map((m) => [m.make, m.wmi]));
const MAKE_WEIGHT: Record<string, number> = {
  TOYOTA: 3,
  HONDA: 3,
  FORD: 3.5,
  CHEVROLET: 3,
  NISSAN: 2.5,
  HYUNDAI: 2,
  KIA: 2,
  JEEP: 1.5,
  RAM: 1.2,
  DODGE: 1.5,
};
export const WEIGHTED_MODELS: readonly (readonly [ModelSpec, number])[] = MODELS.map((m) => [
  m,
  MAKE_WEIGHT[m.make] ?? 0.8,
]);

export const COLORS: readonly (readonly [string, number])[] = [
  ['Black', 20],
  ['White', 22],
  ['Silver', 14],
  ['Gray', 16],
  ['Blue', 9],
  ['Red', 9],
  ['Green', 2],
  ['Brown', 2],
  ['Gold', 1],
  ['Orange', 1],
  ['Yellow', 1],
  ['Beige', 1],
];
/**
 * Primary damage values, spelled as the real service's records spell them (docs/service-contract.md "Records":
 * "Front end", "All over", "Left Front"). The spec's `damage` filter values (Fire, Hail, Theft, Water, Chemical,
 * Rollover, Mechanical, Vandalized, Repossession) are all here, one word each, so they match that filter
 * case-insensitively; the collision words ("Front end", "Left Front" ...) are what only the record shows: no spec
 * filter value names them. Splitting a weight over several words keeps every other value's draw unchanged for a
 * seed.
 */
export const DAMAGES: readonly (readonly [string, number])[] = [
  ['Front end', 22],
  ['Left Front', 4],
  ['Right Front', 4],
  ['Rear end', 10],
  ['Left Rear', 2],
  ['Right Rear', 2],
  ['Left side', 5],
  ['Right side', 5],
  ['Mechanical', 8],
  ['Hail', 5],
  ['Water', 6],
  ['Fire', 2],
  ['Theft', 2],
  ['Vandalized', 2],
  ['Rollover', 2],
  ['Chemical', 0.5],
  ['Repossession', 3],
  ['Minor dent/scratches', 8],
  ['All over', 3],
  ['Normal wear', 5],
];
/** Damage words that make a lot cheap (burnt, flooded, rolled, wrecked all over) or barely dearer than intact. */
export const SEVERE_DAMAGES: readonly string[] = ['Fire', 'Rollover', 'Water', 'All over', 'Chemical'];
export const MINOR_DAMAGES: readonly string[] = [
  'Minor dent/scratches',
  'Normal wear',
  'Repossession',
  'Hail',
  'Theft',
];
/** Secondary damage: the side-and-end words of the real records ("Left Front; Right Front" in the survey). */
export const SECONDARY_DAMAGES: readonly (readonly [string, number])[] = [
  ['Left Front', 14],
  ['Right Front', 14],
  ['Left Rear', 9],
  ['Right Rear', 9],
  ['Left side', 8],
  ['Right side', 8],
  ['Front end', 10],
  ['Rear end', 8],
  ['Minor dent/scratches', 8],
  ['Undercarriage', 4],
  ['Mechanical', 6],
  ['Normal wear', 2],
];
export const RUN_CONDITIONS: readonly (readonly [string, string, number])[] = [
  ['RUNS AND DRIVES', 'Run and Drive', 55],
  ['ENGINE START PROGRAM', 'Engine Start Program', 20],
  ['STATIONARY', 'Stationary', 20],
  ['NO INFORMATION', 'No Information', 5],
];
export const SELLER_TYPES: readonly (readonly [string, number])[] = [
  ['insurance', 70],
  ['dealer', 10],
  ['finance', 10],
  ['non_insurance', 10],
];
export const SELLER_NAMES: Record<string, readonly string[]> = {
  insurance: [
    'State Farm Insurance',
    'GEICO',
    'Progressive Insurance',
    'Allstate',
    'USAA',
    'Farmers Insurance',
    'Liberty Mutual',
  ],
  dealer: ['CarMax', 'AutoNation', 'Hertz Car Sales', 'Enterprise Car Sales'],
  finance: ['Ally Financial', 'Santander Consumer', 'Capital One Auto Finance', 'Chase Auto'],
  non_insurance: ['Private Seller', 'City Tow Impound', 'Fleet Disposal'],
};
/** Sale documents: [name shown, type code]. */
export const SALE_DOCS: readonly (readonly [string, string, number])[] = [
  ['CLEAR', 'clean', 30],
  ['SALVAGE', 'salvage', 45],
  ['CERTIFICATE OF DESTRUCTION', 'certificate_of_destruction', 3],
  ['REBUILT', 'rebuilt', 6],
  ['PARTS ONLY', 'parts_only', 3],
  ['NON-REPAIRABLE', 'non_repairable', 4],
  ['BILL OF SALE', 'bill_of_sale', 9],
];

const VIN_CHARS = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
const VIN_VALUE: Record<string, number> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
};
const VIN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
const YEAR_CODES = 'ABCDEFGHJKLMNPRSTVWXY123456789';

/** The ISO 3779 check digit (position 9) of a 17-character VIN; the char at index 8 is ignored. */
export function vinCheckDigit(vin: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const c = vin.charAt(i);
    const v = c >= '0' && c <= '9' ? Number(c) : (VIN_VALUE[c] ?? 0);
    sum += v * (VIN_WEIGHTS[i] ?? 0);
  }
  const r = sum % 11;
  return r === 10 ? 'X' : String(r);
}

/** A plausible, check-digit-valid VIN for a make and model year. */
export function makeVin(rng: Rng, make: string, year: number): string {
  const wmi = rng.pick(WMI.get(make) ?? ['1XX']);
  let vds = '';
  for (let i = 0; i < 5; i++) vds += rng.pick(VIN_CHARS.slice(0, 23).split(''));
  const yearCode = YEAR_CODES.charAt((year - 1980) % 30);
  const plant = rng.pick(VIN_CHARS.split(''));
  const serial = String(rng.int(0, 999999)).padStart(6, '0');
  const draft = `${wmi}${vds}0${yearCode}${plant}${serial}`;
  return draft.slice(0, 8) + vinCheckDigit(draft) + draft.slice(9);
}
