/**
 * The Library's search box as an SQLite FTS5 `MATCH` expression over `lots_fts` (docs/architecture.md "SQLite":
 * the query text is built here, next to the statements that run it). The buyer types words the way a web search
 * takes them, and no input, however odd, may turn into an FTS5 syntax error on screen (docs/writing-guide.md rule
 * 3: an error needs an action, and a search box has none to offer). Both builders below only ever emit
 * double-quoted strings of letters and digits, `*`, `AND`, `OR`, `NOT` and parentheses, so SQLite accepts every
 * expression they return.
 */

/** At most this many words and phrases are searched for; the rest of a long paste is ignored. */
const MAX_TERMS = 12;
/** At most this many words inside one quoted phrase. */
const MAX_PHRASE_WORDS = 12;

/** Straight and typographic double quotes all open and close a phrase (a Mac types “ and ”). */
const QUOTES = new Set(['"', '\u201c', '\u201d', '\u201e', '\u00ab', '\u00bb']);
/** A hyphen-minus or a typographic minus or dash in front of a word leaves it out. */
const MINUS = new Set(['-', '\u2212', '\u2013']);

interface Term {
  /** The words of the term: letters and digits only. */
  words: string[];
  /** A typed word matches as a prefix ("cam" finds CAMRY); a quoted phrase matches as written. */
  prefix: boolean;
  negated: boolean;
}
type Item = Term | 'OR';

/** The words of a piece of text: runs of letters and digits (what the unicode61 tokenizer keeps). */
function wordsOf(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** One FTS5 string: the words in double quotes (a quote inside is doubled), starred for a prefix match. */
function quoted(t: Term): string {
  return `"${t.words.join(' ').replace(/"/g, '""')}"${t.prefix ? '*' : ''}`;
}

/** Splits the buyer's text into terms and `OR`s, left to right; a term without a word is dropped. */
function scan(text: string): Item[] {
  const items: Item[] = [];
  let i = 0;
  const chars = [...text];
  while (i < chars.length) {
    const c = chars[i]!;
    if (/\s/u.test(c)) {
      i++;
      continue;
    }
    let negated = false;
    if (MINUS.has(c) && i + 1 < chars.length && !/\s/u.test(chars[i + 1]!)) {
      negated = true;
      i++;
    }
    if (QUOTES.has(chars[i]!)) {
      // A phrase runs to the next quote, or to the end of the text when it is never closed.
      let j = i + 1;
      while (j < chars.length && !QUOTES.has(chars[j]!)) j++;
      const words = wordsOf(chars.slice(i + 1, j).join('')).slice(0, MAX_PHRASE_WORDS);
      if (words.length > 0) items.push({ words, prefix: false, negated });
      i = j + 1;
      continue;
    }
    let j = i;
    while (j < chars.length && !/\s/u.test(chars[j]!) && !QUOTES.has(chars[j]!)) j++;
    const chunk = chars.slice(i, j).join('');
    i = j;
    if (chunk === 'OR' && !negated) {
      items.push('OR');
      continue;
    }
    // "F-150" or "A4/S4" is one term: its words next to each other, the last one as a prefix.
    const words = wordsOf(chunk).slice(0, MAX_PHRASE_WORDS);
    if (words.length > 0) items.push({ words, prefix: true, negated });
  }
  return items;
}

/**
 * The FTS5 `MATCH` expression for the text a buyer typed in the Library's search box:
 * - words are AND-ed, each matched as a prefix (`cam` finds CAMRY; `f-150` is the words `f 150` side by side);
 * - `-word` (or `-"a phrase"`) leaves out lots that contain it;
 * - `OR` (in capitals) between two words or phrases finds either (`camry OR corolla OR accord`); any other `OR`
 *   (at either end, or next to a left-out word) is the word itself, as in `portland OR`;
 * - `"model 3"` in double quotes (straight or typographic) is a phrase: those words, side by side, as written; a
 *   quote never closed runs to the end;
 * - everything else (punctuation, FTS5's own syntax such as `NEAR(`, `^`, `:` or a column name) counts only for the
 *   letters and digits in it. At most 12 words or phrases are used.
 *
 * @param text the search box's text, any string.
 * @returns the expression, e.g. `"audi"* NOT "quattro"*` or `("camry"* OR "corolla"*) AND "red"*`; null when there
 *   is no word to look for: an empty box or only punctuation (the Library lists the most recently seen lots), or
 *   only left-out words (FTS5 cannot match "everything but": see ftsExcludeOnly). Throws nothing.
 */
export function ftsQuery(text: string): string | null {
  const { groups, negatives } = terms(text);
  if (groups.length === 0) return null;
  const wanted = groups.map(anyOf).join(' AND ');
  if (negatives.length === 0) return wanted;
  return `${groups.length > 1 ? `(${wanted})` : wanted} NOT ${anyOf(negatives)}`;
}

/**
 * For a text of left-out words only (`-salvage -"flood damage"`), the FTS5 expression of what to leave out
 * (`("salvage"* OR "flood damage")`): the Library then lists every stored lot that does not match it, most recently
 * seen first. Null when the text has a word to look for (use ftsQuery) or none at all. Throws nothing.
 */
export function ftsExcludeOnly(text: string): string | null {
  const { groups, negatives } = terms(text);
  return groups.length === 0 && negatives.length > 0 ? anyOf(negatives) : null;
}

/** One term, or several joined by OR in parentheses. */
function anyOf(ts: Term[]): string {
  return ts.length === 1 ? quoted(ts[0]!) : `(${ts.map(quoted).join(' OR ')})`;
}

/**
 * The text's wanted terms, in groups of alternatives (AND-ed together), and its left-out terms. An `OR` that does
 * not stand between two wanted terms is the word "or" (`portland OR` looks for Oregon).
 */
function terms(text: string): { groups: Term[][]; negatives: Term[] } {
  const items = scan(text);
  const groups: Term[][] = [];
  const negatives: Term[] = [];
  const wanted = (x: Item | undefined): x is Term => x !== undefined && x !== 'OR' && !x.negated;
  let count = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (item === 'OR' && wanted(items[i - 1]) && wanted(items[i + 1]) && groups.length > 0) {
      if (++count > MAX_TERMS) break;
      groups[groups.length - 1]!.push(items[++i] as Term);
      continue;
    }
    if (++count > MAX_TERMS) break;
    const t: Term = item === 'OR' ? { words: ['OR'], prefix: true, negated: false } : item;
    if (t.negated) negatives.push(t);
    else groups.push([t]);
  }
  return { groups, negatives };
}

/**
 * The plain reading of the same text, the Library's fallback should SQLite ever refuse `ftsQuery`'s expression:
 * every run of letters and digits as a prefix, all AND-ed (`"audi"* "a4"*`); left-out words (`-word`,
 * `-"a phrase"`) and a standalone `OR` are dropped, so the fallback never looks for what the buyer left out.
 *
 * @returns the expression, or null when no word is left to look for. Throws nothing.
 */
export function plainFtsQuery(text: string): string | null {
  const words = plainWords(text);
  return words.length === 0 ? null : words.map((w) => `"${w}"*`).join(' ');
}

/** The words of the plain reading (plainFtsQuery): left-out words and a standalone `OR` dropped, at most 12. */
function plainWords(text: string): string[] {
  const kept = text.replace(
    /(^|\s)[-\u2212\u2013](?:["\u201c\u201d\u201e\u00ab\u00bb][^"\u201c\u201d\u201e\u00ab\u00bb]*["\u201c\u201d\u201e\u00ab\u00bb]?|\S*)/gu,
    ' ',
  );
  return wordsOf(kept.replace(/(^|\s)OR(?=\s|$)/gu, ' ')).slice(0, MAX_TERMS);
}

/*
 * The same reading of the buyer's text for PostgreSQL (docs/architecture.md "Two engines: one store"), where the
 * Library searches `lots.fts`, a tsvector of the same columns under the `english` configuration: the builders below
 * return the text of a `to_tsquery('english', …)`, made of the same terms as ftsQuery's (scan and terms above), so
 * both engines read `camry OR corolla -salvage "model 3"` alike. They only ever emit single-quoted runs of letters
 * and digits, `:*`, `<->`, `&`, `|`, `!` and parentheses, so PostgreSQL accepts every query they return. What the
 * engines' own text processing does with the words still differs (see KyselyLibraryRepo): PostgreSQL drops English
 * stop words ("the", "and", "or") from the query and the index alike, and splits some text ("F-150", "A4/S4") into
 * other tokens than FTS5 does.
 */

/** One term as a tsquery operand: its words side by side (`<->`), the last one a prefix (`:*`) for a typed word. */
function tsQuoted(t: Term): string {
  const words = t.words.map((w, i) => `'${w}'${t.prefix && i === t.words.length - 1 ? ':*' : ''}`);
  return words.length === 1 ? words[0]! : `(${words.join(' <-> ')})`;
}

/** One term, or several joined by `|` in parentheses. */
function tsAnyOf(ts: Term[]): string {
  return ts.length === 1 ? tsQuoted(ts[0]!) : `(${ts.map(tsQuoted).join(' | ')})`;
}

/**
 * The `to_tsquery('english', …)` text for the buyer's search box: ftsQuery's reading (words AND-ed as prefixes,
 * `-word` left out, `OR` for either, "quoted phrases" as written) in PostgreSQL's syntax.
 *
 * @param text the search box's text, any string.
 * @returns e.g. `'audi':* & !'quattro':*` or `('camry':* | 'corolla':*) & 'red':*`; null when there is no word to
 *   look for (as ftsQuery: nothing, or only left-out words, see tsExcludeOnly). Throws nothing.
 */
export function tsQuery(text: string): string | null {
  const { groups, negatives } = terms(text);
  if (groups.length === 0) return null;
  const wanted = groups.map(tsAnyOf).join(' & ');
  return negatives.length === 0 ? wanted : `${wanted} & !${tsAnyOf(negatives)}`;
}

/**
 * For a text of left-out words only, the `to_tsquery('english', …)` text of what to leave out (ftsExcludeOnly's
 * reading): the Library lists every other lot. Null when the text has a word to look for or none at all.
 */
export function tsExcludeOnly(text: string): string | null {
  const { groups, negatives } = terms(text);
  return groups.length === 0 && negatives.length > 0 ? tsAnyOf(negatives) : null;
}

/** plainFtsQuery's reading (every word a prefix, all AND-ed) as `to_tsquery('english', …)` text, or null. */
export function plainTsQuery(text: string): string | null {
  const words = plainWords(text);
  return words.length === 0 ? null : words.map((w) => `'${w}':*`).join(' & ');
}
