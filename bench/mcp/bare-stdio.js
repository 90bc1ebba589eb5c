/** @module The bare SDK server on stdin and stdout until stdin closes: `node bench/mcp/bare-stdio.js`. */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createBareServer } from "./bare-server.js";

const server = createBareServer();
process.stdin.once("end", () => {
  server.close().catch(() => {});
});
await server.connect(new StdioServerTransport());
