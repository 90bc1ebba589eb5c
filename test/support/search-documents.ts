/** @module A small catalogue of search documents shared by the search indexes' tests. */
import type { SearchDocument } from "../../src/catalog/search/tool-search-index.js";

export const searchDocuments: SearchDocument[] = [
  {
    name: "fetch_url",
    description: "Download a web page over HTTP and return its content as Markdown.",
    category: "web",
    parameters: {
      type: "object",
      properties: {
        url: { type: "string", description: "Address of the page." },
        format: { type: "string", enum: ["markdown", "text"] },
      },
    },
  },
  { name: "web_search", description: "Search the internet and return result links.", category: "web" },
  {
    name: "sql_query",
    description: "Run a read-only SQL statement against the database.",
    category: "data",
    parameters: {
      type: "object",
      properties: { statement: { type: "string" }, dialect: { enum: ["postgres", "sqlite"] } },
    },
  },
  { name: "send_email", description: "Send an email message to a recipient.", category: "communication" },
  { name: "getWeatherForecast", description: "Weather forecast for a city.", category: "general" },
  { name: "math.factorial", description: "Calculate the factorial of a number.", category: "math" },
];
