/**
 * @module One approval waiting on a person, as a card: a pending one with what the call would do, who
 * asked and the decision buttons; an interrupted one (its run's outcome lost) with what is known of the
 * run and a retry button, for an operator who has checked the target system.
 */
import { badge, el } from "./dom.js";
import { EFFECT_TONE, formatJson, formatTime } from "./format.js";

/**
 * `decide(decision, card)` runs when a button is pressed; the card shows its own failures (see `showFailure`).
 * `asked` (a call that puts questions or a plan to a person, see question-card.js) replaces the arguments
 * with its own `body`, says what is asked in its own `lead`, and may name its own `decisions` and button
 * `labels`.
 */
export function approvalCard(record, decide, asked = undefined) {
  const interrupted = record.status === "interrupted";
  const expired = !interrupted && record.expiresAt <= Date.now();
  const fact = (term, detail, wide = false) =>
    el("div", { class: wide ? "fact-wide" : undefined }, el("dt", {}, term), el("dd", {}, detail));
  const time = (at) => el("time", { datetime: new Date(at).toISOString() }, formatTime(at));
  const decisions = interrupted ? ["retry"] : (asked?.decisions ?? ["approve", "deny"]);
  const labels = { ...LABELS, ...asked?.labels };
  const card = el(
    "li",
    { class: interrupted ? "card approval interrupted" : "card approval" },
    el(
      "div",
      { class: "card-head" },
      el("code", { class: "tool-name" }, record.toolName),
      el("span", { class: "muted" }, `v${record.toolVersion}`),
      badge(record.effect, EFFECT_TONE[record.effect]),
      expired && badge("expired", "danger"),
      interrupted && badge("interrupted", "danger"),
    ),
    el("p", { class: "description" }, asked?.lead ?? record.description),
    interrupted &&
      el(
        "p",
        { class: "warning" },
        `Approved, then ${record.interruption?.reason === "shutdown" ? "its process stopped" : "its process was lost"} before it finished: it may or may not have had its effect. Check the target system before you retry it.`,
      ),
    el(
      "dl",
      { class: "facts" },
      fact("Requested by", record.requestedBy),
      fact("Requested at", time(record.createdAt)),
      interrupted ? fact("Approved by", record.decidedBy ?? "") : fact("Expires", time(record.expiresAt)),
      ...(interrupted ? interruptionFacts(record.interruption ?? {}, fact, time) : []),
      fact("Approval id", el("code", {}, record.id), true),
    ),
    asked ? asked.body : [el("h3", {}, "Arguments"), el("pre", { class: "json" }, formatJson(record.input))],
    el(
      "div",
      { class: "decide" },
      el(
        "label",
        { class: "field note" },
        "Note (optional)",
        el("input", { type: "text", name: "note", maxlength: 2000, autocomplete: "off" }),
      ),
      decisions.map((decision) =>
        el(
          "button",
          {
            type: "button",
            class: decision === "deny" ? "danger" : "primary",
            "aria-label": `${labels[decision]} ${record.toolName} (${record.id.slice(0, 8)})`,
            onclick: () => decide(decision, card),
          },
          labels[decision],
        ),
      ),
    ),
    el("p", { class: "alert", role: "alert", hidden: true }),
  );
  return card;
}

const LABELS = { approve: "Approve", deny: "Deny", retry: "Retry", answer: "Send answers" };

/** What is known of an interrupted run: when it started, where, and its last sign of life. */
function interruptionFacts(known, fact, time) {
  return [
    known.startedAt ? fact("Started at", time(known.startedAt)) : false,
    known.lastHeartbeat ? fact("Last heartbeat", time(known.lastHeartbeat)) : false,
    known.at ? fact("Interrupted at", time(known.at)) : false,
    known.holder ? fact("Ran in", el("code", {}, known.holder)) : false,
  ].filter(Boolean);
}

/** While a decision is on its way, neither button can be pressed again. */
export function setBusy(card, busy) {
  for (const button of card.querySelectorAll("button")) button.disabled = busy;
  card.classList.toggle("busy", busy);
}

export function showFailure(card, text) {
  const alert = card.querySelector(".alert");
  alert.textContent = text;
  alert.hidden = false;
}

export function noteOf(card) {
  return card.querySelector("input[name=note]").value.trim();
}
