/**
 * @module Prints the capabilities an MCP server declares on `initialize`, one name a line, so the
 * conformance script skips a scenario only while its feature is not served.
 *
 * Usage: node server-capabilities.js http://127.0.0.1:PORT/mcp
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const client = new Client({ name: "toolreg-conformance-capabilities", version: "0" });
await client.connect(new StreamableHTTPClientTransport(new URL(process.argv[2] ?? "")));
for (const name of Object.keys(client.getServerCapabilities() ?? {})) console.log(name);
await client.close();
