/** @module What the scrape tools run against once bound: the configured provider and the robots.txt token. */
import { toolFor } from "toolreg/toolkit";
import type { ScrapeProvider } from "./scrape-provider.js";

export interface ScrapeEnv {
  provider: ScrapeProvider;
  /** The product token robots.txt groups are matched against. */
  userAgent: string;
}

/** Declares a scrape tool: its `run` receives the bound ScrapeEnv. */
export const scrapeTool = toolFor<ScrapeEnv>();
