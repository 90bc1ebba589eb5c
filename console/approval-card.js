/** @module One pending approval as a card: what the call would do, who asked, and the decision buttons. */
import { badge, el } from "./dom.js";
import { EFFECT_TONE, formatJson, formatTime } from "./format.js";

/** `decide(decision, card)` runs when a button is pressed; the card shows its own failures (see `showFailure`). */
export function approvalCard(record, decide) {
  const expired = record.expiresAt <= Date.now();
  const fact = (term, detail, wide = false) =>
    el("div", { class: wide ? "fact-wide" : undefined }, el("dt", {}, term), el("dd", {}, detail));
  const time = (at) => el("time", { datetime: new Date(at).toISOString() }, formatTime(at));
  const card = el(
    "li",
    { class: "card approval" },
    el(
      "div",
      { class: "card-head" },
      el("code", { class: "tool-name" }, record.toolName),
      el("span", { class: "muted" }, `v${record.toolVersion}`),
      badge(record.effect, EFFECT_TONE[record.effect]),
      expired && badge("expired", "danger"),
    ),
    el("p", { class: "description" }, record.description),
    el(
      "dl",
      { class: "facts" },
      fact("Requested by", record.requestedBy),
      fact("Requested at", time(record.createdAt)),
      fact("Expires", time(record.expiresAt)),
      fact("Approval id", el("code", {}, record.id), true),
    ),
    el("h3", {}, "Arguments"),
    el("pre", { class: "json" }, formatJson(record.input)),
    el(
      "div",
      { class: "decide" },
      el(
        "label",
        { class: "field note" },
        "Note (optional)",
        el("input", { type: "text", name: "note", maxlength: 2000, autocomplete: "off" }),
      ),
      ["approve", "deny"].map((decision) =>
        el(
          "button",
          {
            type: "button",
            class: decision === "approve" ? "primary" : "danger",
            "aria-label": `${decision === "approve" ? "Approve" : "Deny"} ${record.toolName} (${record.id.slice(0, 8)})`,
            onclick: () => decide(decision, card),
          },
          decision === "approve" ? "Approve" : "Deny",
        ),
      ),
    ),
    el("p", { class: "alert", role: "alert", hidden: true }),
  );
  return card;
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
