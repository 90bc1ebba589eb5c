/**
 * @module The knowledge page: the tenant's knowledge sources the signed-in person may read (an operator sees
 * them all), and, for an operator, a form that adds a page by URL or a pasted text, and removal. Who may find
 * a source is said by its readers; the server decides the tenant from the session.
 */
import { failureText, getJson, postJson, sendDelete } from "./api.js";
import { badge, el, setStatus } from "./dom.js";
import { formatTime } from "./format.js";

export function createKnowledge({ rows, status, form }, { csrfToken, operator }) {
  let latest = 0;
  form.hidden = !operator;

  async function refresh(done) {
    const request = ++latest;
    try {
      // Every page: the server filters to what this person may read before it pages.
      const sources = [];
      let next = null;
      do {
        const query = next === null ? "" : `?after=${encodeURIComponent(next)}`;
        const answer = await getJson(`/api/v1/kb${query}`);
        if (request !== latest) return;
        sources.push(...answer.sources);
        next = answer.next;
      } while (next !== null && next !== undefined);
      rows.replaceChildren(...sources.map(sourceRow));
      setStatus(status, done ?? (sources.length === 0 ? "No knowledge source yet." : ""));
    } catch (error) {
      if (request === latest) setStatus(status, failureText(error), "error");
    }
  }

  function sourceRow(source) {
    const cell = (label, ...children) => el("td", { "data-label": label }, ...children);
    return el(
      "tr",
      { "data-id": source.id },
      cell("Title", source.title),
      cell(
        "Kind",
        source.kind === "url"
          ? el("a", { href: source.origin, rel: "noopener noreferrer" }, source.origin)
          : source.kind,
      ),
      cell("Status", badge(source.status, source.status === "ready" ? "calm" : "warn")),
      cell("Chunks", String(source.chunkCount)),
      cell("Readers", source.authSubjects.join(", ")),
      cell(
        "Indexed",
        source.indexedAt === undefined
          ? "—"
          : el("time", { datetime: new Date(source.indexedAt).toISOString() }, formatTime(source.indexedAt)),
      ),
      cell(
        "Action",
        operator
          ? el(
              "button",
              {
                type: "button",
                class: "danger",
                "aria-label": `Remove ${source.title}`,
                onclick: (event) => remove(source, event.currentTarget),
              },
              "Remove",
            )
          : "",
      ),
    );
  }

  async function remove(source, button) {
    button.disabled = true;
    try {
      await sendDelete(`/api/v1/kb/${encodeURIComponent(source.id)}`, csrfToken);
      refresh(`Removed ${source.title}.`);
    } catch (error) {
      setStatus(status, `Could not remove ${source.title}: ${failureText(error)}`, "error");
      button.disabled = false;
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const value = (name) => form.elements.namedItem(name).value.trim();
    const url = value("url");
    const text = value("text");
    if ((url === "") === (text === "")) return setStatus(status, "Give a URL or a text, not both.", "error");
    const subjects = value("subjects")
      .split(",")
      .map((subject) => subject.trim())
      .filter((subject) => subject !== "");
    const body = {
      ...(url ? { url } : { text }),
      ...(value("title") ? { title: value("title") } : {}),
      ...(subjects.length > 0 ? { subjects } : {}),
    };
    const submit = form.querySelector("button[type=submit]");
    submit.disabled = true;
    setStatus(status, "Reading and indexing…");
    try {
      const added = await postJson("/api/v1/kb", body, csrfToken);
      form.reset();
      refresh(`Added ${added.source.title}: ${added.source.chunkCount} chunks.`);
    } catch (error) {
      setStatus(status, `Could not add it: ${failureText(error)}`, "error");
    } finally {
      submit.disabled = false;
    }
  });

  return { refresh };
}
