import type { Clock } from '../clock';
import type { DeliveryLogRow } from '../db/channelsRepo';
import type { Store } from '../db/store';
import { BadInputError, LotwatchError } from '../errors';
import type { SecretBox } from '../secrets';
import type { ChannelSave, ChannelType, ChannelView, DeliveryView } from '../../shared/alertChannels';
import { channelSecretName, type ChannelOutbox, type LiveChannel } from './outbox';
import { testMessage } from './route';
import { SendStopped } from './senders';
import { ChannelSendError, type Sender } from './types';

/** How many rows of the delivery log Settings shows. */
export const LOG_ROWS = 100;

/**
 * The alert channels as the buyer manages them (docs/architecture.md "Delivery"): list with health and the delivery
 * log, save (settings in the store, the secret encrypted beside them, never returned), remove, and the Test button.
 * A saved change starts the channel's waiting retries at once (the buyer may just have fixed its password).
 */
export class ChannelService {
  constructor(
    private readonly d: {
      store: Store;
      clock: Clock;
      secrets: SecretBox;
      outbox: ChannelOutbox;
      senders: Readonly<Record<ChannelType, Sender>>;
    },
  ) {}

  /** Every channel with its health, and the newest LOG_ROWS deliveries. Throws only database errors. */
  list(): { channels: ChannelView[]; log: DeliveryView[] } {
    return {
      channels: this.d.outbox.channels().map((c) => this.view(c)),
      log: this.d.store.channels.log(LOG_ROWS).map(deliveryView),
    };
  }

  /** One alert's deliveries for the inbox, in routing order. */
  deliveriesOf(alertId: number): DeliveryView[] {
    return this.d.store.channels.forAlert(alertId).map(deliveryView);
  }

  /**
   * Creates (no id) or changes a channel, with its secret: absent keeps it, null forgets it, text replaces it.
   * A new channel, or one switched back on, starts with the alerts raised from now on (not the whole inbox).
   *
   * @throws BadInputError with `fields` for a webhook without a valid address, or a change of type; LotwatchError
   *   not_found for an id that is not stored. Nothing is written when it throws.
   */
  save(input: ChannelSave): ChannelView {
    const { id, secret, ...settings } = input;
    const type = settings.config.type;
    const now = this.d.clock.now();
    const repo = this.d.store.channels;
    const before = id === undefined ? undefined : repo.get(id);
    if (id !== undefined && !before)
      throw new LotwatchError('not_found', 'This channel was deleted. Add it again.');
    if (before && before.type !== type) {
      throw new BadInputError('A channel cannot change its type. Add a new channel instead.', {
        'config.type': ['Add a new channel for another type.'],
      });
    }
    const hasSecret = before ? this.d.store.requests.getSecret(channelSecretName(before.id)) !== null : false;
    if (type === 'webhook') {
      if (typeof secret === 'string') checkWebhookAddress(secret);
      else if (secret === null || !hasSecret) {
        throw new BadInputError('Paste the webhook address.', {
          secret: ['Paste the webhook address, starting with https://.'],
        });
      }
    }
    const json = JSON.stringify(settings);
    const saved = this.d.store.transaction(() => {
      let cid: number;
      if (before) {
        cid = before.id;
        repo.update(cid, json, now);
        const wasOn = (JSON.parse(before.settings) as { enabled?: boolean }).enabled !== false;
        if (!wasOn && settings.enabled) repo.setCursor(cid, repo.newestAlertId());
        repo.clearHealth(cid);
        repo.retryNow(cid, now);
      } else {
        cid = repo.insert(type, json, repo.newestAlertId(), now);
      }
      if (secret === null) this.d.store.requests.deleteSecret(channelSecretName(cid));
      else if (typeof secret === 'string' && secret.trim() !== '') {
        this.d.store.requests.setSecret(channelSecretName(cid), this.d.secrets.encrypt(secret.trim()), now);
      }
      return cid;
    });
    this.d.outbox.kick();
    return this.view(this.live(saved));
  }

  /** Deletes a channel, its secret and its deliveries. @throws LotwatchError not_found. */
  remove(id: number): { ok: true } {
    const gone = this.d.store.transaction(() => {
      this.d.store.requests.deleteSecret(channelSecretName(id));
      return this.d.store.channels.remove(id);
    });
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
    const ch = this.live(id);
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

  private live(id: number): LiveChannel {
    const ch = this.d.outbox.channels().find((c) => c.row.id === id);
    if (!ch)
      throw new LotwatchError(
        'not_found',
        'This channel was deleted, or its stored settings cannot be read. Add it again.',
      );
    return ch;
  }

  private view(ch: LiveChannel): ChannelView {
    const c = this.d.store.requests.getSecret(channelSecretName(ch.row.id));
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
        waiting: this.d.store.channels.waitingFor(ch.row.id),
      },
    };
  }
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
