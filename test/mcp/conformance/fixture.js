/**
 * @module The test tools of the MCP conformance suite's server scenarios (@modelcontextprotocol/conformance
 * 0.1.x), declared as toolreg tools, for `toolreg serve --registry test/mcp/conformance/fixture.js`: every
 * call the suite makes goes through the seam. Plain ESM JavaScript, since the built CLI loads it under
 * plain Node; it imports the built package (`toolreg`, and `dist/` for what has no public subpath yet), so
 * it shares the running server's modules. Names are the scenarios' own, and all are snake_case already.
 */
import { defineTool, ToolFailure } from "toolreg";
import { defineMcpResources } from "toolreg/mcp";
import { z } from "zod";
import { mcpContent } from "../../../dist/mcp/serve/call-tool-result.js";
import { mcpClientOf } from "../../../dist/mcp/serve/client-channel.js";

/** A 1×1 red PNG. */
const RED_PIXEL_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";
/** Eight samples of silence: 8 kHz, mono, 8-bit PCM. */
const SILENT_WAV = "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA==";

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The client of the MCP call `context` belongs to, when it can be asked for `capability`; else a tool failure. */
function clientFor(context, capability) {
  const client = mcpClientOf(context);
  if (!client?.capabilities?.[capability]) {
    throw new ToolFailure(
      "precondition_failed",
      `the client did not declare ${capability}, or this transport cannot ask it (stateless HTTP)`,
    );
  }
  return client;
}

/** Asks the client's user for `properties` (none required) and reports the answer as the suite expects. */
async function elicitAndReport(context, message, properties) {
  const answer = await clientFor(context, "elicitation").elicitInput({
    message,
    requestedSchema: { type: "object", properties, required: [] },
  });
  return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
}

/** A tool of the suite: read-only (nothing here changes data), in the general category, no arguments unless given. */
const conformanceTool = ({ input = z.object({}), ...declaration }) =>
  defineTool({ category: "general", effect: "read", input, ...declaration });

export const tools = [
  conformanceTool({
    name: "test_simple_text",
    description: "Returns a simple text response, for the MCP conformance suite.",
    run: () => "This is a simple text response for testing.",
  }),
  conformanceTool({
    name: "test_image_content",
    description: "Returns an image (a 1×1 red PNG), for the MCP conformance suite.",
    run: () => ({
      content: "A 1×1 red pixel.",
      data: mcpContent([{ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" }]),
    }),
  }),
  conformanceTool({
    name: "test_audio_content",
    description: "Returns audio (a short silent WAV), for the MCP conformance suite.",
    run: () => ({
      content: "One millisecond of silence.",
      data: mcpContent([{ type: "audio", data: SILENT_WAV, mimeType: "audio/wav" }]),
    }),
  }),
  conformanceTool({
    name: "test_embedded_resource",
    description: "Returns an embedded text resource, for the MCP conformance suite.",
    run: () => ({
      content: "",
      data: mcpContent([
        {
          type: "resource",
          resource: {
            uri: "test://embedded-resource",
            mimeType: "text/plain",
            text: "This is an embedded resource content.",
          },
        },
      ]),
    }),
  }),
  conformanceTool({
    name: "test_multiple_content_types",
    description: "Returns text, an image and an embedded resource together, for the MCP conformance suite.",
    run: () => ({
      content: "Multiple content types test:",
      data: mcpContent([
        { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" },
        {
          type: "resource",
          resource: {
            uri: "test://mixed-content-resource",
            mimeType: "application/json",
            text: JSON.stringify({ test: "data", value: 123 }),
          },
        },
      ]),
    }),
  }),
  conformanceTool({
    name: "test_tool_with_logging",
    description: "Sends three log messages while it runs, for the MCP conformance suite.",
    run: async (_input, context) => {
      const client = mcpClientOf(context);
      await client?.log("info", "Tool execution started");
      await pause(50);
      await client?.log("info", "Tool processing data");
      await pause(50);
      await client?.log("info", "Tool execution completed");
      return "Logged three messages while running.";
    },
  }),
  conformanceTool({
    name: "test_tool_with_progress",
    description: "Reports progress 0, 50 and 100 of 100 while it runs, for the MCP conformance suite.",
    run: async (_input, context) => {
      const client = mcpClientOf(context);
      await client?.progress(0, 100);
      await pause(50);
      await client?.progress(50, 100);
      await pause(50);
      await client?.progress(100, 100);
      return "Reported progress while running.";
    },
  }),
  conformanceTool({
    name: "test_error_handling",
    description: "Always fails, for the MCP conformance suite.",
    run: () => {
      throw new ToolFailure("upstream_error", "This tool intentionally returns an error for testing");
    },
  }),
  conformanceTool({
    name: "test_sampling",
    description: "Asks the client's model to answer a prompt (sampling), for the MCP conformance suite.",
    input: z.object({ prompt: z.string().describe("The prompt to send to the model") }),
    run: async ({ prompt }, context) => {
      const answer = await clientFor(context, "sampling").createMessage({
        messages: [{ role: "user", content: { type: "text", text: prompt } }],
        maxTokens: 100,
      });
      const blocks = Array.isArray(answer.content) ? answer.content : [answer.content];
      const text = blocks.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");
      return `LLM response: ${text}`;
    },
  }),
  conformanceTool({
    name: "test_elicitation",
    description:
      "Asks the client's user for a username and an email (elicitation), for the MCP conformance suite.",
    input: z.object({ message: z.string().describe("The message to show the user") }),
    run: async ({ message }, context) => {
      const answer = await clientFor(context, "elicitation").elicitInput({
        message,
        requestedSchema: {
          type: "object",
          properties: {
            username: { type: "string", description: "User's response" },
            email: { type: "string", description: "User's email address" },
          },
          required: ["username", "email"],
        },
      });
      return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  }),
  conformanceTool({
    name: "test_elicitation_sep1034_defaults",
    description:
      "Asks the client's user for five fields, each with a default (SEP-1034), for the MCP conformance suite.",
    run: (_input, context) =>
      elicitAndReport(context, "Defaults for every primitive type", {
        name: { type: "string", default: "John Doe" },
        age: { type: "integer", default: 30 },
        score: { type: "number", default: 95.5 },
        status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
        verified: { type: "boolean", default: true },
      }),
  }),
  conformanceTool({
    name: "test_elicitation_sep1330_enums",
    description:
      "Asks the client's user to choose from the five kinds of enum (SEP-1330), for the MCP conformance suite.",
    run: (_input, context) =>
      elicitAndReport(context, "One choice of each kind", {
        untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
        titledSingle: {
          type: "string",
          oneOf: [
            { const: "value1", title: "First Option" },
            { const: "value2", title: "Second Option" },
            { const: "value3", title: "Third Option" },
          ],
        },
        legacyEnum: {
          type: "string",
          enum: ["opt1", "opt2", "opt3"],
          enumNames: ["Option One", "Option Two", "Option Three"],
        },
        untitledMulti: {
          type: "array",
          items: { type: "string", enum: ["option1", "option2", "option3"] },
        },
        titledMulti: {
          type: "array",
          items: {
            anyOf: [
              { const: "value1", title: "First Choice" },
              { const: "value2", title: "Second Choice" },
              { const: "value3", title: "Third Choice" },
            ],
          },
        },
      }),
  }),
  conformanceTool({
    // The suite's polling scenario calls this with a 2025-03-26 protocol header, to which a server may not
    // close the stream mid-call (the client got no event id to resume from): it simply answers.
    name: "test_reconnection",
    description: "Answers on the call's stream (SSE polling, SEP-1699), for the MCP conformance suite.",
    run: () => "Reconnection test completed successfully",
  }),
  conformanceTool({
    name: "json_schema_2020_12_tool",
    description: "Takes an input schema using JSON Schema 2020-12 features, for the MCP conformance suite.",
    input: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: {
        address: {
          type: "object",
          properties: { street: { type: "string" }, city: { type: "string" } },
        },
      },
      properties: { name: { type: "string" }, address: { $ref: "#/$defs/address" } },
      additionalProperties: false,
    },
    run: (input) => ({ content: `Received ${JSON.stringify(input)}`, data: input }),
  }),
];

export const catalogue = { tools };

/**
 * The suite's test resources, served with `defineMcpResources` as any host serves its own: a text and a
 * binary one, a template, and one to subscribe to (nothing changes it here; a host's `watch` would say when).
 */
export const resources = defineMcpResources({
  resources: [
    {
      uri: "test://static-text",
      name: "static-text",
      description: "A static text resource, for the MCP conformance suite.",
      mimeType: "text/plain",
      read: () => "This is the content of the static text resource.",
    },
    {
      uri: "test://static-binary",
      name: "static-binary",
      description: "A static binary resource (a 1×1 red PNG), for the MCP conformance suite.",
      mimeType: "image/png",
      read: () => Buffer.from(RED_PIXEL_PNG, "base64"),
    },
    {
      uri: "test://watched-resource",
      name: "watched-resource",
      description: "A resource to subscribe to, for the MCP conformance suite.",
      mimeType: "text/plain",
      read: () => "This resource can be watched for changes.",
    },
  ],
  templates: [
    {
      uriTemplate: "test://template/{id}/data",
      name: "template-data",
      description: "Data for an id, from a URI template, for the MCP conformance suite.",
      mimeType: "application/json",
      read: ({ id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
    },
  ],
});
