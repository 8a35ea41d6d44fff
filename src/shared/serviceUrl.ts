// Where the service URL may point. Pure, so the one rule holds in the settings schema that core validates and the
// renderer's form reports; the address ranges are netAddress.ts's, shared with the alert channels.

import { classifyHost, cidrOf, dottedQuad, IPV4_RANGES, type AddressScope } from './netAddress';

/** Why the service may not be at an address of each scope; loopback (a service on this computer) and public may. */
const WHY: Partial<Record<AddressScope, string>> = {
  private: 'a private network address',
  'link-local': 'a link-local address',
  metadata: 'a cloud metadata address',
  'not-a-host': 'not the address of a host',
};

/** The IPv4 ranges refused as a service address, as CIDR text (for the tests' BlockList). */
export const REFUSED_IPV4_CIDRS: readonly string[] = IPV4_RANGES.filter(([, , scope]) => WHY[scope]).map(
  cidrOf,
);

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
  if (dottedQuad(host) !== null && typedHost(u) !== host) {
    return `Write the address as four numbers, ${host}: the service URL must show plainly where your API key is sent.`;
  }
  const h = classifyHost(host);
  const why = h ? WHY[h.scope] : undefined;
  return why && h?.ip ? refusal(host, why) : null;
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
