/**
 * @module A local Nominatim. What it reproduces:
 * - `GET /search?q=&format=json&limit=&extratags=1[&viewbox=&bounded=0]` (nominatim.org/release-docs/
 *   latest/api/Search: `limit` at most 40, `viewbox=<x1>,<y1>,<x2>,<y2>`);
 * - the JSON output: an array of places with `place_id`, `osm_type`, `osm_id`, `lat`/`lon` as strings,
 *   `class`, `type`, `display_name`, `name`, `extratags` (nominatim.org/release-docs/latest/api/Output);
 * - the usage policy's refusals (operations.osmfoundation.org/policies/nominatim): 403 for a request
 *   without an identifying User-Agent (the fake refuses the stock "toolreg" one), 429 when paced too fast,
 *   with and without Retry-After;
 * - a bad parameter as 400 `{"error": {"code": 400, "message": …}}`, a page in place of JSON, and a
 *   malformed 200.
 * It records when each request arrived, so a test can check the one-request-a-second pacing.
 */
import { type FakeReply, HTML_PAGE, type SeenRequest, startVendorFake, type VendorFake } from "toolreg/test";

export type NominatimScenario =
  | "rate-limited"
  | "rate-limited-retry-after"
  | "not-json"
  | "wrong-shape"
  /** The usual answer, half a second late: a busy instance. */
  | "slow";

export const arrivals: number[] = [];

const LOUVRE = {
  place_id: 115_396_052,
  licence: "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright",
  osm_type: "way",
  osm_id: 146_459_166,
  lat: "48.8611473",
  lon: "2.3380277",
  class: "tourism",
  type: "museum",
  place_rank: 30,
  importance: 0.69,
  addresstype: "tourism",
  name: "Musée du Louvre",
  display_name:
    "Musée du Louvre, Rue de Rivoli, Quartier Saint-Germain-l'Auxerrois, Paris, Île-de-France, 75001, France",
  extratags: { website: "https://www.louvre.fr/", wheelchair: "yes" },
  boundingbox: ["48.8587", "48.8636", "2.3312", "2.3376"],
};

/** How late the "slow" scenario answers. */
export const SLOW_MS = 500;

function answer(request: SeenRequest, scenario: NominatimScenario | undefined): FakeReply {
  arrivals.push(Date.now());
  const agent = request.headers["user-agent"] ?? "";
  if (agent === "" || agent === "toolreg") {
    return {
      status: 403,
      headers: { "content-type": "text/html" },
      body: "<html><body>Access blocked</body></html>",
    };
  }
  switch (scenario) {
    case "rate-limited":
      return { status: 429, headers: { "content-type": "text/plain" }, body: "Too Many Requests" };
    case "rate-limited-retry-after":
      return {
        status: 429,
        headers: { "content-type": "text/plain", "retry-after": "3" },
        body: "Too Many Requests",
      };
    case "not-json":
      return HTML_PAGE;
    case "wrong-shape":
      return { status: 200, body: [{ place_id: 1, lat: 48.86, lon: 2.33, display_name: "x" }] };
  }
  if (request.path !== "/search")
    return { status: 404, body: { error: { code: 404, message: "Not found" } } };
  const limit = Number(request.query.limit ?? "10");
  if (!Number.isInteger(limit) || limit < 1 || limit > 40) {
    return {
      status: 400,
      body: { error: { code: 400, message: "Parameter 'limit' must be between 1 and 40." } },
    };
  }
  const q = (request.query.q ?? "").toLowerCase();
  return {
    status: 200,
    body: q.includes("louvre") ? [LOUVRE].slice(0, limit) : [],
    ...(scenario === "slow" ? { delayMs: SLOW_MS } : {}),
  };
}

export function startNominatimFake(): Promise<VendorFake<NominatimScenario>> {
  return startVendorFake(answer);
}
