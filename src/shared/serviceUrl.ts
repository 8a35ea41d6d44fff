// Where the service URL may point. Pure (WHATWG URL parsing and integer range checks, no Node), so the one rule
// holds in the settings schema that core validates and the renderer's form reports. Node's `net.BlockList` would
// need Node; the tests hold this function against a BlockList with the same ranges.

/** An IPv4 range: the first address as an unsigned 32-bit integer and the prefix length. */
type V4Range = readonly [base: number, bits: number, why: string];

const PRIVATE = 'a private network address';
const LINK_LOCAL = 'a link-local address';
const NOT_A_HOST = 'not the address of a host';

/** IPv4 ranges refused as a service address (loopback, 127.0.0.0/8, is allowed: a service on this computer). */
const V4_REFUSED: readonly V4Range[] = [
  [0x00000000, 8, NOT_A_HOST], // 0.0.0.0/8 "this network": 0.0.0.0 reaches this computer by accident
  [0x0a000000, 8, PRIVATE], // 10.0.0.0/8
  [0x64400000, 10, PRIVATE], // 100.64.0.0/10, carrier-grade NAT
  [0xa9fe0000, 16, LINK_LOCAL], // 169.254.0.0/16, cloud metadata services live here
  [0xac100000, 12, PRIVATE], // 172.16.0.0/12
  [0xc0a80000, 16, PRIVATE], // 192.168.0.0/16
  [0xe0000000, 4, NOT_A_HOST], // 224.0.0.0/4 multicast
  [0xf0000000, 4, NOT_A_HOST], // 240.0.0.0/4 reserved, and the broadcast address
];

/** The IPv4 ranges refused, as CIDR text (for the tests' BlockList). */
export const REFUSED_IPV4_CIDRS: readonly string[] = V4_REFUSED.map(
  ([base, bits]) => `${[24, 16, 8, 0].map((s) => (base >>> s) & 255).join('.')}/${bits}`,
);

const inV4 = (a: number, [base, bits]: V4Range): boolean => bits === 0 || a >>> (32 - bits) === base >>> (32 - bits);

/** Why an IPv4 address (unsigned 32-bit) may not be the service, or null when it may. */
function v4Refusal(a: number): string | null {
  for (const r of V4_REFUSED) if (inV4(a, r)) return r[2];
  return null;
}

/** `a.b.c.d` as an unsigned 32-bit integer, or null when it is not exactly four decimal parts of 0..255. */
function dottedQuad(h: string): number | null {
  const parts = h.split('.');
  if (parts.length !== 4) return null;
  let a = 0;
  for (const p of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(p) || Number(p) > 255) return null;
    a = a * 256 + Number(p);
  }
  return a;
}

/**
 * The eight 16-bit groups of an IPv6 address as the WHATWG URL parser serialises it (lower case, `::` for the
 * longest run of zeros, never an embedded dotted quad), or null for anything else.
 */
function v6Groups(h: string): number[] | null {
  const halves = h.split('::');
  if (halves.length > 2) return null;
  const read = (s: string): number[] | null => {
    if (s === '') return [];
    const out: number[] = [];
    for (const g of s.split(':')) {
      if (!/^[0-9a-f]{1,4}$/.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = read(halves[0] ?? '');
  const tail = halves.length === 2 ? read(halves[1] ?? '') : [];
  if (!head || !tail) return null;
  const fill = 8 - head.length - tail.length;
  if (halves.length === 2 ? fill < 1 : fill !== 0) return null;
  return [...head, ...Array<number>(fill).fill(0), ...tail];
}

/** Why an IPv6 address may not be the service, or null when it may. Embedded IPv4 follows the IPv4 rule. */
function v6Refusal(g: number[]): string | null {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const v4 = (g6 * 65536 + g7) >>> 0;
  const zeros = (xs: number[]) => xs.every((x) => x === 0);
  if (zeros([g0, g1, g2, g3, g4, g5, g6]) && g7 === 1) return null; // ::1, loopback
  if (zeros([g0, g1, g2, g3, g4, g5, g6, g7])) return NOT_A_HOST; // ::
  if (zeros([g0, g1, g2, g3, g4]) && g5 === 0xffff) return v4Refusal(v4); // ::ffff:a.b.c.d, IPv4-mapped
  if (zeros([g0, g1, g2, g3, g4, g5])) return NOT_A_HOST; // ::a.b.c.d, the retired IPv4-compatible form
  if (g0 === 0x64 && g1 === 0xff9b && zeros([g2, g3, g4, g5])) return v4Refusal(v4); // 64:ff9b::/96, NAT64
  if (g0 === 0x2002) return v4Refusal((g1 * 65536 + g2) >>> 0); // 2002::/16, 6to4
  if ((g0 & 0xfe00) === 0xfc00) return PRIVATE; // fc00::/7, unique local
  if ((g0 & 0xff80) === 0xfe80) return LINK_LOCAL; // fe80::/10 link-local, fec0::/10 the retired site-local
  if ((g0 & 0xff00) === 0xff00) return NOT_A_HOST; // ff00::/8 multicast
  return null;
}

/**
 * The host as typed in `u` (between `//` or the last `@` of the authority and the port), lower-cased: enough to
 * see whether the parser rewrote an IPv4 address. Not a URL parser: only compared with what the parser made of it.
 */
function typedHost(u: string): string {
  const rest = u.trim().replace(/^[a-z][a-z\d+.-]*:[\\/]*/i, '');
  const authority = rest.split(/[\\/?#]/, 1)[0] ?? '';
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  return hostPort.replace(/:\d*$/, '').toLowerCase();
}

/**
 * Why `u` may not be the service URL, as a sentence that says what to do, or null when it may. Parsed with the
 * WHATWG URL parser, which normalises every spelling of an address (`http://2130706433/`, `http://0x7f.1/`,
 * `[::ffff:10.0.0.1]`), then judged by number. Refused: private and link-local address literals (IPv4 10/8,
 * 172.16/12, 192.168/16, 100.64/10, 169.254/16; IPv6 fc00::/7, fe80::/10; IPv4 inside IPv6 by the IPv4 rule),
 * addresses that are not a host (0.0.0.0/8, ::, multicast, reserved), and an IPv4 address written any other way
 * than four decimal numbers (the Settings page shows the URL as typed, so it must show where the key goes).
 * Allowed: loopback (127.0.0.0/8, ::1, localhost) for a service on this computer, public addresses, and host
 * names (not resolved here). A URL that does not parse gives null: the schema's own URL check reports it.
 * Throws nothing. Source: docs/architecture.md "Conventions" (security: the key goes only where the buyer meant).
 */
export function serviceUrlRefusal(u: string): string | null {
  let host: string;
  try {
    host = new URL(u).hostname;
  } catch {
    return null;
  }
  const v4 = dottedQuad(host);
  if (v4 !== null) {
    if (typedHost(u) !== host) {
      return `Write the address as four numbers, ${host}: the service URL must show plainly where your API key is sent.`;
    }
    const why = v4Refusal(v4);
    return why ? refusal(host, why) : null;
  }
  if (host.startsWith('[') && host.endsWith(']')) {
    const g = v6Groups(host.slice(1, -1));
    const why = g ? v6Refusal(g) : NOT_A_HOST;
    return why ? refusal(host, why) : null;
  }
  return null;
}

const refusal = (host: string, why: string): string =>
  `${host} is ${why}, not the service: Lotwatch would send your API key there. Enter the service's public address ` +
  '(for example https://apibara.tech/api/v1/vehicle-auction), or 127.0.0.1 / localhost for a service on this computer.';

/**
 * The origin of a service URL (`scheme://host[:port]`, the port omitted when it is the scheme's default), the unit
 * an API key is bound to; null when `u` does not parse or has no origin (not http/https). Throws nothing.
 */
export function serviceOrigin(u: string): string | null {
  try {
    const o = new URL(u).origin;
    return o === 'null' ? null : o;
  } catch {
    return null;
  }
}
