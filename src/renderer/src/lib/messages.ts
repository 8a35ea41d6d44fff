import type { ErrorCode, ErrorPayload } from '../../../shared/ipc/errors';
import { fieldLabel, labelled } from '../../../shared/fieldLabels';

/**
 * The renderer's one place for error texts (docs/writing-guide.md rule 4): what to do about each error code, and the
 * message and advice a screen shows for an error payload. Core's message says what happened (in the buyer's words,
 * with the HTTP status for the service's answers); the advice here says what to do. When core already named the
 * step, because only core knows it (which key problem, until when to wait, which file to restore), the advice
 * steps back: a message and its advice never say the same thing twice, and together they always name an action.
 */

/** What to do about each error code, for a message that does not say it already. */
export const ADVICE: Readonly<Record<ErrorCode, string>> = {
  bad_input: 'Correct the value and try again.',
  unknown_method: 'Restart Lotwatch; if this happens again, install the latest version.',
  forbidden_sender: 'Use Lotwatch from its own window.',
  internal: 'Try again; if this happens again, restart Lotwatch.',
  db_from_future: 'Update Lotwatch, or choose another data folder.',
  db_unavailable: 'Restart Lotwatch; if this happens again, restore a backup (Settings, Backups).',
  db_unreachable: 'Check the database address and that its server is running, then start Lotwatch again.',
  already_running: 'Use the Lotwatch that is already running, or quit it first.',
  not_implemented: 'Check for a newer version of Lotwatch.',
  cancelled: 'Try again when you want to send it.',
  conflict: 'Reload it to see that change, then make yours again.',
  bad_request: 'Check what you entered and try again.',
  unauthorized: 'Check the API key in Settings, or turn on Demo mode.',
  forbidden: 'Check what your plan includes on the service, or choose another plan.',
  not_found: 'Check the VIN, lot number or link; the lot may also have been removed.',
  validation: 'Correct the value and try again.',
  rate_limited: 'Wait a minute, then try again; saved searches and watches wait by themselves.',
  server: 'Try again in a minute; saved searches and watches try again by themselves.',
  network: 'Check the connection and the Service URL in Settings; what Lotwatch has stored is still here.',
  timeout: 'Try again in a minute.',
  bad_response: 'Check the Service URL in Settings; if it is right, try again later.',
};

/**
 * A 429 that is not worth retrying is a spent quota (docs/service-contract.md "Quota spent (real)"): its message
 * already says until when, this says what that means and what to do.
 */
const SPENT_ADVICE =
  'Saved searches and watches wait until then, and the Library still has everything stored. Change the plan on the ' +
  'service to go on sooner.';

/** An answer cut off mid-way (a retryable `bad_response`) is the service failing like a 5xx, and retried like one. */
const CUT_OFF_ADVICE = ADVICE.server;

/** Where the screen says what is wrong with each field itself (docs/writing-guide.md rule 4: once). */
export interface ErrorTextOptions {
  /**
   * The screen shows each of the payload's field messages itself (next to its input, or listed under the notice),
   * so a refused input is said as a pointer to them, not by repeating the first one.
   */
  fieldsShown?: boolean;
  /** What the screen sends: `search` (its fields are filters) or `call` (the API console); else a form. */
  subject?: 'search' | 'call';
}

/** An error as a screen says it: what happened, and what to do (null when the message already says it). */
export interface ErrorText {
  message: string;
  advice: string | null;
}

/** Pointers to field messages a screen shows itself, by what the screen sends. */
const SHOWN: Record<'search' | 'call' | 'form', { refused: string; notSent: string | null; action: string }> =
  {
    search: {
      refused: 'The auction data service refused some filters (HTTP 422).',
      notSent: 'Lotwatch did not send this search: correct the marked filters.',
      action: 'Correct the marked filters, then search again.',
    },
    call: {
      refused: 'The auction data service refused part of this call (HTTP 422).',
      notSent: 'Lotwatch did not send this call: correct the values shown.',
      action: 'Correct the values shown, then call again.',
    },
    form: {
      refused: 'The auction data service refused part of the request (HTTP 422).',
      notSent: null,
      action: 'Correct the marked fields, then try again.',
    },
  };

/** Said after a refusal Lotwatch made before sending (docs/writing-guide.md rule 9). */
const NOTHING_SPENT = 'No request was spent.';

/**
 * A next step: an action verb opening a sentence or a clause (after `;` or `:`), maybe after "please" or an
 * opening "To go on sooner," / "If it is right," clause.
 */
const ACTION =
  /(?:^|[.!?;:]\s+)(?:(?:to|if|when)\s[^,.;:]*,\s+)?(?:please\s+)?(?:enter|check|try|wait|open|choose|turn|change|correct|add|remove|update|restart|free|restore|paste|save|select|use|quit|close|allow|ask|start|set|install|reload|fix|fill|give|keep|move)\b/i;

/** True when `text` names a next step: an action verb opening a sentence or a clause, or Lotwatch acting itself. */
export function namesAction(text: string): boolean {
  return ACTION.test(text) || /Lotwatch (tries again by itself|waits)/.test(text);
}

/** The sentences of a text, split after `.`, `!` or `?` followed by a space. */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A sentence reduced to compare it with another: lower case, no punctuation, single spaces. */
export function normalised(sentence: string): string {
  return sentence
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** `advice` without the sentences `message` already says (compared normalised); null when none is left. */
function withoutRepeats(message: string, advice: string | null): string | null {
  if (!advice) return null;
  const said = new Set(sentences(message).map(normalised));
  const left = sentences(advice).filter((s) => !said.has(normalised(s)));
  return left.length ? left.join(' ') : null;
}

/**
 * The message and advice a screen shows for an error payload (docs/writing-guide.md rules 3 and 4). The message is
 * core's, except where the screen shows the field messages itself (`options.fieldsShown`): then a refused input
 * points at them ("Lotwatch did not send this search: correct the marked filters."). The advice is the code's from
 * ADVICE (a spent quota and an answer cut off mid-way have their own), left out when the message already names a
 * next step, and never repeating a sentence of the message. Throws nothing.
 */
export function errorText(payload: ErrorPayload, options: ErrorTextOptions = {}): ErrorText {
  const hasFields = !!payload.fields && Object.keys(payload.fields).length > 0;
  if (options.fieldsShown && hasFields && (payload.code === 'validation' || payload.code === 'bad_input')) {
    const shown = SHOWN[options.subject ?? 'form'];
    if (payload.code === 'validation') return { message: shown.refused, advice: shown.action };
    if (shown.notSent) return { message: shown.notSent, advice: NOTHING_SPENT };
    const message = payload.message;
    return { message, advice: namesAction(message) ? null : withoutRepeats(message, shown.action) };
  }
  const message = payload.message.trim() || 'Something went wrong inside Lotwatch.';
  const advice =
    payload.code === 'rate_limited' && !payload.retryable
      ? SPENT_ADVICE
      : payload.code === 'bad_response' && payload.retryable
        ? CUT_OFF_ADVICE
        : ADVICE[payload.code];
  return { message, advice: namesAction(message) ? null : withoutRepeats(message, advice) };
}

/** The whole error as one line ("message advice"), for a screen with room for a single line of text. */
export function errorLine(payload: ErrorPayload, options: ErrorTextOptions = {}): string {
  const t = errorText(payload, options);
  return t.advice ? `${t.message} ${t.advice}` : t.message;
}

/**
 * "VIN: the vin field must be 17 characters." One line per field of the payload that the screen does not show next
 * to an input (`shown(key)` false), in the map's order, each named by the label `nameOf` gives (by default the
 * field's label, else "Another field"). Empty when the payload has no fields. Throws nothing.
 */
export function fieldLines(
  payload: ErrorPayload,
  shown: (key: string) => boolean,
  nameOf: (key: string) => string = (k) => fieldLabel(k) ?? 'Another field',
): string[] {
  const lines: string[] = [];
  for (const [key, msgs] of Object.entries(payload.fields ?? {})) {
    if (shown(key)) continue;
    for (const m of msgs) lines.push(labelled(nameOf(key), m));
  }
  return lines;
}
