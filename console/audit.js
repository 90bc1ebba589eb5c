/** @module The audit trail: the tenant's events, newest first, a page at a time. */
import { failureText, getJson } from "./api.js";
import { badge, el, setStatus } from "./dom.js";
import { formatTime, outcomeTone } from "./format.js";

const PAGE_SIZE = 50;

export function createAudit({ rows, status, more }) {
  let next = null;
  // Bumped by every refresh, so a page that arrives after a refresh began is dropped, not appended.
  let generation = 0;

  async function load(fresh) {
    const mine = fresh ? ++generation : generation;
    const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
    if (!fresh && next) query.set("before", next);
    more.disabled = true;
    try {
      const page = await getJson(`/api/v1/audit?${query}`);
      if (mine !== generation) return;
      const built = page.events.map(auditRow);
      if (fresh) rows.replaceChildren(...built);
      else rows.append(...built);
      next = page.next;
      more.hidden = next === null;
      setStatus(status, rows.children.length === 0 ? "Nothing has been recorded yet." : "");
    } catch (error) {
      if (mine === generation) setStatus(status, failureText(error), "error");
    } finally {
      if (mine === generation) more.disabled = false;
    }
  }

  more.addEventListener("click", () => load(false));
  return { refresh: () => load(true) };
}

function auditRow(event) {
  const cell = (label, ...children) => el("td", { "data-label": label }, ...children);
  return el(
    "tr",
    { title: event.message },
    cell("Time", el("time", { datetime: new Date(event.at).toISOString() }, formatTime(event.at))),
    cell("Kind", event.kind),
    cell("Tool", el("code", {}, event.tool)),
    cell("Actor", event.actor),
    cell("Outcome", badge(event.outcome, outcomeTone(event.outcome))),
    cell("Approval", event.approvalId ? el("code", { class: "id" }, event.approvalId) : "—"),
  );
}
