/**
 * @module The toolreg web console: the catalogue, the approval inbox, the audit trail and the credentials of
 * the signed-in operator's tenant. Plain modules, no build step; every text from the server is set as text, never HTML.
 */
import { ApiError, failureText, getJson } from "./api.js";
import { createAttachments } from "./attachments.js";
import { createAudit } from "./audit.js";
import { createCatalogue } from "./catalogue.js";
import { createCredentials } from "./credentials.js";
import { setStatus } from "./dom.js";
import { createInbox } from "./inbox.js";
import { createKnowledge } from "./knowledge.js";
import { followEvents } from "./live.js";
import { setupTabs } from "./tabs.js";

const byId = (id) => document.getElementById(id);

async function start() {
  let session;
  try {
    session = await getJson("/api/v1/session");
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) byId("signed-out").hidden = false;
    else setStatus(byId("start-failure"), failureText(error), "error");
    return;
  }
  byId("who").textContent =
    `${session.principalId} · ${session.tenantId}${session.operator ? " · operator" : ""}`;
  byId("who").hidden = false;
  byId("console").hidden = false;

  const catalogue = createCatalogue({
    form: byId("tool-search"),
    list: byId("tool-list"),
    status: byId("tool-status"),
  });
  const audit = createAudit({
    rows: byId("audit-rows"),
    status: byId("audit-status"),
    more: byId("audit-more"),
  });
  const inbox = createInbox(
    {
      list: byId("approval-list"),
      empty: byId("inbox-empty"),
      status: byId("inbox-status"),
      decisions: byId("decisions"),
    },
    { csrfToken: session.csrfToken, onCount: showPendingCount },
  );
  const credentials = createCredentials(
    {
      rows: byId("credential-rows"),
      status: byId("credentials-status"),
      connect: byId("oauth-connect"),
      form: byId("token-form"),
    },
    { csrfToken: session.csrfToken, operator: session.operator },
  );
  byId("inbox-refresh").addEventListener("click", () => inbox.refresh());
  byId("credentials-refresh").addEventListener("click", () => credentials.refresh());
  const attachments = createAttachments(
    { rows: byId("attachment-rows"), status: byId("attachments-status"), form: byId("attachment-form") },
    { csrfToken: session.csrfToken },
  );
  byId("attachments-refresh").addEventListener("click", () => attachments.refresh());
  const knowledge = createKnowledge(
    { rows: byId("knowledge-rows"), status: byId("knowledge-status"), form: byId("knowledge-form") },
    { csrfToken: session.csrfToken, operator: session.operator },
  );
  byId("knowledge-refresh").addEventListener("click", () => knowledge.refresh());
  byId("audit-refresh").addEventListener("click", () => audit.refresh());

  setupTabs(byId("tabs"), (view) => {
    if (view === "audit") audit.refresh();
    // Loaded when opened: a server that keeps no credentials answers 404, which only this page shows.
    if (view === "credentials") credentials.refresh();
    if (view === "attachments") attachments.refresh();
    if (view === "knowledge") knowledge.refresh();
  });
  // Loaded now and again on each `ready`: the views fill even where the event stream cannot connect.
  catalogue.load();
  inbox.refresh();
  followEvents(
    {
      "approval.requested": () => inbox.refresh(),
      "approval.resolved": () => {
        inbox.refresh();
        audit.refresh();
      },
      "tool.update": () => catalogue.load(),
      ready: () => {
        catalogue.load();
        inbox.refresh();
        audit.refresh();
      },
    },
    byId("live"),
  );
}

/** The count on the Approvals tab, and in the window title so a background tab shows it too. */
function showPendingCount(count) {
  const badge = byId("pending-count");
  badge.hidden = count === 0;
  byId("pending-number").textContent = String(count);
  document.title = count > 0 ? `(${count}) toolreg console` : "toolreg console";
}

start();
