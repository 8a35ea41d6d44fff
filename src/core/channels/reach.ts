import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import {
  channelAddressProblem,
  channelAddressVerdict,
  classifyHost,
  hostOfText,
} from '../../shared/netAddress';
import { ChannelSendError } from './types';

/**
 * Where alert channels may connect, checked at the moment of connecting (docs/architecture.md "Delivery"). The
 * form refuses link-local and metadata addresses and Lotwatch's own port as typed; a host name is judged here, by
 * every address it resolves to, and the connection goes to the address that was judged (never resolved a second
 * time, so a name cannot answer one address to the check and another to the connection).
 */
export interface ChannelReach {
  /** The undici dispatcher the ntfy and webhook senders send through: it connects only to a checked address. */
  readonly dispatcher: Dispatcher;
  /**
   * The address an SMTP connection to `host` (as typed in the channel) on `port` should use: `host` is the checked
   * IP address, `tls.servername` the name the server's certificate must carry (absent for an address literal).
   * For nodemailer's `createTransport`: `{ ...(await reach.smtp(host, port)), port, ... }`.
   * @throws ChannelSendError: permanent when the host, or an address it resolves to, may not get alerts; not
   *   permanent when the name does not resolve (ENOTFOUND, no network).
   */
  smtp(host: string, port: number): Promise<{ host: string; tls?: { servername: string } }>;
  /** The ports Lotwatch listens on on this computer, now (none in the desktop app). */
  readonly ownPorts: () => readonly number[];
  /** Closes the dispatcher's connections. Idempotent. */
  close(): Promise<void>;
}

/** What a ChannelReach needs: Lotwatch's own ports on this computer, and a resolver (tests inject one). */
export interface ChannelReachOptions {
  /** The ports Lotwatch listens on on this computer (the browser shell's); read at each connection. */
  ownPorts?: (() => readonly number[]) | undefined;
  /** Resolves host names, as node:dns `lookup`; default the system's. */
  lookup?: LookupFunction | undefined;
}

/** The whole answer of a lookup for `name`: every address it gives. */
function resolveAll(lookup: LookupFunction, name: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    lookup(name, { all: true }, (err, addresses) => {
      if (err) reject(err);
      else resolve(Array.isArray(addresses) ? addresses : [{ address: addresses, family: 0 }]);
    });
  });
}

/**
 * The one address to connect to for `hostname` on `port`: an address literal as it is, a name by what it resolves
 * to, each judged by channelAddressVerdict (the rule the form applies). Every address of a name must pass.
 * @throws ChannelSendError (permanent) naming the host and the address it points to; the lookup's own errors.
 */
export async function checkedAddress(
  hostname: string,
  port: number,
  o: { ownPorts: readonly number[]; lookup: LookupFunction },
): Promise<string> {
  const h = classifyHost(hostname);
  const typed = channelAddressVerdict(hostname, port, o.ownPorts).refusal;
  if (!h || typed) throw new ChannelSendError(typed ?? 'Enter the server’s address.', { permanent: true });
  if (h.ip) return h.host;
  const addresses = await resolveAll(o.lookup, h.host);
  for (const a of addresses) {
    const problem = channelAddressProblem(a.address, port, o.ownPorts);
    if (!problem) continue;
    const shown = a.address.includes(':') ? `[${a.address}]` : a.address;
    const what =
      problem === 'self'
        ? `${shown}:${port}, which is Lotwatch itself`
        : problem === 'metadata'
          ? `${shown}, a link-local or cloud metadata address`
          : `${shown}, which is not the address of a computer`;
    throw new ChannelSendError(
      `${h.host} points to ${what}: Lotwatch does not send there. Check the server’s address in Settings → ` +
        'Alert channels, or ask whoever runs that server.',
      { permanent: true },
    );
  }
  const first = addresses[0];
  if (!first)
    throw new ChannelSendError(
      `${h.host} has no address. Check the server’s address in Settings → Alert channels.`,
      { permanent: false },
    );
  return first.address;
}

/**
 * The guard of every connection an alert channel makes (see ChannelReach). One per core: its dispatcher keeps
 * connections to the channels' servers open between sends; `close` at shutdown.
 */
export function channelReach(opts: ChannelReachOptions = {}): ChannelReach {
  const lookup: LookupFunction = opts.lookup ?? (dnsLookup as LookupFunction);
  const ownPorts = opts.ownPorts ?? (() => []);
  const connect = buildConnector({});
  const dispatcher = new Agent({
    connect: (o, callback) => {
      const name = o.hostname.replace(/^\[(.*)\]$/, '$1');
      const port = o.port !== '' ? Number(o.port) : o.protocol === 'https:' ? 443 : 80;
      checkedAddress(name, port, { ownPorts: ownPorts(), lookup }).then(
        (address) => {
          const servername = o.servername ?? (classifyHost(name)?.ip ? undefined : name);
          connect({ ...o, hostname: address, ...(servername ? { servername } : {}) }, callback);
        },
        (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null),
      );
    },
  });
  let closed: Promise<void> | undefined;
  return {
    dispatcher,
    ownPorts,
    async smtp(host, port) {
      const name = classifyHost(hostOfText(host) ?? host)?.host ?? host;
      const address = await checkedAddress(name, port, { ownPorts: ownPorts(), lookup }).catch(
        (cause: unknown) => {
          if (cause instanceof ChannelSendError) throw cause;
          throw new ChannelSendError(
            `Could not reach the mail server ${host}:${port}. Check the host and port, or your connection.`,
            { permanent: false, cause },
          );
        },
      );
      return classifyHost(name)?.ip ? { host: address } : { host: address, tls: { servername: name } };
    },
    close() {
      closed ??= dispatcher.close();
      return closed;
    },
  };
}

let shared: ChannelReach | undefined;
/**
 * The reach of a sender used without core (a test of the sender alone): the system's resolver, no port of
 * Lotwatch's own. Made once, for the life of the process.
 */
export function defaultReach(): ChannelReach {
  shared ??= channelReach();
  return shared;
}
