/** @module @toolreg/tools-scrape — the scrape toolkit; load it by name from toolreg.config.json or pass it to createToolreg. */

export { type ScrapeConfig, ScrapeConfigSchema } from "./scrape-config.js";
export { scrapeToolkit } from "./toolkit.js";
