/**
 * @module A credential sent as a top-level field of the JSON body (ModelsLab's `key`), for a vendor that takes
 * it nowhere else. Before the secret is even resolved, the request is checked: a JSON object body without
 * that field, sent as `application/json` and unencoded, and no query parameter of the field's name (a server
 * may read its input from the query first). The field is then added to the caller's bytes as written, so the
 * vendor reads exactly the caller's values (no number re-serialised) and the deployment's key.
 */
import { EgressRefusedError } from "./egress-refused-error.js";
import { hasQueryParameter } from "./query-credential.js";

/** The caller's body when it may carry `field`, throwing `credential_body` when it may not. */
export function checkCredentialBody(
  body: Uint8Array | undefined,
  field: string,
  callerHeaders: Readonly<Record<string, string>>,
  url: URL,
  host: string,
  named: string,
): Uint8Array {
  const refuse = (why: string) =>
    new EgressRefusedError(
      "credential_body",
      `${host} takes the deployment's credential as the "${field}" field of a JSON object body; ${why}`,
      { url: named, field },
    );
  // A form or multipart parser would read the JSON's text as fields of its own, one of which could be the key.
  const type = callerHeaders["content-type"];
  if (type !== undefined && !/^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i.test(type))
    throw refuse(`a ${type.slice(0, 60)} body may not carry it`);
  if (callerHeaders["content-encoding"] !== undefined) throw refuse("an encoded body may not carry it");
  if (hasQueryParameter(url, field)) throw refuse("the caller may not set it, in the query either");
  if (body === undefined || body.byteLength === 0) throw refuse("this request has no body");
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    throw refuse("this request's body is not JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw refuse("this request's body is not a JSON object");
  // Compared without case as well: a server that folds case would otherwise read the caller's spelling.
  const wanted = field.toLowerCase();
  const names = Object.keys(parsed);
  if (names.some((name) => name.toLowerCase() === wanted)) throw refuse("the caller may not set it");
  return body;
}

/** `body` (checked by checkCredentialBody) with `"field":secret` added before its closing brace. */
export function withBodyCredential(body: Uint8Array, field: string, secret: string): Buffer {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const close = bytes.lastIndexOf(0x7d);
  // Whether the object has members already: the last byte before the brace that is not white space is `{` if not.
  let before = close - 1;
  while (before >= 0 && [0x20, 0x09, 0x0a, 0x0d].includes(bytes[before] ?? 0)) before -= 1;
  const separator = bytes[before] === 0x7b ? "" : ",";
  return Buffer.concat([
    bytes.subarray(0, close),
    Buffer.from(`${separator}${JSON.stringify(field)}:${JSON.stringify(secret)}`),
    bytes.subarray(close),
  ]);
}
