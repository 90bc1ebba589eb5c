/**
 * @module The approval inbox: the tenant's approvals waiting on a person (pending ones to decide,
 * interrupted ones to retry), kept in step with the server on every refresh (the event stream asks for
 * one whenever an approval is requested or resolved), and acted on here with the session's CSRF token.
 */
import { failureText, getJson, postJson } from "./api.js";
import { noteOf, setBusy, showFailure } from "./approval-card.js";
import { el, setStatus } from "./dom.js";
import { formatTime } from "./format.js";
import { answersOf, inboxCard } from "./question-card.js";

const KEPT_DECISIONS = 5;
const MAX_CONTENT = 300;

export function createInbox({ list, empty, status, decisions }, { csrfToken, onCount }) {
  const cards = new Map();
  let latest = 0;

  async function refresh() {
    const request = ++latest;
    try {
      const [pending, interrupted] = await Promise.all(
        ["pending", "interrupted"].map((status) => getJson(`/api/v1/approvals?status=${status}`)),
      );
      if (request !== latest) return;
      // The interrupted first: an operator must look at them, and they wait for no expiry.
      reconcile([...interrupted.approvals, ...pending.approvals]);
      setStatus(status, "");
    } catch (error) {
      if (request === latest) setStatus(status, failureText(error), "error");
    }
  }

  /** Adds new cards and drops resolved ones, leaving the rest in place: a note being typed survives. */
  function reconcile(approvals) {
    const pending = new Set(approvals.map((record) => record.id));
    for (const id of cards.keys()) if (!pending.has(id)) drop(id);
    let previous = null;
    for (const record of approvals) {
      let card = cards.get(record.id);
      if (!card) {
        card = inboxCard(record, (decision, pressed) => decide(record, decision, pressed));
        cards.set(record.id, card);
      }
      if (!card.isConnected || card.previousElementSibling !== previous) {
        if (previous) previous.after(card);
        else list.prepend(card);
      }
      previous = card;
    }
    counted();
  }

  async function decide(record, decision, card) {
    setBusy(card, true);
    const note = noteOf(card);
    try {
      const body = note ? { note } : {};
      if (decision === "answer") body.answers = answersOf(card);
      const answer = await postJson(
        `/api/v1/approvals/${encodeURIComponent(record.id)}/${decision}`,
        body,
        csrfToken,
      );
      remember(outcomeOf(record, decision, answer.result));
      drop(record.id);
      counted();
    } catch (error) {
      const text = `Could not ${decision} ${record.toolName}: ${failureText(error)}`;
      showFailure(card, text);
      remember({ text, failed: true });
      setBusy(card, false);
      // Someone else may have decided it meanwhile: show the inbox as it now is.
      refresh();
    }
  }

  /** The last few decisions taken here stay in view after their cards have left. */
  function remember({ text, failed }) {
    const at = Date.now();
    decisions.prepend(
      el(
        "li",
        { class: failed ? "decision failed" : "decision" },
        el("time", { datetime: new Date(at).toISOString() }, formatTime(at)),
        " ",
        text,
      ),
    );
    while (decisions.children.length > KEPT_DECISIONS) decisions.lastElementChild.remove();
    decisions.hidden = false;
  }

  function drop(id) {
    cards.get(id)?.remove();
    cards.delete(id);
  }

  function counted() {
    empty.hidden = cards.size > 0;
    onCount(cards.size);
  }

  return { refresh };
}

function outcomeOf(record, decision, result) {
  const tool = record.toolName;
  if (decision === "deny") return { text: `Denied ${tool}: it will not run.`, failed: false };
  const done = { retry: "Retried", answer: "Answered" }[decision] ?? "Approved";
  if (result?.ok) {
    const content =
      result.content.length > MAX_CONTENT ? `${result.content.slice(0, MAX_CONTENT)}…` : result.content;
    return { text: `${done} ${tool}: it ran and answered “${content}”.`, failed: false };
  }
  const error = result?.error;
  return {
    text: `${done} ${tool}, but the call did not succeed: ${error?.code ?? "no result"}${error ? ` (${error.message})` : ""}.`,
    failed: true,
  };
}
