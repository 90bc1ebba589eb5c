/**
 * @module The cookies one egress client keeps for an anonymous vendor session: what servers set, sent back
 * where tough-cookie's domain, path, secure and expiry rules say they belong. Bounded, so a server that sets
 * cookie after cookie cannot grow the process: past the bound the session starts over, as a browser's
 * cleared cookies would.
 */
import { CookieJar } from "tough-cookie";

/** RFC 6265 §6.1's minimums a browser keeps: 4096 bytes a cookie, 50 a domain; this jar's whole bound. */
const MAX_COOKIE_BYTES = 4096;
const MAX_COOKIES_SET = 50;

/** One client's jar; a cookie a server sets that tough-cookie refuses (a public suffix, a foreign domain) is dropped. */
export class SessionCookies {
  #jar = new CookieJar();
  #set = 0;

  /** Keeps the `Set-Cookie` lines of a hop's answer, as set for `url`, within the bounds. */
  async store(url: URL, setCookie: string | readonly string[] | undefined): Promise<void> {
    if (setCookie === undefined) return;
    for (const line of typeof setCookie === "string" ? [setCookie] : setCookie) {
      if (Buffer.byteLength(line) > MAX_COOKIE_BYTES) continue;
      if (this.#set >= MAX_COOKIES_SET) {
        this.#jar = new CookieJar();
        this.#set = 0;
      }
      this.#set += 1;
      await this.#jar.setCookie(line, url.href, { ignoreError: true });
    }
  }

  /** The `Cookie` header value for a hop to `url`, or undefined when nothing matches. */
  async header(url: URL): Promise<string | undefined> {
    const value = await this.#jar.getCookieString(url.href);
    return value === "" ? undefined : value;
  }
}
