/**
 * @module A credential sent as a top-level field of the JSON body (ModelsLab's `key`), for a vendor that takes
 * it nowhere else. It is added to the bytes that go on the wire only, after the caller's body is checked to
 * be a JSON object without that field: a caller (or a model) can neither set the field nor have the client
 * send a body the vendor would read the key from some other way.
 */
import { EgressRefusedError } from "./egress-refused-error.js";

/** The body to send to `host`: the caller's JSON object with `field` set to `secret`, re-serialised. */
export function bodyWithCredential(
  body: Uint8Array | undefined,
  field: string,
  secret: string,
  host: string,
  url: string,
): Buffer {
  const refuse = (why: string) =>
    new EgressRefusedError(
      "credential_body",
      `${host} takes the deployment's credential as the "${field}" field of a JSON object body; ${why}`,
      { url, field },
    );
  if (body === undefined || body.byteLength === 0) throw refuse("this request has no body");
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    throw refuse("this request's body is not JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw refuse("this request's body is not a JSON object");
  }
  // Compared without case as well: a server that folds case would otherwise read the caller's spelling.
  const wanted = field.toLowerCase();
  if (Object.keys(parsed).some((name) => name.toLowerCase() === wanted)) {
    throw refuse("the caller may not set it");
  }
  // Re-serialised, so a duplicate name in the caller's text (which a parser may read either way) is gone.
  return Buffer.from(JSON.stringify({ ...parsed, [field]: secret }));
}
