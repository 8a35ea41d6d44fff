import { currentActor } from '../actor';
import type { Clock } from '../clock';
import type { DeliveryLogRow } from '../db/channelsRepo';
import type { ChannelsRepo } from '../db/channelsRepo';
import type { RequestsRepo } from '../db/requestsRepo';
import type { Async, Transact } from '../db/async';
import { BadInputError, LotwatchError } from '../errors';
import type { SecretBox } from '../secrets';
import {
  channelAddress,
  channelDestination,
  type ChannelConfig,
  type ChannelSave,
  type ChannelType,
  type ChannelView,
  type DeliveryView,
} from '../../shared/alertChannels';
import { channelAddressVerdict } from '../../shared/netAddress';
import { channelSecretName, parseSettings, type ChannelOutbox, type LiveChannel } from './outbox';
import type { ChannelReach } from './reach';
import {
  bindSecret,
  forgetBoundSecret,
  readBoundSecret,
  secretWords,
  shownDestination,
  writeBoundSecret,
  type BoundSecret,
} from './secretBinding';
import { testMessage } from './route';
import { SendStopped } from './senders';
import { ChannelSendError } from './types';

/** How many rows of the delivery log Settings shows. */
export const LOG_ROWS = 100;

/**
 * The alert channels as the buyer manages them (docs/architecture.md "Delivery"): list with health and the delivery
 * log, save (settings in the store, the secret encrypted beside them, never returned), remove, and the Test button.
 * A saved change starts the channel's waiting retries at once (the buyer may just have fixed its password).
 * Each call acts on the caller's own channels only (`currentActor`: owner null is the local owner, the desktop's
 * every channel): a team member never sees, changes, tests or reads the log of another's (it reads as not found).
 */
export class ChannelService {
  constructor(
    private readonly d: {
      /** Its repositories only: the channels and their log, the request log (a test's cost), one transaction. */
      store: {
        channels: Async<ChannelsRepo>;
        requests: Pick<Async<RequestsRepo>, 'getSecret' | 'setSecret' | 'deleteSecret'>;
        transaction: Transact;
      };
      clock: Clock;
      secrets: SecretBox;
      outbox: ChannelOutbox;
      /** Where channels may connect: its `ownPorts` (the browser shell's) are refused on save. */
      reach?: ChannelReach;
    },
  ) {}

  /** Every channel with its health, and the newest LOG_ROWS deliveries. Throws only database errors. */
  async list(): Promise<{ channels: ChannelView[]; log: DeliveryView[] }> {
    const owner = currentActor().userId;
    const channels: ChannelView[] = [];
    for (const c of await this.own()) channels.push(await this.view(c));
    return { channels, log: (await this.d.store.channels.log(LOG_ROWS, owner)).map(deliveryView) };
  }

  /** One alert's deliveries to the caller's channels, for the inbox, in routing order. */
  async deliveriesOf(alertId: number): Promise<DeliveryView[]> {
    return (await this.d.store.channels.forAlert(alertId, currentActor().userId)).map(deliveryView);
  }

  /** The caller's channels whose stored settings read back valid. */
  private async own(): Promise<LiveChannel[]> {
    const owner = currentActor().userId;
    return (await this.d.outbox.channels()).filter((c) => c.row.owner_id === owner);
  }

  /**
   * Creates (no id) or changes a channel, with its secret: absent keeps it, null forgets it, text replaces it.
   * A new channel, or one switched back on, starts with the alerts raised from now on (not the whole inbox).
   * Where it sends must be a place for alerts (channelAddressVerdict: no link-local or cloud metadata address, not
   * Lotwatch's own port), and a kept secret goes only where it was saved for (secretBinding.ts): moving an email
   * channel to another host or port, or an ntfy channel to another server, needs the secret again (or its removal).
   *
   * @throws BadInputError with `fields`: a webhook without a valid address (`secret`), a change of type
   *   (`config.type`), an address that may not get alerts (`config.host`, `config.server` or `secret`), a new
   *   destination for a kept secret (`secret`: "Enter the password again for the new server …"); LotwatchError
   *   not_found for an id that is not stored. Nothing is written when it throws.
   */
  async save(input: ChannelSave): Promise<ChannelView> {
    const { id, secret, ...settings } = input;
    const type = settings.config.type;
    const repo = this.d.store.channels;
    const found = id === undefined ? undefined : await repo.get(id);
    const before = found?.owner_id === currentActor().userId ? found : undefined;
    if (id !== undefined && !before)
      throw new LotwatchError('not_found', 'This channel was deleted. Add it again.');
    if (before && before.type !== type) {
      throw new BadInputError('A channel cannot change its type. Add a new channel instead.', {
        'config.type': ['Add a new channel for another type.'],
      });
    }
    const typed = typeof secret === 'string' && secret.trim() !== '' ? secret.trim() : undefined;
    const stored = before ? await this.storedSecret(before.id) : null;
    if (type === 'webhook') {
      if (typed !== undefined) checkWebhookAddress(typed);
      else if (secret === null || !stored) {
        throw new BadInputError('Paste the webhook address.', {
          secret: ['Paste the webhook address, starting with https://.'],
        });
      }
    }
    const address = typed ?? (secret === null ? null : (stored?.secret ?? null));
    this.checkAddress(settings.config, address);
    const destination = channelDestination(settings.config, address);
    // A kept secret's binding: the one recorded, or for one stored before bindings, where it went until now (none
    // readable: it must be given again).
    const beforeConfig = before ? parseSettings(before.settings)?.config : undefined;
    const keptFor =
      before && stored && typed === undefined && secret !== null
        ? (stored.boundTo ?? (beforeConfig ? channelDestination(beforeConfig, stored.secret) : null) ?? '')
        : null;
    if (keptFor !== null && keptFor !== destination) movedWithoutSecret(type, destination);
    const now = this.d.clock.now();
    const saved = await this.d.store.transaction(async () => {
      let cid: number;
      if (before) {
        cid = before.id;
        await repo.update(cid, JSON.stringify(settings), now);
        const wasOn = (JSON.parse(before.settings) as { enabled?: boolean }).enabled !== false;
        if (!wasOn && settings.enabled) await repo.setCursor(cid, await repo.newestAlertId());
        await repo.clearHealth(cid);
        await repo.retryNow(cid, now);
      } else {
        const owner = currentActor().userId;
        cid = await repo.insert(type, JSON.stringify(settings), await repo.newestAlertId(), now, owner);
      }
      if (secret === null) await forgetBoundSecret(this.d, cid);
      else if (typed !== undefined && destination !== null)
        await writeBoundSecret(this.d, cid, typed, destination);
      else if (keptFor !== null && stored?.boundTo === null) await bindSecret(this.d, cid, keptFor);
      return cid;
    });
    this.d.outbox.kick();
    return this.view(await this.live(saved));
  }

  /** A stored secret and its binding; null when none is stored or it cannot be read (the view says so). */
  private async storedSecret(id: number): Promise<BoundSecret | null> {
    try {
      return await readBoundSecret(this.d, id);
    } catch {
      return null;
    }
  }

  /** @throws BadInputError at the address's field when the channel may not send there (channelAddressVerdict). */
  private checkAddress(config: ChannelConfig, webhookAddress: string | null): void {
    const a = channelAddress(config, webhookAddress);
    if (!a) {
      if (config.type !== 'email') return;
      const refusal = 'Enter the mail server’s host name, such as smtp.gmail.com, without a port or spaces.';
      throw new BadInputError(refusal, { 'config.host': [refusal] });
    }
    const { refusal } = channelAddressVerdict(a.hostname, a.port, this.d.reach?.ownPorts() ?? []);
    if (refusal) throw new BadInputError(refusal, { [a.field]: [refusal] });
  }

  /** Deletes a channel, its secret and its deliveries. @throws LotwatchError not_found. */
  async remove(id: number): Promise<{ ok: true }> {
    const store = this.d.store;
    const theirs = (await store.channels.get(id))?.owner_id === currentActor().userId;
    const gone =
      theirs &&
      (await store.transaction(async () => {
        await forgetBoundSecret(this.d, id);
        return store.channels.remove(id);
      }));
    if (!gone) throw new LotwatchError('not_found', 'This channel was already deleted.');
    return { ok: true };
  }

  /**
   * Sends the test message through a saved channel now, outside the outbox (nothing is logged or retried). Answers
   * within SEND_DEADLINE_MS (30 s) whatever the receiver does, so the buyer never waits on a button: a receiver that
   * has not finished by then is "… did not finish within 30 seconds; check …". Never throws for a failed send: the
   * answer says what happened and what to fix. @throws LotwatchError not_found.
   */
  async test(id: number): Promise<{ ok: boolean; message: string }> {
    const ch = await this.live(id);
    try {
      const { detail } = await this.d.outbox.sendNow(ch, testMessage(id, this.d.clock.now()));
      return { ok: true, message: `${detail}.` };
    } catch (e) {
      if (e instanceof SendStopped) {
        return {
          ok: false,
          message: 'Lotwatch stopped before the test finished. Press Test again once it runs.',
        };
      }
      return {
        ok: false,
        message: e instanceof ChannelSendError ? e.message : `The test failed: ${(e as Error).message}`,
      };
    }
  }

  private async live(id: number): Promise<LiveChannel> {
    const ch = (await this.own()).find((c) => c.row.id === id);
    if (!ch)
      throw new LotwatchError(
        'not_found',
        'This channel was deleted, or its stored settings cannot be read. Add it again.',
      );
    return ch;
  }

  private async view(ch: LiveChannel): Promise<ChannelView> {
    const c = await this.d.store.requests.getSecret(channelSecretName(ch.row.id));
    let hint: string | null = null;
    if (c) {
      try {
        hint = secretHint(ch.settings.config.type, this.d.secrets.decrypt(c));
      } catch {
        hint = 'Stored, but it cannot be read: enter it again';
      }
    }
    return {
      ...ch.settings,
      id: ch.row.id,
      type: ch.settings.config.type,
      has_secret: c !== null,
      secret_hint: hint,
      health: {
        last_sent_at: ch.row.last_sent_at,
        failures: ch.row.failures,
        last_error: ch.row.last_error,
        waiting: await this.d.store.channels.waitingFor(ch.row.id),
      },
    };
  }
}

/**
 * A kept secret would go to a new destination: refused, at the secret's field, with what to do.
 * @throws BadInputError always.
 */
function movedWithoutSecret(type: ChannelType, destination: string | null): never {
  const what = secretWords(type);
  const text =
    type === 'webhook'
      ? 'Paste the webhook address again: the stored one does not match where it was saved for.'
      : `Enter the ${what} again for the new server ${shownDestination(destination ?? '')}: Lotwatch sends a ` +
        `saved ${what} only to the server it was entered for. Or choose Forget to save without one.`;
  throw new BadInputError(text, { secret: [text] });
}

/** A webhook address must be a full http(s) URL. @throws BadInputError on `secret`. */
function checkWebhookAddress(s: string): void {
  let ok = false;
  try {
    ok = /^https?:$/.test(new URL(s.trim()).protocol);
  } catch {
    ok = false;
  }
  if (!ok)
    throw new BadInputError('The webhook address is not a full address.', {
      secret: ['Paste the whole webhook address, starting with https://.'],
    });
}

/**
 * Enough of a secret to recognise it, never enough to use it: a webhook's host only (`discord.com/…`: the path
 * carries the token, Telegram's bot token among it), dots for a password or token.
 */
export function secretHint(type: ChannelType, secret: string): string {
  if (type !== 'webhook') return '••••••••';
  try {
    return `${new URL(secret).host}/…`;
  } catch {
    return '••••••••';
  }
}

function deliveryView(r: DeliveryLogRow): DeliveryView {
  const waiting = r.status === 'held' || r.status === 'pending';
  return {
    id: r.id,
    alert_id: r.alert_id,
    alert_title: r.title,
    channel_id: r.channel_id,
    channel_name: r.channel_name,
    status: r.status,
    attempts: r.attempts,
    at: r.sent_at ?? r.attempted_at ?? r.created_at,
    next_at: waiting ? r.not_before : null,
    detail: r.detail,
  };
}
