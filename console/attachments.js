/**
 * @module The attachments page: the files the signed-in person uploaded for their agents (those of every run,
 * and a run's when one is named), uploaded here as multipart and removed here. The server decides whose they
 * are from the session, never from the form.
 */
import { failureText, getJson, postForm, sendDelete } from "./api.js";
import { badge, el, setStatus } from "./dom.js";
import { formatTime } from "./format.js";

/** The server's cap on one file; a larger one is refused here before it is sent. */
const MAX_BYTES = 25 * 1024 * 1024;

const sizeText = (bytes) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KiB`
      : `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

export function createAttachments({ rows, status, form }, { csrfToken }) {
  let latest = 0;
  /** The run whose files the list shows beside those of every run. */
  let listedRun = "";
  const runOf = () => form.elements.namedItem("runId").value.trim();

  /** Loads the list again; `done` says what was just done, else the status tells an empty list. */
  async function refresh(done) {
    const request = ++latest;
    const run = runOf();
    listedRun = run;
    try {
      const answer = await getJson(listPath(run));
      if (request !== latest) return;
      rows.replaceChildren(...answer.attachments.map(attachmentRow), ...moreRow(answer.next, run));
      setStatus(status, done ?? (answer.attachments.length === 0 ? "No attachment yet." : ""));
    } catch (error) {
      if (request === latest) setStatus(status, failureText(error), "error");
    }
  }

  const listPath = (run, after) => {
    const query = new URLSearchParams();
    if (run) query.set("runId", run);
    if (after) query.set("after", after);
    return `/api/v1/attachments${query.size > 0 ? `?${query}` : ""}`;
  };

  /** When the list goes on past this page, a last row whose button loads the next page in its place. */
  function moreRow(next, run) {
    if (next === undefined) return [];
    const button = el("button", { type: "button", onclick: () => more(next, run, row, button) }, "More");
    const row = el("tr", { class: "more" }, el("td", { colspan: "7" }, button));
    return [row];
  }

  async function more(next, run, row, button) {
    // A refresh since this page was listed makes its next page stale.
    const request = latest;
    button.disabled = true;
    try {
      const answer = await getJson(listPath(run, next));
      if (request !== latest) return;
      row.replaceWith(...answer.attachments.map(attachmentRow), ...moreRow(answer.next, run));
    } catch (error) {
      if (request !== latest) return;
      setStatus(status, failureText(error), "error");
      button.disabled = false;
    }
  }

  function attachmentRow(attachment) {
    const cell = (label, ...children) => el("td", { "data-label": label }, ...children);
    const time = (at) => el("time", { datetime: new Date(at).toISOString() }, formatTime(at));
    return el(
      "tr",
      { "data-id": attachment.id },
      cell("Name", attachment.name),
      cell("Type", el("code", {}, attachment.mediaType)),
      cell("Size", sizeText(attachment.size)),
      cell(
        "Run",
        attachment.runId === undefined ? badge("every run", "calm") : el("code", {}, attachment.runId),
      ),
      cell("Uploaded", time(attachment.createdAt)),
      cell("Expires", time(attachment.expiresAt)),
      cell(
        "Action",
        el(
          "button",
          {
            type: "button",
            class: "danger",
            "aria-label": `Remove ${attachment.name}`,
            onclick: (event) => remove(attachment, event.currentTarget),
          },
          "Remove",
        ),
      ),
    );
  }

  async function remove(attachment, button) {
    button.disabled = true;
    const run = attachment.runId ? `?runId=${encodeURIComponent(attachment.runId)}` : "";
    try {
      await sendDelete(`/api/v1/attachments/${encodeURIComponent(attachment.id)}${run}`, csrfToken);
      refresh(`Removed ${attachment.name}.`);
    } catch (error) {
      setStatus(status, `Could not remove ${attachment.name}: ${failureText(error)}`, "error");
      button.disabled = false;
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = form.elements.namedItem("file").files[0];
    if (!file) return setStatus(status, "Choose a file to upload.", "error");
    if (file.size > MAX_BYTES)
      return setStatus(
        status,
        `${file.name} is over the ${sizeText(MAX_BYTES)} an attachment may be.`,
        "error",
      );
    const body = new FormData();
    body.set("file", file, file.name);
    const run = runOf();
    if (run) body.set("runId", run);
    const submit = form.querySelector("button[type=submit]");
    submit.disabled = true;
    try {
      const added = await postForm("/api/v1/attachments", body, csrfToken);
      form.elements.namedItem("file").value = "";
      refresh(`Uploaded ${added.name} (${sizeText(added.size)}).`);
    } catch (error) {
      setStatus(status, `Could not upload ${file.name}: ${failureText(error)}`, "error");
    } finally {
      submit.disabled = false;
    }
  });
  // Listed again only for another run: leaving the field unchanged keeps the status (an upload's refusal, say).
  form.elements.namedItem("runId").addEventListener("change", () => {
    if (runOf() !== listedRun) refresh();
  });

  return { refresh };
}
