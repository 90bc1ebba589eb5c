import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPENWEATHER_KEY } from "./fake/openweather-fake.js";
import { type OpenWeatherHarness, startOpenWeatherHarness } from "./fake/openweather-harness.js";
import { weatherToolkit } from "./toolkit.js";

let weather: OpenWeatherHarness;
beforeAll(async () => {
  weather = await startOpenWeatherHarness();
});
afterAll(() => weather.close());

interface Forecasted {
  provider: string;
  place: { name: string; country: string | null; region: string | null } | null;
  timezone: string | null;
  units: { temperature: string; precipitation: string; windSpeed: string };
  days: Record<string, unknown>[];
}

/** The key must be nowhere a model, a log or a trace could read it. */
const leaks = (value: unknown) => JSON.stringify(value).includes(OPENWEATHER_KEY);

describe("weather_forecast through OpenWeather", () => {
  it("GETs the 5 day / 3 hour forecast with appid placed by egress, and reads its steps into local days", async () => {
    const result = await weather.call({ latitude: 52.52, longitude: 13.41, days: 2 });
    if (!result.ok) throw new Error(result.error.message);
    const sent = weather.fake.requests.at(-1);
    expect(sent?.path).toBe("/data/2.5/forecast");
    expect(sent?.query).toEqual({
      lat: "52.52",
      lon: "13.41",
      units: "metric",
      cnt: "16",
      appid: OPENWEATHER_KEY,
    });
    const data = result.data as Forecasted;
    expect(data).toMatchObject({
      provider: "openweather",
      place: null,
      timezone: "UTC+01:00",
      units: { temperature: "°C", precipitation: "mm", windSpeed: "km/h" },
    });
    // The first local day (6 December, 10:00 to 22:00 in Berlin) has five steps, four of them rainy.
    expect(data.days).toEqual([
      {
        date: "2026-12-06",
        summary: "light rain",
        temperatureMax: 6.5,
        temperatureMin: 1.5,
        precipitation: 2,
        precipitationProbability: 80,
        windSpeedMax: 21.6,
      },
      {
        date: "2026-12-07",
        summary: "overcast clouds",
        temperatureMax: 9.5,
        temperatureMin: 1.5,
        precipitation: 0,
        precipitationProbability: 10,
        windSpeedMax: 21.6,
      },
    ]);
    expect(result.provenance).toEqual({ source: `${weather.fake.url}/data/2.5/forecast`, trusted: false });
    expect(result.content).toContain("2026-12-06: light rain, high 6.5°C, low 1.5°C");
    expect(leaks(result)).toBe(false);
  });

  it("geocodes a place name with /geo/1.0/direct first, and converts rain to inches in imperial units", async () => {
    const before = weather.fake.requests.length;
    const result = await weather.call({ place: "Berlin", units: "imperial", days: 1 });
    if (!result.ok) throw new Error(result.error.message);
    const [search, forecast] = weather.fake.requests.slice(before);
    expect(search?.path).toBe("/geo/1.0/direct");
    expect(search?.query).toEqual({ q: "Berlin", limit: "1", appid: OPENWEATHER_KEY });
    expect(forecast?.query).toMatchObject({
      lat: "52.5170365",
      lon: "13.3888599",
      units: "imperial",
      cnt: "8",
    });
    const data = result.data as Forecasted;
    expect(data.place).toEqual({
      name: "Berlin",
      latitude: 52.5170365,
      longitude: 13.3888599,
      country: "DE",
      region: "Berlin",
    });
    expect(data.units).toEqual({ temperature: "°F", precipitation: "inch", windSpeed: "mph" });
    expect(data.days).toEqual([
      expect.objectContaining({ temperatureMax: 43.7, precipitation: 0.08, windSpeedMax: 13.4 }),
    ]);
    expect(leaks(result)).toBe(false);
  });

  it("says a place the geocoder does not know is not found, without asking for a forecast", async () => {
    const before = weather.fake.requests.length;
    const result = await weather.call({ place: "Nowhereville" });
    if (result.ok) throw new Error("expected a failure");
    expect(result.error.code).toBe("invalid_input");
    expect(weather.fake.requests.slice(before).map((request) => request.path)).toEqual(["/geo/1.0/direct"]);
  });

  it("forecasts five days at most, whatever the deployment's maxDays", async () => {
    const result = await weather.call({ latitude: 52.52, longitude: 13.41, days: 6 });
    if (result.ok) throw new Error("expected a failure");
    expect(result.error.code).toBe("invalid_input");
    expect(result.error.message).toContain("at most 5 days");
    const five = await weather.call({ latitude: 52.52, longitude: 13.41, days: 5 });
    if (!five.ok) throw new Error(five.error.message);
    expect(weather.fake.requests.at(-1)?.query.cnt).toBe("40");
    expect((five.data as Forecasted).days).toHaveLength(5);
  });

  it("refuses an appid smuggled in as input before any request", async () => {
    const before = weather.fake.requests.length;
    const result = await weather.call({ latitude: 1, longitude: 1, appid: "mine" });
    if (result.ok) throw new Error("expected a failure");
    expect(result.error.code).toBe("invalid_input");
    expect(weather.fake.requests.length).toBe(before);
  });

  it("turns a refused key (401 Invalid API key) into auth_required naming the credentialRef, the key in no message", async () => {
    const wrong = "ffffffffffffffffffffffffffffffff";
    const result = await weather.call({ latitude: 1, longitude: 1 }, wrong);
    if (result.ok) throw new Error("expected a failure");
    expect(weather.fake.requests.at(-1)?.query.appid).toBe(wrong);
    expect(result.error.code).toBe("auth_required");
    expect(result.error.message).toContain('"openweather"');
    expect(JSON.stringify(result)).not.toContain(wrong);
  });

  it("reads 429 (the key blocked for its plan's limits) as a rate limit, and 404 city not found as bad input", async () => {
    weather.fake.next("blocked");
    const blocked = await weather.call({ latitude: 1, longitude: 1 });
    if (blocked.ok) throw new Error("expected a failure");
    expect(blocked.error).toMatchObject({ code: "upstream_rate_limited", retryable: true });
    expect(blocked.error.message).toContain("temporary blocked");
    expect(blocked.error.retryAfterMs).toBeUndefined();
    weather.fake.next("city-not-found");
    const missing = await weather.call({ latitude: 1, longitude: 1 });
    if (missing.ok) throw new Error("expected a failure");
    expect(missing.error.code).toBe("invalid_input");
    expect(missing.error.message).toContain("city not found");
    expect(leaks([blocked, missing])).toBe(false);
  });

  it("waits out a 429 for as long as a Retry-After in front of OpenWeather says", async () => {
    weather.fake.next("blocked-retry-after");
    const blocked = await weather.call({ latitude: 1, longitude: 1 });
    if (blocked.ok) throw new Error("expected a failure");
    expect(blocked.error).toMatchObject({
      code: "upstream_rate_limited",
      retryable: true,
      retryAfterMs: 600_000,
      details: { status: 429, limit: "rate" },
    });
  });

  it("says so when the answer is not OpenWeather's JSON or not its documented shape", async () => {
    weather.fake.next("not-json");
    const page = await weather.call({ latitude: 1, longitude: 1 });
    if (page.ok) throw new Error("expected a failure");
    expect(page.error.code).toBe("upstream_error");
    weather.fake.next("wrong-shape");
    const shape = await weather.call({ latitude: 1, longitude: 1 });
    if (shape.ok) throw new Error("expected a failure");
    expect(shape.error.message).toContain("documented response");
  });
});

describe("the weather toolkit with OpenWeather", () => {
  it("needs a credentialRef for it, and reaches api.openweathermap.org", () => {
    expect(() => weatherToolkit.parseConfig({ provider: "openweather" })).toThrow(/credentialRef/);
    expect(weatherToolkit.hosts).toContain("api.openweathermap.org");
    expect(weatherToolkit.auth).toEqual({ kind: "api-key", query: "appid" });
  });
});
