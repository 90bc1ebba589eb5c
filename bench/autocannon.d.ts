/** The part of autocannon 9's programmatic API the server benchmark uses; the package ships no types. */
declare module "autocannon" {
  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      method?: "GET" | "POST";
      headers?: Record<string, string>;
      body?: string;
    }

    interface Histogram {
      average: number;
      p50: number;
      p99: number;
      max: number;
      total: number;
    }

    interface Result {
      /** Requests per second, one sample a second. */
      requests: Histogram;
      /** Milliseconds, recorded in whole milliseconds, 2xx responses only. */
      latency: Histogram;
      errors: number;
      timeouts: number;
      non2xx: number;
      "2xx": number;
      statusCodeStats: Record<string, { count: number }>;
    }
  }

  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export = autocannon;
}
