// Where a network address points, said once for every address Lotwatch sends to: the service URL (which refuses
// private and link-local addresses) and the alert channels (which refuse link-local and cloud metadata addresses and
// Lotwatch's own port, and name a private address in a note). Pure (WHATWG URL parsing and integer range checks, no
// Node), so core's checks and the renderer's notes read the same rule. The tests hold the IPv4 table against
// node:net's BlockList.

/**
 * What an address is, from the network's point of view:
 * - `public`: anything else, and every host name not listed below (judged by what it resolves to when sending);
 * - `loopback`: this computer (127.0.0.0/8, ::1, `localhost` and `*.localhost`);
 * - `private`: a home or office network (10/8, 172.16/12, 192.168/16, 100.64/10 carrier-grade NAT, fc00::/7);
 * - `link-local`: 169.254.0.0/16 and fe80::/10 (with the retired fec0::/10), where cloud metadata services answer;
 * - `metadata`: a cloud metadata service by name (`metadata.google.internal`, `instance-data`, ...) or by one of its
 *   addresses outside link-local (AWS's fd00:ec2::254, Alibaba's 100.100.100.200);
 * - `not-a-host`: 0.0.0.0/8, ::, the retired IPv4-compatible IPv6 form, multicast and reserved ranges.
 */
export type AddressScope = 'public' | 'loopback' | 'private' | 'link-local' | 'metadata' | 'not-a-host';

/** A host as Lotwatch judges it: its canonical spelling and its scope. */
export interface HostInfo {
  /**
   * IPv4 as four decimal numbers, IPv6 as the URL parser writes it (lower case, `::`, no brackets), a name in lower
   * case without trailing dots.
   */
  host: string;
  /** 4 or 6 for an address literal, null for a name. */
  ip: 4 | 6 | null;
  scope: AddressScope;
}

/** An IPv4 range: the first address as an unsigned 32-bit integer, the prefix length and its scope. */
type V4Range = readonly [base: number, bits: number, scope: AddressScope];

/** The IPv4 ranges that are not `public`, the narrower first. */
export const IPV4_RANGES: readonly V4Range[] = [
  [0x00000000, 8, 'not-a-host'], // 0.0.0.0/8 "this network": 0.0.0.0 reaches this computer by accident
  [0x0a000000, 8, 'private'], // 10.0.0.0/8
  [0x646464c8, 32, 'metadata'], // 100.100.100.200 is Alibaba Cloud's metadata service
  [0x64400000, 10, 'private'], // 100.64.0.0/10, carrier-grade NAT
  [0x7f000000, 8, 'loopback'], // 127.0.0.0/8
  [0xa9fe0000, 16, 'link-local'], // 169.254.0.0/16, cloud metadata services live here
  [0xac100000, 12, 'private'], // 172.16.0.0/12
  [0xc0a80000, 16, 'private'], // 192.168.0.0/16
  [0xe0000000, 4, 'not-a-host'], // 224.0.0.0/4 multicast
  [0xf0000000, 4, 'not-a-host'], // 240.0.0.0/4 reserved, and the broadcast address
];

/** Cloud metadata services' names (GCP, AWS, Azure, OpenStack and others), lower case without a trailing dot. */
export const METADATA_NAMES: readonly string[] = [
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.ec2.internal',
  'metadata.azure.internal',
  'metadata.internal',
];

/** An IPv4 range as CIDR text (`169.254.0.0/16`). */
export const cidrOf = ([base, bits]: V4Range): string =>
  `${[24, 16, 8, 0].map((s) => (base >>> s) & 255).join('.')}/${bits}`;

const inV4 = (a: number, [base, bits]: V4Range): boolean =>
  bits === 0 || a >>> (32 - bits) === base >>> (32 - bits);

/** The scope of an IPv4 address (unsigned 32-bit). */
export function ipv4Scope(a: number): AddressScope {
  for (const r of IPV4_RANGES) if (inV4(a, r)) return r[2];
  return 'public';
}

/** `a.b.c.d` as an unsigned 32-bit integer, or null when it is not exactly four decimal parts of 0..255. */
export function dottedQuad(h: string): number | null {
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

/** The scope of an IPv6 address's groups. Embedded IPv4 (mapped, NAT64, 6to4) follows the IPv4 rule. */
function ipv6Scope(g: number[]): AddressScope {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const v4 = (g6 * 65536 + g7) >>> 0;
  const zeros = (xs: number[]) => xs.every((x) => x === 0);
  if (zeros([g0, g1, g2, g3, g4, g5, g6]) && g7 === 1) return 'loopback'; // ::1
  if (zeros([g0, g1, g2, g3, g4, g5, g6, g7])) return 'not-a-host'; // ::
  if (zeros([g0, g1, g2, g3, g4]) && g5 === 0xffff) return ipv4Scope(v4); // ::ffff:a.b.c.d, IPv4-mapped
  if (zeros([g0, g1, g2, g3, g4, g5])) return 'not-a-host'; // ::a.b.c.d, the retired IPv4-compatible form
  if (g0 === 0x64 && g1 === 0xff9b && zeros([g2, g3, g4, g5])) return ipv4Scope(v4); // 64:ff9b::/96, NAT64
  if (g0 === 0x2002) return ipv4Scope((g1 * 65536 + g2) >>> 0); // 2002::/16, 6to4
  if (g0 === 0xfd00 && g1 === 0x0ec2 && zeros([g2, g3, g4, g5, g6]) && g7 === 0x254) return 'metadata'; // AWS
  if ((g0 & 0xfe00) === 0xfc00) return 'private'; // fc00::/7, unique local
  if ((g0 & 0xff80) === 0xfe80) return 'link-local'; // fe80::/10 link-local, fec0::/10 the retired site-local
  if ((g0 & 0xff00) === 0xff00) return 'not-a-host'; // ff00::/8 multicast
  return 'public';
}

/**
 * Judges a host as a URL's `hostname` gives it (IPv6 in brackets) or as an address a resolver answers (IPv6 bare).
 * The caller has let the WHATWG URL parser normalise it (see `hostOfText`), so every spelling of an IPv4 address
 * is four decimal numbers here. Names: lower-cased, trailing dots dropped; `localhost` is loopback, the metadata
 * names are `metadata`, any other name is `public` (what it resolves to is judged when sending). Returns null for
 * an empty host. Throws nothing.
 */
export function classifyHost(hostname: string): HostInfo | null {
  let h = hostname.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.includes(':')) {
    const g = v6Groups(h);
    return { host: h, ip: 6, scope: g ? ipv6Scope(g) : 'not-a-host' };
  }
  h = h.replace(/\.+$/, '');
  if (h === '') return null;
  const v4 = dottedQuad(h);
  if (v4 !== null) return { host: h, ip: 4, scope: ipv4Scope(v4) };
  if (h === 'localhost' || h.endsWith('.localhost')) return { host: h, ip: null, scope: 'loopback' };
  return { host: h, ip: null, scope: METADATA_NAMES.includes(h) ? 'metadata' : 'public' };
}

/**
 * A host typed on its own (an SMTP server: `smtp.gmail.com`, `192.168.1.20`, `[::1]`, `0xa9fea9fe`), normalised by
 * the WHATWG URL parser as a web address's host would be (every IPv4 spelling to four decimal numbers, IPv6 in
 * brackets, names lower case); null when it is not a host at all (spaces, `/`, `@`, a port). Throws nothing.
 */
export function hostOfText(text: string): string | null {
  const t = text.trim();
  if (t === '' || /[\s/\\?#@]/.test(t)) return null;
  const bare = t.startsWith('[') && t.endsWith(']') ? t.slice(1, -1) : t;
  if (bare.includes(':')) {
    try {
      return new URL(`http://[${bare}]/`).hostname;
    } catch {
      return null;
    }
  }
  try {
    const u = new URL(`http://${bare}/`);
    return u.port === '' ? u.hostname : null;
  } catch {
    return null;
  }
}

/** The port a URL goes to: its own, or its scheme's (80 for http, 443 for https). */
export function portOfUrl(u: URL): number {
  return u.port !== '' ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
}

/**
 * What is wrong with an alert channel's address, if anything: `metadata` (link-local or a cloud metadata service,
 * by name or address), `not-a-host`, `self` (Lotwatch's own port on this computer), `empty`; null when it may get
 * alerts. Host names other than the listed ones are null here: what they resolve to is judged when sending.
 */
export type ChannelAddressProblem = 'metadata' | 'not-a-host' | 'self' | 'empty';

/** The problem of `hostname` on `port` for an alert channel (see ChannelAddressProblem), or null. Throws nothing. */
export function channelAddressProblem(
  hostname: string,
  port: number,
  ownPorts: readonly number[] = [],
): ChannelAddressProblem | null {
  const h = classifyHost(hostname);
  if (!h) return 'empty';
  if (h.scope === 'link-local' || h.scope === 'metadata') return 'metadata';
  if (h.scope === 'not-a-host') return 'not-a-host';
  if (h.scope === 'loopback' && ownPorts.includes(port)) return 'self';
  return null;
}

/** Why an alert channel may not send to an address, or the note that says where it sends: one of the two. */
export interface ChannelAddressVerdict {
  /** A sentence that says what to do, or null when the address may be used. */
  refusal: string | null;
  /** For a computer on the buyer's own network or this one: where alerts go, in words; else null. */
  note: string | null;
}

/** An address as a sentence writes it: IPv6 in brackets. */
const shownHost = (h: HostInfo): string => (h.ip === 6 ? `[${h.host}]` : h.host);

const WHERE_TO = 'Enter the address of your mail server, ntfy server or webhook.';

/**
 * Whether an alert channel may send to `hostname` (as a URL's hostname, or from `hostOfText`) on `port`
 * (docs/architecture.md "Delivery"). Refused: link-local addresses (169.254.0.0/16, fe80::/10), cloud metadata
 * services by name or address, addresses that are not a host, and Lotwatch's own port on this computer
 * (`ownPorts`: the browser shell's address). Allowed with a note: a private network address ("This sends alerts to
 * a computer on your own network: 192.168.1.20.") and this computer. Host names are allowed here and judged again by
 * what they resolve to when sending. Throws nothing; an empty host gives a refusal.
 */
export function channelAddressVerdict(
  hostname: string,
  port: number,
  ownPorts: readonly number[] = [],
): ChannelAddressVerdict {
  const problem = channelAddressProblem(hostname, port, ownPorts);
  const h = classifyHost(hostname);
  if (problem === 'empty' || !h) return { refusal: 'Enter the server’s address.', note: null };
  const shown = shownHost(h);
  if (problem === 'metadata') {
    return {
      refusal: `${shown} is a link-local or cloud metadata address, not a place for alerts: Lotwatch does not send there. ${WHERE_TO}`,
      note: null,
    };
  }
  if (problem === 'not-a-host')
    return { refusal: `${shown} is not the address of a computer. ${WHERE_TO}`, note: null };
  if (problem === 'self')
    return {
      refusal: `${shown}:${port} is Lotwatch itself, not a place for alerts. ${WHERE_TO}`,
      note: null,
    };
  if (h.scope === 'loopback')
    return { refusal: null, note: `This sends alerts to a program on this computer: ${shown}.` };
  if (h.scope === 'private')
    return { refusal: null, note: `This sends alerts to a computer on your own network: ${shown}.` };
  return { refusal: null, note: null };
}
