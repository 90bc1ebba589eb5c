/**
 * @module The credentials page: the vendor connections the signed-in user can see (metadata only; the
 * server never sends a secret), revoked here; a pasted token stored, its field cleared at once and never
 * shown again; or an OAuth connection begun, by following toolreg's consent start link.
 */
import { failureText, getJson, postJson } from "./api.js";
import { badge, el, setStatus } from "./dom.js";
import { formatTime } from "./format.js";

export function createCredentials({ rows, status, connect, form }, { csrfToken, operator }) {
  let connectable = [];
  let latest = 0;

  /** Loads the list again; `done` says what was just done, else the status tells an empty list. */
  async function refresh(done) {
    const request = ++latest;
    try {
      const answer = await getJson("/api/v1/credentials");
      if (request !== latest) return;
      connectable = answer.connectable;
      rows.replaceChildren(...answer.credentials.map(credentialRow));
      showConnectable();
      setStatus(status, done ?? (answer.credentials.length === 0 ? "No credential is connected yet." : ""));
    } catch (error) {
      if (request === latest) setStatus(status, failureText(error), "error");
    }
  }

  function credentialRow(credential) {
    const cell = (label, ...children) => el("td", { "data-label": label }, ...children);
    const time = (at) => el("time", { datetime: new Date(at).toISOString() }, formatTime(at));
    const revoked = credential.revokedAt !== undefined;
    const expired = !revoked && credential.expiresAt !== undefined && credential.expiresAt <= Date.now();
    const state = revoked
      ? [badge("revoked", "danger"), " ", time(credential.revokedAt)]
      : [
          badge(expired ? "expired" : "connected", expired ? "warn" : "calm"),
          " ",
          time(credential.updatedAt),
          credential.expiresAt !== undefined && [" · expires ", time(credential.expiresAt)],
        ];
    const whose = credential.principalId ?? null;
    return el(
      "tr",
      { "data-ref": credential.ref },
      cell("Ref", el("code", {}, credential.ref)),
      cell("Provider", credential.provider),
      cell("Kind", credential.kind),
      cell("Account", credential.account ?? "—"),
      cell("Scopes", credential.scopes.length > 0 ? credential.scopes.join(", ") : "—"),
      cell("Whose", whose ?? "the tenant's"),
      cell("State", el("span", { title: `connected by ${credential.connectedBy}` }, ...state)),
      cell(
        "Action",
        !revoked &&
          el(
            "button",
            {
              type: "button",
              class: "danger",
              "aria-label": `Revoke ${credential.ref} (${whose ?? "the tenant's"})`,
              onclick: (event) => revoke(credential, whose, event.currentTarget),
            },
            "Revoke",
          ),
      ),
    );
  }

  async function revoke(credential, principalId, button) {
    button.disabled = true;
    try {
      await postJson("/api/v1/credentials/revoke", { ref: credential.ref, principalId }, csrfToken);
      refresh(`Revoked ${credential.ref}: its secret is erased.`);
    } catch (error) {
      setStatus(status, `Could not revoke ${credential.ref}: ${failureText(error)}`, "error");
      button.disabled = false;
    }
  }

  /** The form's choice of credential, and a Connect button for each one whose provider can ask for consent. */
  function showConnectable() {
    const label = (entry) => (entry.ref === entry.provider ? entry.ref : `${entry.ref} (${entry.provider})`);
    const select = form.elements.namedItem("credential");
    const chosen = select.value;
    select.replaceChildren(
      ...connectable.map((entry, index) => el("option", { value: index }, label(entry))),
    );
    if (chosen && Number(chosen) < connectable.length) select.value = chosen;
    connect.replaceChildren(
      ...connectable
        .filter((entry) => entry.oauth)
        .map((entry) =>
          el(
            "li",
            {},
            el("button", { type: "button", onclick: (event) => startOAuth(entry, event.currentTarget) }, [
              "Connect ",
              label(entry),
              " with OAuth",
            ]),
          ),
        ),
    );
  }

  async function startOAuth(entry, button) {
    button.disabled = true;
    try {
      const { consentUrl } = await postJson(
        "/api/v1/credentials/connect",
        { ref: entry.ref, provider: entry.provider },
        csrfToken,
      );
      const target = new URL(consentUrl, location.href);
      if (target.protocol !== "https:" && target.protocol !== "http:") throw new Error("not a web link");
      location.assign(target.href);
    } catch (error) {
      setStatus(status, `Could not connect ${entry.ref}: ${failureText(error)}`, "error");
      button.disabled = false;
    }
  }

  // Only an operator stores the tenant's credentials: anyone else stores their own.
  if (!operator) form.elements.namedItem("whose").closest("label").remove();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const fields = form.elements;
    const entry = connectable[Number(fields.namedItem("credential").value)];
    const tokenField = fields.namedItem("token");
    const token = tokenField.value.trim();
    // Cleared before the request: the secret stays on the page no longer than it takes to send it.
    tokenField.value = "";
    if (!entry) return setStatus(status, "No served toolkit uses a credential to connect.", "error");
    const account = fields.namedItem("account").value.trim();
    const scopes = fields
      .namedItem("scopes")
      .value.split(",")
      .map((scope) => scope.trim())
      .filter(Boolean);
    const body = {
      ref: entry.ref,
      provider: entry.provider,
      token,
      ...(account ? { account } : {}),
      ...(scopes.length > 0 ? { scopes } : {}),
      ...(operator && fields.namedItem("whose").value === "tenant" ? { principalId: null } : {}),
    };
    const submit = form.querySelector("button[type=submit]");
    submit.disabled = true;
    try {
      const stored = await postJson("/api/v1/credentials", body, csrfToken);
      form.reset();
      refresh(`Stored ${stored.ref} for ${stored.provider}.`);
    } catch (error) {
      setStatus(status, `Could not store ${entry.ref}: ${failureText(error)}`, "error");
    } finally {
      submit.disabled = false;
    }
  });

  return { refresh };
}
