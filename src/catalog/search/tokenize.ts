/** @module Text to search terms: name splitting, lowercasing, stop words and a light suffix stemmer. */

// Function words and the verbs people wrap a request in ("can you show me…"); they say nothing about
// which tool is meant, and in a tool catalogue they match almost every description.
const STOP_WORDS = new Set(
  (
    "a about above after again all also am an and any are as at be because been before being below between both " +
    "but by can could did do does doing done down during each else etc few for from further had has have having " +
    "he her here hers him his how i if in into is it its itself just let lets me might more most must my myself " +
    "no nor not now of off on once only or other our ours out over own please same shall she should so some " +
    "such than that the their theirs them then there these they this those through to too under until up upon " +
    "us very via was we were what when where which while who whom whose why will with within without would " +
    "yes you your yours want wants need needs like would could get gets give show tell find help make know " +
    "im someone something anything thing things way use using"
  ).split(" "),
);

/** Whether a lowercased word is dropped from indexing and queries. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/** Splits an identifier (`fetch_url`, `getWeather`, `math.hypot`, `HTTPServer`) into space-separated words. */
export function splitIdentifier(identifier: string): string {
  return identifier
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, "$1 $2")
    .replace(/[^\p{L}\p{N}]+/gu, " ");
}

const VOWEL = /[aeiouy]/;

/**
 * A light English suffix stemmer: plural, -ing, -ed, -ation, -ly and a final -e, so that "calculate",
 * "calculating", "calculated" and "calculation" meet. Query and index use the same function, so it only
 * has to be consistent, not linguistically right.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let w = word;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith("ations") || w.endsWith("ation")) w = w.slice(0, w.lastIndexOf("ation") + 2);
  else if (w.length > 5 && w.endsWith("ing") && VOWEL.test(w.slice(0, -3))) w = undouble(w.slice(0, -3));
  else if (w.length > 4 && w.endsWith("ed") && VOWEL.test(w.slice(0, -2))) w = undouble(w.slice(0, -2));
  else if (w.length > 5 && w.endsWith("ly")) w = w.slice(0, -2);
  if (w.length > 4 && w.endsWith("e")) w = w.slice(0, -1);
  if (w.endsWith("y") && w.length > 3 && !VOWEL.test(w.charAt(w.length - 2))) w = `${w.slice(0, -1)}i`;
  return w;
}

// "running" → "run", "stopped" → "stop"; but keep "ll", "ss", "zz" ("spelling", "passed").
function undouble(word: string): string {
  const last = word.charAt(word.length - 1);
  if (word.length > 3 && last === word.charAt(word.length - 2) && !"lsz".includes(last))
    return word.slice(0, -1);
  return word;
}

/** Longest input a tokenizer reads; beyond it a query is noise, and scanning it is a cost an attacker chooses. */
export const MAX_TEXT_LENGTH = 100_000;

// English clitics ("I'm", "that's", "we'll", "don't"): split at the apostrophe they would become stray
// one- and two-letter terms ("m", "s", "ll") that match unrelated words, so they are dropped with it.
const CLITIC = /(\p{L})['\u2019](?:s|m|d|ll|re|ve|t)(?![\p{L}\p{N}])/giu;

/** Lowercases, drops English clitics, splits identifiers and non-alphanumerics, drops stop words and stems. */
export function tokenize(text: string): string[] {
  const bounded = text.length > MAX_TEXT_LENGTH ? text.slice(0, MAX_TEXT_LENGTH) : text;
  const words = splitIdentifier(bounded.replace(CLITIC, "$1")).toLowerCase().split(" ");
  const terms: string[] = [];
  for (const word of words) {
    if (word === "" || word.length > 64 || STOP_WORDS.has(word)) continue;
    terms.push(stem(word));
  }
  return terms;
}
