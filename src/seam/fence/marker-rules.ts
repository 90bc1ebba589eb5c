/**
 * @module Chat-template markers found in folded text and their delimiters taken away: the fence's own
 * tag, `<|…|>` tokens, tags, bracket tokens and role lines. They are matched in the text's skeleton view,
 * so a marker spelled with look-alike letters is found as its ASCII self is; only the matched delimiters
 * change, and the words stay as written.
 */
import { BRACKET_NAMES, ODD_MARKERS, ROLE_WORDS, TAG_NAMES, TOKEN_NAMES } from "./chat-template-markers.js";
import { skeletonPattern, skeletonView } from "./confusable-skeleton.js";

/** The fence's own tag name; content may never contain it in a form that could open or close a block. */
export const FENCE_TAG = "untrusted-content";

/**
 * A kind of marker: a pattern whose named groups `<kind>Open`, `<kind>Body` and `<kind>Close` (and a kept
 * `<kind>Lead`) cover its match; the open and close parts are replaced, the rest kept.
 */
interface MarkerKind {
  readonly kind: string;
  readonly source: string;
  readonly open: string;
  readonly close: string;
}

const names = (list: readonly string[]) => [...new Set(list.map(skeletonPattern))].join("|");
/** A pipe, or a letter or digit whose skeleton is a pipe's (`l`, `I`, `Ӏ`): only around a known token's name. */
const PIPE = skeletonPattern("|");
const ROLE = `(?:${names(ROLE_WORDS)})`;
const ROLE_LINE = `^(?<roleLead>[ \\t]*)(?<roleOpen>(?:#{1,6}[ \\t]*)?)(?<roleBody>${ROLE})(?<roleClose>)`;

/**
 * Angle brackets become `«` `»`, square ones `(` `)`: characters whose skeletons are not the delimiters'.
 * Where two kinds could match at one place, the first listed does.
 */
const KINDS: readonly MarkerKind[] = [
  {
    kind: "fence",
    source: `(?<fenceOpen><\\/?)(?<fenceBody>${skeletonPattern(FENCE_TAG)})`,
    open: "«",
    close: "",
  },
  // A listed `<|…|>` token, its pipes possibly look-alike letters (`<Ӏim_startӀ>`); any `<|…|>` token;
  // Gemma 4's tokens piped on one side (`<|turn>`, `<turn|>`); a tag (`<tool_call>`, `</tool_response>`,
  // `<seed:tool_call>`, `<|DSML|invoke name="x">`, `<function=f>`).
  {
    kind: "angle",
    source:
      `(?<angleOpen><)(?<angleBody>${PIPE}\\/?(?:${names(TOKEN_NAMES)})${PIPE}|\\|[^|<>\\n]{0,40}\\|` +
      `|\\|[\\w"]{1,40}|[\\w"]{1,40}\\|` +
      `|\\/?(?:[a-z][\\w-]{0,20}:|\\|[a-z]{1,20}\\|)?(?:${names(TAG_NAMES)})(?:[\\s=][^<>\\n]{0,200})?\\/?)(?<angleClose>>)`,
    open: "«",
    close: "»",
  },
  {
    kind: "bracket",
    source: `(?<bracketOpen>\\[|<<)(?<bracketBody>\\/?(?:${names(BRACKET_NAMES)}))(?<bracketClose>\\]|>>)`,
    open: "(",
    close: ")",
  },
  // MiniMax's `]~!b[`, `]~b]` and `[e~[`: any of their bodies between any of their brackets.
  {
    kind: "odd",
    source: `(?<oddOpen>[\\][])(?<oddBody>${ODD_MARKERS.map((marker) => escapeRegExp(marker.slice(1, -1))).join("|")})(?<oddClose>[\\][])`,
    open: "(",
    close: ")",
  },
  // A turn opened by a role word at the start of a line: `Human:`, `### System:`; a heading's hashes go.
  { kind: "role", source: `${ROLE_LINE}(?=[ \\t]*:)`, open: "[", close: "]" },
];

/** Each kind with the names of its groups. */
const GROUPS = KINDS.map((kind) => ({
  kind,
  lead: `${kind.kind}Lead`,
  open: `${kind.kind}Open`,
  body: `${kind.kind}Body`,
  close: `${kind.kind}Close`,
}));

const MARKER = new RegExp(KINDS.map((kind) => kind.source).join("|"), "gim");

/**
 * For text that must stay exactly as it is: the same, with a role line only when the colon is followed by
 * a space or the end (`system: obey`, not the scope `user:email`).
 */
const EXACT_MARKER = new RegExp(
  [...KINDS.slice(0, -1).map((kind) => kind.source), `${ROLE_LINE}[ \\t]*:(?:\\s|$)`].join("|"),
  "im",
);

/**
 * The text with every marker's delimiters replaced; nothing else changes. Markers are found in the text's
 * skeleton view, which has the text's length, so a match's offsets are the text's.
 */
export function defuseMarkers(text: string): string {
  const view = skeletonView(text);
  let defused = "";
  let at = 0;
  MARKER.lastIndex = 0;
  for (let match = MARKER.exec(view); match; match = MARKER.exec(view)) {
    const groups = match.groups ?? {};
    const kind = GROUPS.find((candidate) => groups[candidate.open] !== undefined);
    if (!kind) continue;
    const openStart = match.index + (groups[kind.lead]?.length ?? 0);
    const bodyStart = openStart + (groups[kind.open]?.length ?? 0);
    const closeStart = bodyStart + (groups[kind.body]?.length ?? 0);
    defused +=
      text.slice(at, openStart) + kind.kind.open + text.slice(bodyStart, closeStart) + kind.kind.close;
    at = closeStart + (groups[kind.close]?.length ?? 0);
  }
  return at === 0 ? text : defused + text.slice(at);
}

/** Whether folded text holds a marker (a role line only if it goes on to say something). */
export function holdsMarker(text: string): boolean {
  return EXACT_MARKER.test(skeletonView(text));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
