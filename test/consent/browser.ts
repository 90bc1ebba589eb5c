/**
 * @module The user's browser, as much of it as a consent needs: it follows redirects across origins with a
 * cookie jar per origin kept across visits (so a console sign-in holds for the consent link opened next),
 * and on the provider's pages fills in the login form (or presses the consent button), ending on the first
 * page that asks nothing more: toolreg's callback page.
 */

export interface BrowserVisit {
  status: number;
  url: string;
  text: string;
  /** Every request made, as `METHOD url → status`. */
  visited: string[];
}

/** One browser's cookies, by origin. */
export type CookieJars = Map<string, Map<string, string>>;

/** A browser signed in to toolreg's console at `origin` with a one-time login token (`toolreg keys login`). */
export async function signedIn(origin: string, loginToken: string): Promise<CookieJars> {
  const jars: CookieJars = new Map();
  await completeConsent(`${origin}/login?token=${loginToken}`, { login: "", password: "" }, jars);
  if (!jars.get(origin)?.has("toolreg_session")) throw new Error("the console sign-in set no session");
  return jars;
}

export async function completeConsent(
  startUrl: string,
  user: { login: string; password: string },
  jars: CookieJars = new Map(),
): Promise<BrowserVisit> {
  const visited: string[] = [];
  let url = startUrl;
  let form: URLSearchParams | undefined;
  for (let hop = 0; hop < 20; hop++) {
    const origin = new URL(url).origin;
    const jar = jars.get(origin) ?? new Map<string, string>();
    jars.set(origin, jar);
    const response = await fetch(url, {
      method: form ? "POST" : "GET",
      redirect: "manual",
      headers: {
        ...(jar.size > 0 ? { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; ") } : {}),
        ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      ...(form ? { body: form.toString() } : {}),
    });
    visited.push(`${form ? "POST" : "GET"} ${url} → ${response.status}`);
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = cookie.split(";");
      const [name = "", value = ""] = pair.split(/=(.*)/s);
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute)) || value === "";
      if (expired) jar.delete(name.trim());
      else jar.set(name.trim(), value);
    }
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url).href;
      form = undefined;
      continue;
    }
    const text = await response.text();
    const action = /<form method="post" action="([^"]+)">/.exec(text)?.[1];
    if (response.status !== 200 || action === undefined)
      return { status: response.status, url, text, visited };
    url = new URL(action.replaceAll("&#47;", "/"), url).href;
    form = text.includes('name="login"')
      ? new URLSearchParams({ login: user.login, password: user.password })
      : new URLSearchParams();
  }
  throw new Error(`the consent did not end within 20 requests:\n${visited.join("\n")}`);
}
