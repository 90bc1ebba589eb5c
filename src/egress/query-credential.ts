/**
 * @module A credential sent in the URL's query (OpenWeather's `appid`, NCBI's `api_key`): added to the
 * path that goes on the wire only, so every URL the client reports is the caller's, without it; and the
 * means to find it where a server echoed it back (a redirect's location, a header).
 */

/** What a redacted secret is replaced with wherever the client reports text that held it. */
export const REDACTED = "REDACTED";

function pieces(search: string): string[] {
  return search
    .replace(/^\?/, "")
    .split("&")
    .filter((piece) => piece.length > 0);
}

/** A parameter's name as a server reads it (`+` a space, percent-decoded), lower-cased: `APPID` is `appid`. */
function nameOf(piece: string): string {
  const raw = (piece.split("=")[0] ?? "").replace(/\+/g, " ");
  try {
    return decodeURIComponent(raw).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/** True when the query has a parameter named `name`, in any case or encoding. */
export function hasQueryParameter(url: URL, name: string): boolean {
  const wanted = name.toLowerCase();
  return pieces(url.search).some((piece) => nameOf(piece) === wanted);
}

/** `url` without any parameter named `name`; the others keep their order and their encoding as written. */
export function withoutQueryParameter(url: URL, name: string): URL {
  const wanted = name.toLowerCase();
  const kept = pieces(url.search).filter((piece) => nameOf(piece) !== wanted);
  const copy = new URL(url.href);
  copy.search = kept.length > 0 ? `?${kept.join("&")}` : "";
  return copy;
}

/**
 * The request target for the wire: `url`'s path and query, with `name=value` appended. The query is not
 * re-serialised, so a caller's encoding (a signed parameter) reaches the server as written.
 */
export function pathWithQueryParameter(url: URL, name: string, value: string): string {
  const parameter = `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
  return `${url.pathname}${url.search ? `${url.search}&` : "?"}${parameter}`;
}

/** The forms a secret may take in text a server wrote: as is, percent-encoded, form-encoded. */
function spellings(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  return [...new Set([secret, encoded, encoded.replace(/%20/g, "+")])].filter((form) => form.length > 0);
}

/** True when `text` holds any of `secrets` in any of the forms a URL or a header may carry it. */
export function containsSecret(text: string, secrets: readonly string[]): boolean {
  // Compared without case: percent-encoding is case-insensitive (`%2f` is `%2F`); over-matching only redacts more.
  const lower = text.toLowerCase();
  return secrets.some((secret) => spellings(secret).some((form) => lower.includes(form.toLowerCase())));
}

/** `text` with every form of each secret replaced by `REDACTED`. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let scrubbed = text;
  for (const secret of secrets) {
    for (const form of spellings(secret)) {
      scrubbed = scrubbed.replace(new RegExp(form.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi"), REDACTED);
    }
  }
  return scrubbed;
}

/**
 * A pattern for `secret` as a server may have written it in a body: each character that is not a letter or a
 * digit as itself after any number of backslashes (a JSON string escapes `"` and, from PHP, `/`; quoted twice,
 * twice), or percent-encoded. Matched over the body's bytes read one to a character (latin1), so binary
 * content goes through unchanged.
 */
function echoedPattern(secret: string): RegExp {
  const bytes = Buffer.from(secret, "utf8").toString("latin1");
  const parts = [...bytes].map((char) => {
    if (/[A-Za-z0-9]/.test(char)) return char;
    const hex = char.charCodeAt(0).toString(16).padStart(2, "0");
    const [high, low] = [hex[0] ?? "0", hex[1] ?? "0"];
    const literal = `\\x${hex}`;
    return `(?:\\\\*${literal}|%${high}[${low.toLowerCase()}${low.toUpperCase()}])`;
  });
  return new RegExp(parts.join(""), "g");
}

/**
 * `body` with each secret a request carried replaced by `REDACTED` wherever the server wrote it back, as sent
 * or escaped (see echoedPattern): a vendor that echoes the request (an error quoting the key) must not hand
 * the key to the tool. A body without a secret comes back as it was.
 */
export function scrubBodySecrets(body: Buffer, secrets: readonly string[]): Buffer {
  let text: string | undefined;
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    text ??= body.toString("latin1");
    text = text.replace(echoedPattern(secret), REDACTED);
  }
  return text === undefined ? body : Buffer.from(text, "latin1");
}
