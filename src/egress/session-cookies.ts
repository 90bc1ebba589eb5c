/**
 * @module The cookies one egress client keeps for an anonymous vendor session: what servers set, sent back
 * where tough-cookie's domain, path, secure and expiry rules say they belong.
 */
import { CookieJar } from "tough-cookie";

/** One client's jar; a cookie a server sets that tough-cookie refuses (a public suffix, a foreign domain) is dropped. */
export class SessionCookies {
  readonly #jar = new CookieJar();

  /** Keeps every `Set-Cookie` of a hop's answer, as set for `url`. */
  async store(url: URL, setCookie: string | readonly string[] | undefined): Promise<void> {
    if (setCookie === undefined) return;
    for (const line of typeof setCookie === "string" ? [setCookie] : setCookie) {
      await this.#jar.setCookie(line, url.href, { ignoreError: true });
    }
  }

  /** The `Cookie` header value for a hop to `url`, or undefined when nothing matches. */
  async header(url: URL): Promise<string | undefined> {
    const value = await this.#jar.getCookieString(url.href);
    return value === "" ? undefined : value;
  }
}
