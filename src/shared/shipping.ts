import { z } from 'zod';
import type { OwnLine } from './fees';

/**
 * Shipping and destinations in the landed cost (docs/architecture.md "The buyer's desk"): which port a lot's landed
 * cost uses (the buyer's port, or the cheapest priced one), the buyer's ocean freight and duty for that port's
 * destination country, and what a number leaves out when a price is missing. Shared so core (watchlist, plan,
 * alerts, .ics, CSV) and the renderer (lot page) say it in the same words: `excluding shipping` is written here
 * only. Pure; amounts in USD.
 */

/**
 * Destination ports of the shipping endpoints: the specification's documented example list (spec "GET
 * /vehicles/{slugVin}/shipping and GET /shipping/auction-to-port"), in its order. The full set the service accepts
 * is not published, so a buyer's own port name is asked for too and named when it comes back without a price.
 */
export const SHIP_PORTS = [
  'Chicago',
  'NY',
  'Miami',
  'Savannah',
  'Norfolk',
  'Houston',
  'LA',
  'Seattle',
  'Moto_ATV',
] as const;

/**
 * `Moto_ATV` in the documented list is a rate for motorcycles and ATVs (to the nearest port), not a port a car ships
 * from: it is asked for and shown, but never taken as the cheapest port.
 */
export const RATE_NOT_PORT = 'Moto_ATV';

/** Whether `port` is the Moto/ATV rate rather than a port (in any case, as the service may spell it). */
export function isRateNotPort(port: string): boolean {
  return port.toLowerCase() === RATE_NOT_PORT.toLowerCase();
}

/** The ports a car leaves from: SHIP_PORTS without the Moto/ATV rate. A destination starts at one of these. */
export const CAR_PORTS: readonly string[] = SHIP_PORTS.filter((p) => !isRateNotPort(p));

/**
 * How a port reads where ports are listed or chosen: portLabel, and the Moto/ATV rate named as a rate, so a buyer
 * does not take its lower figure for a cheaper port (`Moto/ATV rate, motorcycles and ATVs only`).
 */
export function portChoiceLabel(port: string): string {
  return isRateNotPort(port) ? `${portLabel(port)} rate, motorcycles and ATVs only` : portLabel(port);
}

/** How a port reads to a buyer: `NY` -> `New York`; any other name as it is. */
export function portLabel(port: string): string {
  return (
    ({ NY: 'New York', LA: 'Los Angeles', Moto_ATV: 'Moto/ATV' } as Record<string, string>)[port] ?? port
  );
}

/** A port name as the service takes it in `ports` (letters, digits, underscore; src/core/api/validate.ts). */
export const PortNameSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_]{1,40}$/, 'Enter a port name such as Savannah, NY or Houston.');

/**
 * One destination of the buyer's own: the US port the car leaves from, the country it goes to, the ocean freight
 * (USD per vehicle) and the import duty (percent of the bid, as the buyer's own percentage lines are). The buyer's
 * numbers, never the service's.
 */
export const DestinationSchema = z
  .object({
    port: PortNameSchema,
    country: z.string().trim().min(1, 'Name the country.').max(60),
    ocean_freight_usd: z.number().finite().nonnegative('Enter 0 or more (USD).').max(1_000_000),
    duty_percent: z.number().finite().min(0, 'Enter 0 or more (%).').max(1000),
  })
  .strict();
export type Destination = z.infer<typeof DestinationSchema>;

/** The destinations table: one row per port (port -> country), at most 20. */
export const DestinationsSchema = z
  .array(DestinationSchema)
  .max(20, 'At most 20 destinations.')
  .refine(
    (ds) => new Set(ds.map((d) => d.port.toLowerCase())).size === ds.length,
    'Each port leads to one destination: remove the second row for the same port.',
  );

/** `port`: the buyer's port always; `cheapest`: the lot's cheapest priced port (see resolveCosts). */
export const PORT_CHOICES = ['port', 'cheapest'] as const;
export type PortChoice = (typeof PORT_CHOICES)[number];

/** The parts of a landed cost that may be left out for want of a number. */
export const COST_PARTS = ['shipping', 'destination'] as const;
export type CostPart = (typeof COST_PARTS)[number];

/**
 * What a landed cost leaves out and why: shipping `not_fetched` (no "Get prices" yet; port null when the buyer wants
 * the cheapest port and none is priced), `no_price` (asked, and the service gave no price for that port: an unknown
 * port or one it does not price), `not_usd` (a price in another currency); destination `no_destination` (the port
 * has no row in the buyer's destinations).
 */
export const CostGapSchema = z.object({
  part: z.enum(COST_PARTS),
  port: z.string().nullable(),
  reason: z.enum(['not_fetched', 'no_price', 'not_usd', 'no_destination']),
});
export type CostGap = z.infer<typeof CostGapSchema>;

const PART_WORDS: Record<CostPart, string> = {
  shipping: 'shipping',
  destination: 'ocean freight and duty',
};

/** The parts left out, each once, in COST_PARTS order. */
function partsOf(x: readonly (CostGap | CostPart)[]): CostPart[] {
  const set = new Set(x.map((g) => (typeof g === 'string' ? g : g.part)));
  return COST_PARTS.filter((p) => set.has(p));
}

/**
 * What a number leaves out in words: `shipping`, `ocean freight and duty` or `shipping, ocean freight and duty`;
 * '' when nothing. The CSV's `*_excludes` columns carry this.
 */
export function excludedText(x: readonly (CostGap | CostPart)[]): string {
  return partsOf(x)
    .map((p) => PART_WORDS[p])
    .join(', ');
}

/**
 * The qualifier a landed cost or max bid carries where it stands: `excluding shipping` (or `excluding ocean freight
 * and duty`, `excluding shipping, ocean freight and duty`), or null when nothing is left out. The one wording of
 * every layer (lot page, watchlist, plan, alerts, .ics, CSV). Product reason: a max bid solved without a shipping
 * price is too high by that price ($1,570 to Savannah for one lot), and nothing beside it said so.
 */
export function costQualifier(x: readonly (CostGap | CostPart)[]): string | null {
  const t = excludedText(x);
  return t ? `excluding ${t}` : null;
}

/** `$2,070` and its qualifier: `$2,070 excluding shipping`, or the amount alone when nothing is left out. */
export function qualified(amount: string, x: readonly (CostGap | CostPart)[]): string {
  const q = costQualifier(x);
  return q ? `${amount} ${q}` : amount;
}

/**
 * One gap as a sentence that names the port and what to do: "No shipping price for Savannah yet: Get prices on the
 * lot page." (on the lot page itself, `onLotPage`: "…: Get prices under Shipping to port."), "The service has no
 * price for Savannah.", "No ocean freight or duty for Savannah: add its destination in Settings."
 */
export function gapSentence(g: CostGap, onLotPage = false): string {
  const port = g.port === null ? null : portLabel(g.port);
  const where = onLotPage ? 'under Shipping to port' : 'on the lot page';
  switch (g.reason) {
    case 'not_fetched':
      return port === null
        ? `No shipping price yet: Get prices ${where} to find the cheapest port.`
        : `No shipping price for ${port} yet: Get prices ${where}.`;
    case 'no_price':
      return `No price for ${port ?? 'this port'}: the service does not price it for this lot.`;
    case 'not_usd':
      return `The price for ${port ?? 'this port'} is not in US dollars, so it is left out.`;
    case 'no_destination':
      return `No ocean freight or duty for ${port ?? 'this port'}: add its destination in Settings.`;
  }
}

/** A shipping price kept with a lot (contract KeptShippingSchema): null price means asked and not priced. */
export interface KeptPrice {
  port: string;
  price_usd: number | null;
  currency: string | null;
}

/** What resolveCosts needs of the desk settings (src/shared/desk.ts). */
export interface ShippingSettings {
  port: string;
  port_choice: PortChoice;
  destinations: readonly Destination[];
  own_lines: readonly OwnLine[];
}

/** A port and its shipping price in USD. */
export interface PortPrice {
  port: string;
  usd: number;
}

/** What resolveCosts decides for one lot. */
export interface CostChoice {
  /** The port the landed cost uses; null when the cheapest is wanted and no port is priced. */
  port: string | null;
  /** Shipping to that port, USD; null when left out (see gaps). */
  shipping_usd: number | null;
  /** The buyer's own port and its price (null when not priced), beside the cheapest. */
  chosen: { port: string; usd: number | null };
  /** The cheapest priced port (shipping + ocean freight of its destination), or null with no price kept. */
  cheapest: PortPrice | null;
  /** The destination of `port`, or null. */
  destination: Destination | null;
  /** The lines after the auction: the buyer's own lines, then the destination's ocean freight and duty. */
  lines: OwnLine[];
  /** What the landed cost leaves out, each naming its port. */
  gaps: CostGap[];
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const isUsd = (p: KeptPrice) => p.currency === null || p.currency.toUpperCase() === 'USD';

/** The kept USD price of a port, or the gap that stands in for it. */
function priceOf(kept: readonly KeptPrice[], port: string): { usd: number } | { gap: CostGap } {
  const k = kept.find((p) => same(p.port, port));
  if (!k) return { gap: { part: 'shipping', port, reason: 'not_fetched' } };
  if (k.price_usd === null) return { gap: { part: 'shipping', port, reason: 'no_price' } };
  if (!isUsd(k)) return { gap: { part: 'shipping', port, reason: 'not_usd' } };
  return { usd: k.price_usd };
}

/**
 * Which port a lot's landed cost uses, its shipping price, its destination's ocean freight and duty, and what is
 * left out (docs/architecture.md "The buyer's desk").
 *
 * - The cheapest port: among the kept USD prices (of the destinations' ports when the buyer has destinations, else
 *   of every port; never the Moto_ATV rate), the lowest shipping + ocean freight; ties go to the port first in
 *   alphabetical order.
 * - `port_choice` `port` uses the buyer's port; `cheapest` uses the cheapest port, or leaves shipping out (port null)
 *   while no port is priced.
 * - A destinations table that is empty adds nothing and leaves nothing out (a buyer who does not export); one with
 *   rows adds the chosen port's ocean freight (USD) and duty (percent of the bid), or names the port it lacks.
 *
 * Pure; throws nothing (the settings schema already refused bad rows).
 */
export function resolveCosts(kept: readonly KeptPrice[], s: ShippingSettings): CostChoice {
  const destOf = (port: string) => s.destinations.find((d) => same(d.port, port)) ?? null;
  const candidates = kept.filter(
    (k) =>
      k.price_usd !== null &&
      isUsd(k) &&
      !isRateNotPort(k.port) &&
      (s.destinations.length === 0 || destOf(k.port) !== null),
  );
  let cheapest: PortPrice | null = null;
  let best = Infinity;
  for (const k of [...candidates].sort((a, b) => a.port.localeCompare(b.port))) {
    const total = (k.price_usd ?? 0) + (destOf(k.port)?.ocean_freight_usd ?? 0);
    if (total < best) {
      best = total;
      cheapest = { port: k.port, usd: k.price_usd ?? 0 };
    }
  }
  const own = priceOf(kept, s.port);
  const chosen = { port: s.port, usd: 'usd' in own ? own.usd : null };
  const gaps: CostGap[] = [];
  let port: string | null;
  let shipping: number | null;
  if (s.port_choice === 'cheapest') {
    port = cheapest?.port ?? null;
    shipping = cheapest?.usd ?? null;
    if (!cheapest) gaps.push({ part: 'shipping', port: null, reason: 'not_fetched' });
  } else {
    port = s.port;
    shipping = chosen.usd;
    if ('gap' in own) gaps.push(own.gap);
  }
  const destination = port === null ? null : destOf(port);
  const lines: OwnLine[] = [...s.own_lines];
  if (destination) {
    lines.push({
      id: 'dest_ocean_freight',
      label: `Ocean freight ${portLabel(destination.port)} → ${destination.country}`,
      usd: destination.ocean_freight_usd,
    });
    lines.push({
      id: 'dest_duty',
      label: `Duty in ${destination.country} (${destination.duty_percent} % of the bid)`,
      percent: destination.duty_percent,
    });
  } else if (s.destinations.length > 0 && port !== null) {
    gaps.push({ part: 'destination', port, reason: 'no_destination' });
  }
  return { port, shipping_usd: shipping, chosen, cheapest, destination, lines, gaps };
}

/**
 * The ports one "Get prices" asks for, in one request: the documented list, then the buyer's port and their
 * destinations' ports when not in it, each once (a port name the service does not know comes back without a price
 * and is named, never dropped).
 */
export function portsToAsk(s: Pick<ShippingSettings, 'port' | 'destinations'>): string[] {
  const out: string[] = [...SHIP_PORTS];
  for (const p of [s.port, ...s.destinations.map((d) => d.port)])
    if (!out.some((x) => same(x, p))) out.push(p);
  return out;
}

/**
 * The ports asked for that came back without a usable price (missing from the answer, or price null), in the order
 * asked. An empty `asked` (every port) names none. Pure.
 */
export function unpricedPorts(
  asked: readonly string[],
  prices: readonly { port: string | null; price: number | null }[],
): string[] {
  return asked.filter((a) => !prices.some((p) => p.port !== null && same(p.port, a) && p.price !== null));
}

/**
 * What a saved max bid leaves out: the parts recorded when it was saved (`max_bid_excludes` of the watch's rules);
 * for a max bid solved from a target before Lotwatch recorded them (null), shipping, since it was then saved whether
 * or not a price was kept, and the cautious reading makes the buyer look; nothing for a max bid typed without a
 * target (it is a bid, not a landed cost). Pure.
 */
export function maxBidExcludes(r: {
  max_bid_usd: number | null;
  target_landed_usd: number | null;
  max_bid_excludes?: readonly CostPart[] | null;
}): CostPart[] {
  if (r.max_bid_usd === null || r.target_landed_usd === null) return [];
  return r.max_bid_excludes ? partsOf(r.max_bid_excludes) : ['shipping'];
}
