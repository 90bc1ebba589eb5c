/**
 * @module robots.txt for a crawl, read once per origin through the provider (so through egress), and
 * matched with robots-parser: the longest matching rule wins and an allow wins a tie (RFC 9309 2.2.2).
 * What a fetch that found no file means is RFC 9309 2.3.1.3 and 2.3.1.4, as Google documents it too
 * (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt): a 4xx allows
 * everything, a 5xx or an unreachable server disallows everything.
 */
import robotsParserModule from "robots-parser";
import type { ToolContext } from "toolreg/toolkit";
import type { ScrapeProvider } from "../scrape-provider.js";

interface Robot {
  isAllowed(url: string, userAgent?: string): boolean | undefined;
}
type RobotsParser = (url: string, text: string) => Robot;
// A CommonJS module whose types say `export default`: Node hands its module.exports (the function) as the
// default, the types see an object holding `default`; either is taken.
const robotsParser: RobotsParser =
  (robotsParserModule as unknown as { default?: RobotsParser }).default ??
  (robotsParserModule as unknown as RobotsParser);

export type RobotsVerdict = "allowed" | "disallowed";
/** How an origin's robots.txt was read: parsed, none to read (4xx), unreachable (5xx), or the site refused by egress. */
export type RobotsState = "parsed" | "none" | "unreachable" | "refused";

interface OriginRules {
  /** How the origin's robots.txt was read, for the report. */
  state: Exclude<RobotsState, "refused">;
  allows(url: string): boolean;
}

export class RobotsRules {
  readonly #origins = new Map<string, Promise<OriginRules>>();

  constructor(
    private readonly provider: ScrapeProvider,
    private readonly userAgent: string,
  ) {}

  /**
   * Whether the crawler may fetch `url`; the first question about an origin fetches its robots.txt. Throws
   * what the provider threw when the origin itself is refused (egress), for every URL of that origin.
   */
  async verdict(url: string, context: ToolContext): Promise<RobotsVerdict> {
    const { origin } = new URL(url);
    let rules = this.#origins.get(origin);
    if (rules === undefined) {
      rules = this.#load(origin, context);
      this.#origins.set(origin, rules);
    }
    return (await rules).allows(url) ? "allowed" : "disallowed";
  }

  /** Each origin asked about and how its robots.txt was read. */
  async states(): Promise<Record<string, RobotsState>> {
    const entries = await Promise.all(
      [...this.#origins].map(
        async ([origin, rules]) =>
          [
            origin,
            await rules.then(
              (rules): RobotsState => rules.state,
              (): RobotsState => "refused",
            ),
          ] as const,
      ),
    );
    return Object.fromEntries(entries);
  }

  async #load(origin: string, context: ToolContext): Promise<OriginRules> {
    const robotsUrl = `${origin}/robots.txt`;
    const answer = await this.provider.robots(robotsUrl, context);
    if (answer.status >= 200 && answer.status < 300) {
      const parsed = robotsParser(robotsUrl, answer.text);
      // robots-parser answers undefined for a URL of another origin; this origin's URLs only come here.
      return { state: "parsed", allows: (url) => parsed.isAllowed(url, this.userAgent) !== false };
    }
    // 429 is the server overloaded, not a missing file: Google treats it as a 5xx.
    if (answer.status >= 300 && answer.status < 500 && answer.status !== 429)
      return { state: "none", allows: () => true };
    return { state: "unreachable", allows: () => false };
  }
}
