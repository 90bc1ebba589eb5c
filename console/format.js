/** @module How the console writes times, JSON and governance values. */

const TIME = { month: "short", day: "numeric", hour: "numeric", minute: "2-digit", second: "2-digit" };
const thisYear = new Intl.DateTimeFormat(undefined, TIME);
const otherYear = new Intl.DateTimeFormat(undefined, { ...TIME, year: "numeric" });

/** Epoch milliseconds as a local date and time; the year only when it is not this one. */
export function formatTime(at) {
  const date = new Date(at);
  return (date.getFullYear() === new Date().getFullYear() ? thisYear : otherYear).format(date);
}

export function formatJson(value) {
  return JSON.stringify(value, null, 2) ?? "undefined";
}

/** Badge tones by effect: the further a call reaches, the warmer the colour. */
export const EFFECT_TONE = {
  read: "calm",
  "internal-write": "info",
  "external-write": "warn",
  destructive: "danger",
};

/** Badge tone of an audit outcome: success, waiting, or any error code. */
export function outcomeTone(outcome) {
  if (outcome === "ok" || outcome === "approved") return "calm";
  if (outcome === "approval_required") return "warn";
  if (outcome === "replayed") return "neutral";
  return "danger";
}
