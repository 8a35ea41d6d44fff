import type { Clock } from '../clock';
import type { RequestsRepo } from '../db/requestsRepo';
import type { Async } from '../db/async';
import type { SecretBox } from '../secrets';
import { channelDestination, type ChannelConfig } from '../../shared/alertChannels';
import { ChannelSendError } from './types';

/**
 * A channel's secret and what it is bound to (docs/architecture.md "Delivery"), as the API key is bound to its
 * origin: the SMTP password to `smtp://host:port`, the ntfy token to the server's origin, the webhook address to its
 * own origin (see channelDestination). Both are rows of `secrets`, encrypted: `channel:<id>` the secret,
 * `channel:<id>:for` the destination it was saved for. A secret is sent only when the channel's destination is the
 * one it is bound to; a secret stored before bindings existed is bound, at its first use, to the destination stored
 * at that moment (the only place it has ever gone).
 */

/** The name of a channel's secret in the secrets table (encrypted like the API key). */
export const channelSecretName = (id: number): string => `channel:${id}`;
/** The name of the destination a channel's secret was saved for. */
export const channelBindingName = (id: number): string => `channel:${id}:for`;

/** What reading or writing a channel's secret needs. */
export interface SecretBindingDeps {
  store: { requests: Pick<Async<RequestsRepo>, 'getSecret' | 'setSecret' | 'deleteSecret'> };
  secrets: SecretBox;
  clock: Clock;
}

/** A stored secret with the destination it is bound to (null: stored before bindings, not bound yet). */
export interface BoundSecret {
  secret: string;
  boundTo: string | null;
}

/**
 * The stored secret of channel `id` and its binding, or null when none is stored.
 * @throws LotwatchError('internal') when the secret or its binding cannot be decrypted (another key file, damage).
 */
export async function readBoundSecret(d: SecretBindingDeps, id: number): Promise<BoundSecret | null> {
  const c = await d.store.requests.getSecret(channelSecretName(id));
  if (!c) return null;
  const secret = d.secrets.decrypt(c);
  const b = await d.store.requests.getSecret(channelBindingName(id));
  return { secret, boundTo: b ? d.secrets.decrypt(b) : null };
}

/** Stores channel `id`'s secret bound to `destination` (both encrypted), replacing what was stored. */
export async function writeBoundSecret(
  d: SecretBindingDeps,
  id: number,
  secret: string,
  destination: string,
): Promise<void> {
  const now = d.clock.now();
  await d.store.requests.setSecret(channelSecretName(id), d.secrets.encrypt(secret), now);
  await bindSecret(d, id, destination);
}

/** Records the destination channel `id`'s stored secret is bound to (an unbound one's, on its first use). */
export async function bindSecret(d: SecretBindingDeps, id: number, destination: string): Promise<void> {
  await d.store.requests.setSecret(channelBindingName(id), d.secrets.encrypt(destination), d.clock.now());
}

/** Forgets channel `id`'s secret and its binding. */
export async function forgetBoundSecret(d: SecretBindingDeps, id: number): Promise<void> {
  await d.store.requests.deleteSecret(channelSecretName(id));
  await d.store.requests.deleteSecret(channelBindingName(id));
}

/** A destination as a sentence writes it: `smtp.example.com:587`, `https://ntfy.example.com:443`. */
export const shownDestination = (destination: string): string => destination.replace(/^smtp:\/\//, '');

/** What a secret is called in the buyer's words, by channel type. */
export const secretWords = (type: ChannelConfig['type']): string =>
  type === 'email' ? 'password' : type === 'ntfy' ? 'access token' : 'webhook address';

/**
 * The secret a sender may use for channel `id` with `config`, or null when none is stored (the outbox and the Test
 * button read it here). A secret saved before bindings is bound now to `config`'s destination. One bound elsewhere
 * is never returned: the channel was moved without giving it again.
 * @throws ChannelSendError (permanent) when the secret cannot be read, or is bound to another destination, with
 *   what to do in the buyer's words.
 */
export async function secretForSend(
  d: SecretBindingDeps,
  id: number,
  config: ChannelConfig,
): Promise<string | null> {
  let stored: BoundSecret | null;
  try {
    stored = await readBoundSecret(d, id);
  } catch (cause) {
    throw new ChannelSendError(
      'The stored password, token or address of this channel could not be read. Enter it again in Settings → Alert channels.',
      { permanent: true, cause },
    );
  }
  if (!stored) return null;
  const destination = channelDestination(config, stored.secret);
  if (destination === null) {
    throw new ChannelSendError(
      'The server address of this channel is not a full address. Check it in Settings → Alert channels.',
      { permanent: true },
    );
  }
  if (stored.boundTo === null) {
    await bindSecret(d, id, destination);
    return stored.secret;
  }
  if (stored.boundTo === destination) return stored.secret;
  if (config.type === 'webhook') {
    throw new ChannelSendError(
      'The stored webhook address does not match where it was saved for, so Lotwatch does not use it. Paste the ' +
        'webhook address again in Settings → Alert channels.',
      { permanent: true },
    );
  }
  const what = secretWords(config.type);
  throw new ChannelSendError(
    `The ${what} of this channel was saved for the server ${shownDestination(stored.boundTo)}, and the ` +
      `channel now sends to ${shownDestination(destination)}: Lotwatch does not take it to another server. ` +
      'Enter it again in Settings → Alert channels.',
    { permanent: true },
  );
}
