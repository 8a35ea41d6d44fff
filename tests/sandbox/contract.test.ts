import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { bothDialects, type Harness, QUOTA_HEADERS, type Rec } from './harness';

// Every endpoint's responses, errors included, validated against the vendor OpenAPI 1.1.0, in both wire shapes. A
// copy of the vendor's document is in fixtures/openapi-vehicle-auction-v1.1.0.json, so the test needs nothing
// outside the repo.
const SPEC_PATH = new URL('./fixtures/openapi-vehicle-auction-v1.1.0.json', import.meta.url);
type Doc = {
  paths: Record<string, { get: { responses: Record<string, unknown> } }>;
  components: Record<string, Record<string, unknown>>;
};
const doc = JSON.parse(readFileSync(SPEC_PATH, 'utf8')) as Doc;
type Schema = Record<string, unknown>;

/**
 * The OpenAPI as the real service's answers bear it out. Only where the OpenAPI genuinely disagrees with what the
 * real service returns (docs/service-contract.md "Records", "History") is it changed, and nowhere else:
 * - Vehicle.odometer: the OpenAPI says number; real records carry an object {mi, km} ("an object, never a number").
 * - VehicleLocation.state: the OpenAPI says string; it is null in 68 of 68 real records.
 * - VehicleHistoryResponse.data: the OpenAPI says an array of Vehicles; the real history is an object
 *   {vehicle: {slug_vin, vin, platform, lot_number}, history: [{platform, date, price, status}]}.
 * Everything else (the Vehicle's other fields, CursorMeta, ApiError, the other envelopes) is checked as published.
 */
function realDoc(): Doc {
  const d = JSON.parse(JSON.stringify(doc)) as Doc;
  const schemas = d.components['schemas'] as Record<string, Schema & { properties: Record<string, Schema> }>;
  schemas['Vehicle']!.properties['odometer'] = {
    type: 'object',
    properties: { mi: { type: 'number' }, km: { type: 'number' } },
    required: ['mi', 'km'],
  };
  schemas['VehicleLocation']!.properties['state'] = { type: ['string', 'null'] };
  schemas['VehicleHistoryResponse']!.properties['data'] = {
    type: 'object',
    required: ['vehicle', 'history'],
    properties: {
      vehicle: {
        type: 'object',
        required: ['slug_vin', 'vin', 'platform', 'lot_number'],
        properties: {
          slug_vin: { type: 'string' },
          vin: { type: 'string' },
          platform: { type: 'string' },
          lot_number: { type: 'string' },
        },
      },
      history: {
        type: 'array',
        items: {
          type: 'object',
          required: ['platform', 'date', 'price', 'status'],
          properties: {
            platform: { type: 'string' },
            date: { type: 'string', format: 'date' },
            price: { type: 'number' },
            status: { enum: ['Sold', 'Sold on Approval'] },
          },
        },
      },
    },
  };
  return d;
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ $id: 'openapi', components: doc.components });
ajv.addSchema({ $id: 'openapi-real', components: realDoc().components });

/** The JSON schema id of (template, status) in a document, following components.responses refs; ApiError when none is given. */
function schemaFor(template: string, status: number, base: 'openapi' | 'openapi-real'): string {
  let r = doc.paths[template]?.get.responses[String(status)] as Record<string, unknown> | undefined;
  if (!r) throw new Error(`OpenAPI has no ${status} for ${template}`);
  if (typeof r['$ref'] === 'string')
    r = doc.components['responses']?.[(r['$ref'] as string).split('/').pop() as string] as Record<
      string,
      unknown
    >;
  const content = (r?.['content'] as Record<string, { schema: { $ref?: string } }> | undefined)?.[
    'application/json'
  ];
  const ref = content?.schema.$ref ?? '#/components/schemas/ApiError';
  return `${base}${ref}`;
}

let real: Harness;
let spec: Harness;
bothDialects((r, s) => ([real, spec] = [r, s]));
const enc = encodeURIComponent;

/** What the cases need from one harness: a Copart lot with photos, one photo URL, and an IAAI item id. */
interface Fixture {
  lot: Rec;
  photo: string;
  itemId: string;
}
async function fixture(h: Harness): Promise<Fixture> {
  const list = (await h.json('/vehicles?per_page=20&platform=copart')).body['data'] as Rec[];
  const iaai = ((await h.json('/vehicles?platform=iaai&per_page=1')).body['data'] as Rec[])[0]!;
  if (h.sb.shape === 'spec') {
    const lot = list.find((v) => v['media']['photos'].length > 0)!;
    return { lot, photo: lot['media']['photos'][0], itemId: iaai['item_id'] };
  }
  // Real shape: photos in media.items[].large, the IAAI VehicleDetail id in details.attributes.Id "<id>~US".
  const lot = list.find((v) => v['media']['items'].length > 0)!;
  return {
    lot,
    photo: lot['media']['items'][0]['large'],
    itemId: String(iaai['details']['attributes']['Id']).replace(/~US$/, ''),
  };
}

for (const shape of ['real', 'spec'] as const)
  describe(`contract (${shape} shape): every endpoint against the vendor OpenAPI`, () => {
    let h: Harness;
    let f: Fixture;
    const base = shape === 'real' ? 'openapi-real' : 'openapi';
    beforeAll(async () => {
      h = shape === 'real' ? real : spec;
      f = await fixture(h);
    });
    // The case table is built before beforeAll has fetched the fixture: `lot` reads the fixture's lot when a case runs.
    const lot = new Proxy({} as Rec, { get: (_t, k: string) => f.lot[k] });
    const cases: [string, () => string, number, string?][] = [
      ['/vehicles', () => '/vehicles', 200],
      [
        '/vehicles',
        () =>
          '/vehicles?make=TOYOTA&color=Black&color=White&fuel_type=Gasoline&per_page=5&lot_sub_status=Open',
        200,
      ],
      ['/vehicles', () => '/vehicles?zip=33166&radius=300&units=km', 200],
      ['/vehicles', () => '/vehicles?make=NOSUCHMAKE', 200],
      ['/vehicles', () => '/vehicles?lot_sub_status=Ended', 200],
      ['/vehicles', () => '/vehicles?per_page=21', 422],
      ['/vehicles', () => '/vehicles?per_page=0', 422],
      ['/vehicles', () => '/vehicles?cursor=%%%', 422],
      ['/vehicles', () => '/vehicles', 401, 'nokey'],
      ['/vehicles', () => '/vehicles', 401, 'badkey'],
      ['/vehicles/{slugVin}', () => `/vehicles/${String(lot['lot_number'])}`, 200],
      ['/vehicles/{slugVin}', () => `/vehicles/${String(lot['vin'])}`, 200],
      ['/vehicles/{slugVin}', () => `/vehicles/${String(lot['slug_vin'])}`, 200],
      ['/vehicles/{slugVin}', () => '/vehicles/ABC123', 422],
      ['/vehicles/{slugVin}', () => '/vehicles/99999999', 404],
      ['/vehicles/{slugVin}/history', () => `/vehicles/${String(lot['vin'])}/history?per_page=5`, 200],
      ...(shape === 'real'
        ? ([
            ['/vehicles/{slugVin}/history', () => `/vehicles/${String(lot['vin'])}/history`, 200],
            ['/vehicles/{slugVin}/history', () => '/vehicles/WBAVL1C58FVY28848/history', 200],
            ['/vehicles/{slugVin}/history', () => `/vehicles/${String(lot['vin'])}/history?per_page=50`, 200],
            ['/vehicles/{slugVin}/history', () => `/vehicles/${String(lot['vin'])}/history?per_page=51`, 422],
          ] as [string, () => string, number][])
        : ([
            ['/vehicles/{slugVin}/history', () => `/vehicles/${String(lot['vin'])}/history?per_page=50`, 422],
          ] as [string, () => string, number][])),
      ['/vehicles/{slugVin}/history', () => '/vehicles/1HGCM82633A004352/history', 404],
      ['/vehicles/{slugVin}/related', () => `/vehicles/${String(lot['lot_number'])}/related`, 200],
      ['/vehicles/{slugVin}/related', () => '/vehicles/short/related', 422],
      ['/vehicles/filters', () => '/vehicles/filters', 200],
      ['/vehicles/{slugVin}/shipping', () => `/vehicles/${String(lot['lot_number'])}/shipping`, 200],
      ['/vehicles/{slugVin}/shipping', () => `/vehicles/${String(lot['vin'])}/shipping?ports=Miami,LA`, 200],
      ['/vehicles/{slugVin}/shipping', () => '/vehicles/99999999/shipping', 404],
      ['/locations', () => '/locations', 200],
      ['/locations', () => '/locations?platform=iaai&state=TX&per_page=5', 200],
      ['/locations', () => '/locations?zip=10001&radius=100&units=mi', 200],
      ['/locations', () => '/locations?q=miami', 200],
      ['/locations', () => '/locations?per_page=100', 422],
      ['/locations', () => '/locations?platform=ebay', 422],
      [
        '/shipping/auction-to-port',
        () => `/shipping/auction-to-port?lot_number=${String(lot['lot_number'])}&ports=NY`,
        200,
      ],
      ['/shipping/auction-to-port', () => `/shipping/auction-to-port?vin=${String(lot['vin'])}`, 200],
      ['/shipping/auction-to-port', () => '/shipping/auction-to-port', 422],
      ['/shipping/auction-to-port', () => '/shipping/auction-to-port?vin=SHORT', 422],
      ['/shipping/auction-to-port', () => '/shipping/auction-to-port?lot_number=1', 404],
      [
        '/vehicles/urltodetails',
        () =>
          `/vehicles/urltodetails?url=${enc(`https://www.copart.com/lot/${String(lot['lot_number'])}/clean-title`)}`,
        200,
      ],
      [
        '/vehicles/urltodetails',
        () => `/vehicles/urltodetails?url=${enc(`https://www.iaai.com/VehicleDetail/${f.itemId}~US`)}`,
        200,
      ],
      ['/vehicles/urltodetails', () => '/vehicles/urltodetails', 422],
      ['/vehicles/urltodetails', () => `/vehicles/urltodetails?url=${enc('https://example.com/x')}`, 422],
      [
        '/vehicles/urltodetails',
        () => `/vehicles/urltodetails?url=${enc('https://www.copart.com/lot/1')}`,
        404,
      ],
      ['/usage', () => '/usage', 200],
      ['/usage', () => '/usage', 401, 'nokey'],
      ['/image-proxy', () => `/image-proxy?url=${enc('not a url')}`, 400],
      ['/image-proxy', () => `/image-proxy?url=${enc('https://example.com/a.jpg')}`, 400],
      [
        '/image-proxy',
        () =>
          `/image-proxy?url=${enc('https://vis.iaai.com/resizer?imageKeys=12345678~SID~I1&width=400&height=300')}`,
        404,
      ],
    ];
    for (const [template, path, status, keyMode] of cases) {
      it(`${status} ${template} ${keyMode ?? ''}`, async () => {
        const key = keyMode === 'nokey' ? null : keyMode === 'badkey' ? 'wrong' : undefined;
        const { status: got, body, res } = await h.json(path(), { key });
        expect(got, JSON.stringify(body).slice(0, 300)).toBe(status);
        const validate = ajv.getSchema(schemaFor(template, status, base))!;
        expect(validate(body), ajv.errorsText(validate.errors)).toBe(true);
        for (const name of QUOTA_HEADERS) expect(res.headers.get(name), name).not.toBeNull();
        if (status >= 400) {
          expect(body['ok']).toBe(false);
          expect(body['status']).toBe(status);
          expect(typeof body['message']).toBe('string');
        } else expect(body['ok']).toBe(true);
        if (status === 422) expect(Object.keys(body['errors'] as object).length).toBeGreaterThan(0);
      });
    }

    it('200 /image-proxy serves a real image for the records photo URLs', async () => {
      const res = await h.get(`/image-proxy?url=${enc(f.photo)}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      const buf = Buffer.from(await res.arrayBuffer());
      expect(buf.subarray(0, 3).toString('hex')).toBe('ffd8ff');
      for (const name of QUOTA_HEADERS) expect(res.headers.get(name), name).not.toBeNull();
    });

    it('every record of a full walk of /vehicles validates', async () => {
      const validate = ajv.getSchema(`${base}#/components/schemas/VehicleListResponse`)!;
      let cursor: string | null = null;
      let pages = 0;
      do {
        const { body } = await h.json(`/vehicles?per_page=20${cursor ? `&cursor=${cursor}` : ''}`);
        expect(validate(body), ajv.errorsText(validate.errors)).toBe(true);
        cursor = (body['meta'] as { next_cursor: string | null }).next_cursor;
        pages++;
      } while (cursor && pages < 40);
      expect(pages).toBe(40);
    });

    it('the detail records of every lot of a page of ended lots validate', async () => {
      const validate = ajv.getSchema(`${base}#/components/schemas/VehicleDetailsResponse`)!;
      const ended = (await h.json('/vehicles?per_page=20&lot_sub_status=Ended')).body['data'] as Rec[];
      expect(ended.length).toBe(20);
      for (const r of ended) {
        const { body } = await h.json(`/vehicles/${String(r['lot_number'])}`);
        expect(validate(body), ajv.errorsText(validate.errors)).toBe(true);
      }
    });
  });

describe('contract: the real shape against the published OpenAPI, unpatched', () => {
  it('disagrees exactly where docs/service-contract.md "Records" says the real service does', async () => {
    const validate = ajv.getSchema('openapi#/components/schemas/VehicleListResponse')!;
    const { body } = await real.json('/vehicles?per_page=5');
    expect(validate(body)).toBe(false);
    const paths = new Set((validate.errors ?? []).map((e) => e.instancePath.replace(/^\/data\/\d+/, '')));
    expect([...paths].sort()).toEqual(['/location/state', '/odometer']);
  });
});

describe('contract: the video-platform paths', () => {
  it('every video-platform path answers a JSON body with the same auth', async () => {
    const h = real;
    const { VIDEO_PATHS } = await import('../../src/sandbox/video');
    expect(VIDEO_PATHS).toHaveLength(20);
    for (const p of VIDEO_PATHS) {
      const ok = await h.json(p + '?id=dQw4w9WgXcQ', { base: `${h.url}/api/v1/youtube` });
      expect(ok.status, p).toBe(200);
      expect(ok.body['ok']).toBe(true);
      const again = await h.json(p + '?id=dQw4w9WgXcQ', { base: `${h.url}/api/v1/youtube` });
      expect(again.body).toEqual(ok.body);
      const denied = await h.json(p, { base: `${h.url}/api/v1/youtube`, key: null });
      expect(denied.status).toBe(401);
      expect(ajv.getSchema('openapi#/components/schemas/ApiError')!(denied.body)).toBe(true);
    }
  });
});
