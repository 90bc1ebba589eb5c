/** @module The console's calls to the registry API: JSON in and out, and problems as `ApiError`. */

/** A failed request: the problem's `detail` as the message, its `code` and the HTTP status. */
export class ApiError extends Error {
  constructor(status, detail, code) {
    super(detail);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
  }
}

export async function getJson(path) {
  return read(await fetch(path, { headers: { accept: "application/json" } }));
}

/** A state-changing call: the session's CSRF token goes in the header the server checks. */
export async function postJson(path, body, csrfToken) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", "x-csrf-token": csrfToken },
    body: JSON.stringify(body),
  });
  return read(response);
}

/** An upload: `form` as multipart/form-data (the browser sets its boundary), with the CSRF token. */
export async function postForm(path, form, csrfToken) {
  const response = await fetch(path, {
    method: "POST",
    headers: { accept: "application/json", "x-csrf-token": csrfToken },
    body: form,
  });
  return read(response);
}

/** A removal, with the CSRF token; its answer has no body. */
export async function sendDelete(path, csrfToken) {
  const response = await fetch(path, {
    method: "DELETE",
    headers: { accept: "application/json", "x-csrf-token": csrfToken },
  });
  return read(response);
}

async function read(response) {
  const body = await response.json().catch(() => undefined);
  if (response.ok) return body;
  const detail = typeof body?.detail === "string" ? body.detail : `the server answered ${response.status}`;
  throw new ApiError(response.status, detail, body?.code);
}

/** A message for any failure: the problem's detail, or why the request did not complete. */
export function failureText(error) {
  return error instanceof ApiError ? error.message : `the registry did not answer (${error.message})`;
}
