/**
 * @module A local OpenWeather: the 5 day / 3 hour forecast and the Geocoding API on one server, the key
 * checked in `appid` on each. What it reproduces:
 * - `GET /data/2.5/forecast` (openweathermap.org/forecast5): `lat`, `lon`, `units` (standard in kelvin and
 *   m/s, metric in °C and m/s, imperial in °F and mph), `cnt` steps of three hours from 09:00 UTC; each
 *   step with `dt`, `main.temp_min`/`temp_max`, `weather[].description`, `wind.speed`, `pop` 0–1 and
 *   `rain.3h` in mm when it rains; `city` with `coord` and `timezone` (seconds from UTC; Berlin's 3600);
 * - `GET /geo/1.0/direct` (openweathermap.org/api/geocoding-api): `q`, `limit`; an array of places with
 *   `name`, `lat`, `lon`, `country` (ISO code) and `state`, empty when nothing matches;
 * - failures as `{"cod": …, "message": "…"}`: 401 "Invalid API key. Please see https://openweathermap.org/
 *   faq#error401 for more info." for a missing or wrong `appid` (faq#error401), 429 "Your account is
 *   temporary blocked due to exceeding of requests limitation of your subscription type. …" with no
 *   Retry-After (faq#error429), and the same 429 with a Retry-After, which OpenWeather documents nowhere: one
 *   a proxy or CDN in front of it adds (RFC 9110 §10.2.3, https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3),
 *   404 "city not found" (`cod` a string, as the API writes it), 400 "wrong latitude";
 * - a page in place of JSON, and a 200 whose steps are not numbers.
 */
import { type FakeReply, HTML_PAGE, type SeenRequest, startVendorFake, type VendorFake } from "toolreg/test";

/** The key the fake accepts. */
export const OPENWEATHER_KEY = "0123456789abcdef0123456789abcdef";

export type OpenWeatherScenario =
  | "blocked"
  | "blocked-retry-after"
  | "city-not-found"
  | "not-json"
  | "wrong-shape";

const INVALID_KEY: FakeReply = {
  status: 401,
  body: {
    cod: 401,
    message: "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info.",
  },
};
const BLOCKED: FakeReply = {
  status: 429,
  body: {
    cod: 429,
    message:
      "Your account is temporary blocked due to exceeding of requests limitation of your subscription type. Please choose the proper subscription https://openweathermap.org/price",
  },
};

const PLACES: Record<string, object> = {
  berlin: {
    name: "Berlin",
    local_names: { de: "Berlin" },
    lat: 52.5170365,
    lon: 13.3888599,
    country: "DE",
    state: "Berlin",
  },
};

/** 09:00 UTC on 6 December 2026: the first step. */
const FIRST_STEP = Date.UTC(2026, 11, 6, 9) / 1000;

function forecast(request: SeenRequest): FakeReply {
  const { lat, lon, units = "standard", cnt = "40" } = request.query;
  const latitude = Number(lat);
  if (lat === undefined || !Number.isFinite(latitude) || latitude < -90 || latitude > 90) {
    return { status: 400, body: { cod: "400", message: "wrong latitude" } };
  }
  const steps = Math.min(40, Math.max(1, Number(cnt) || 40));
  const temperature = (celsius: number) =>
    units === "imperial"
      ? Math.round((celsius * 1.8 + 32) * 100) / 100
      : units === "metric"
        ? celsius
        : celsius + 273.15;
  const speed = (metresPerSecond: number) =>
    units === "imperial" ? Math.round(metresPerSecond * 2.23694 * 100) / 100 : metresPerSecond;
  const list = Array.from({ length: steps }, (_, index) => {
    const celsius = 2 + (index % 8);
    const raining = index < 4;
    return {
      dt: FIRST_STEP + index * 3 * 3600,
      main: {
        temp: temperature(celsius),
        temp_min: temperature(celsius - 0.5),
        temp_max: temperature(celsius + 0.5),
        pressure: 1015,
        humidity: 80,
      },
      weather: [
        raining
          ? { id: 500, main: "Rain", description: "light rain", icon: "10d" }
          : { id: 804, main: "Clouds", description: "overcast clouds", icon: "04d" },
      ],
      clouds: { all: raining ? 100 : 90 },
      wind: { speed: speed(3 + (index % 4)), deg: 200, gust: speed(5) },
      visibility: 10000,
      pop: raining ? 0.8 : 0.1,
      ...(raining ? { rain: { "3h": 0.5 } } : {}),
      sys: { pod: "d" },
      dt_txt: new Date((FIRST_STEP + index * 3 * 3600) * 1000).toISOString().replace("T", " ").slice(0, 19),
    };
  });
  return {
    status: 200,
    body: {
      cod: "200",
      message: 0,
      cnt: steps,
      list,
      city: {
        id: 2950159,
        name: "Berlin",
        coord: { lat: Math.round(latitude * 10000) / 10000, lon: Math.round(Number(lon) * 10000) / 10000 },
        country: "DE",
        population: 1000000,
        timezone: 3600,
        sunrise: FIRST_STEP - 3600,
        sunset: FIRST_STEP + 6 * 3600,
      },
    },
  };
}

function answer(request: SeenRequest, scenario: OpenWeatherScenario | undefined): FakeReply {
  if (request.query.appid !== OPENWEATHER_KEY) return INVALID_KEY;
  switch (scenario) {
    case "blocked":
      return BLOCKED;
    case "blocked-retry-after":
      return { ...BLOCKED, headers: { "retry-after": "600" } };
    case "city-not-found":
      return { status: 404, body: { cod: "404", message: "city not found" } };
    case "not-json":
      return HTML_PAGE;
    case "wrong-shape":
      return { status: 200, body: { cod: "200", list: [{ dt: "soon", main: {} }], city: { timezone: 0 } } };
  }
  if (request.path === "/data/2.5/forecast") return forecast(request);
  if (request.path === "/geo/1.0/direct") {
    const found = PLACES[(request.query.q ?? "").toLowerCase()];
    return { status: 200, body: found ? [found] : [] };
  }
  return { status: 404, body: { cod: "404", message: "Internal error" } };
}

export function startOpenWeatherFake(): Promise<VendorFake<OpenWeatherScenario>> {
  return startVendorFake(answer);
}
