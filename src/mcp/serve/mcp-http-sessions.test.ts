import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import type { AnyTool } from "../../registry/registry.js";
import { createScriptedTool } from "../../test/scripted-tool.js";
import { createTestHarness } from "../../test/test-harness.js";
import { calculateTool } from "../../tools/general/index.js";
import { mcpClientOf } from "./client-channel.js";
import { createMcpServer } from "./create-mcp-server.js";
import { instanceToken, McpHttpSessions, SESSION_HEADER } from "./mcp-http-sessions.js";

const ENDPOINT = "http://127.0.0.1/mcp";
const open: { sessions: McpHttpSessions[]; clients: Client[] } = { sessions: [], clients: [] };
afterEach(async () => {
  for (const client of open.clients.splice(0)) await client.close();
  for (const sessions of open.sessions.splice(0)) await sessions.close();
});

function setup(
  options: ConstructorParameters<typeof McpHttpSessions>[0] = {},
  tools: readonly AnyTool[] = [],
) {
  const capabilities = createScriptedTool(
    [async (_input, context) => JSON.stringify(mcpClientOf(context)?.capabilities ?? null)],
    {
      name: "client_capabilities",
    },
  );
  const sendEmail = createScriptedTool([{ content: "sent" }], {
    name: "send_email",
    description: "Sends an email message to a recipient.",
    category: "communication",
    effect: "external-write",
  });
  const harness = createTestHarness([calculateTool, capabilities, sendEmail, ...tools]);
  const sessions = new McpHttpSessions(options);
  open.sessions.push(sessions);
  const server = () =>
    createMcpServer({
      seam: harness.seam,
      context: ({ toolCallId, signal }) => harness.context({ toolCallId, signal }),
    });
  /** The endpoint as `owner` reaches it: a fetch straight into the sessions, the body parsed as the route does. */
  const fetchAs =
    (owner: string) =>
    async (url: string | URL, init?: RequestInit): Promise<Response> => {
      const request = new Request(url, init);
      const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
      return sessions.answer({ request, body, owner, server });
    };
  const connect = async (owner: string, fetch = fetchAs(owner)) => {
    const client = new Client({ name: "test", version: "0" }, { capabilities: { elicitation: {} } });
    const transport = new StreamableHTTPClientTransport(new URL(ENDPOINT), { fetch });
    await client.connect(transport);
    open.clients.push(client);
    return { client, sessionId: transport.sessionId as string };
  };
  const post = (owner: string, body: unknown, headers: Record<string, string> = {}) =>
    fetchAs(owner)(ENDPOINT, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
      body: JSON.stringify(body),
    });
  return { sessions, connect, post, fetchAs, sendEmail };
}

const listTools = { jsonrpc: "2.0", id: 1, method: "tools/list" };

describe("McpHttpSessions", () => {
  it("opens a session on initialize, in which a call knows what the client can do", async () => {
    const { sessions, connect } = setup();
    const { client, sessionId } = await connect("key-a");
    expect(sessionId).toEqual(expect.any(String));
    expect(sessions.size).toBe(1);
    const result = await client.callTool({ name: "client_capabilities", arguments: {} });
    expect(JSON.parse((result.content as { text: string }[])[0]?.text ?? "")).toMatchObject({
      elicitation: { form: {} },
    });
  });

  it("asks the client mid-call within a session: an approval accepted at the client runs the call", async () => {
    const { connect, sendEmail } = setup();
    const { client } = await connect("key-a");
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept" }));
    const result = await client.callTool({ name: "send_email", arguments: { to: "a@b.test" } });
    expect(result.content).toEqual([{ type: "text", text: "sent" }]);
    expect(sendEmail.calls).toHaveLength(1);
  });

  it("answers a request without a session statelessly, as JSON, where the client is unknown", async () => {
    const { sessions, post } = setup();
    const listed = await post("key-a", listTools);
    expect(listed.headers.get("content-type")).toContain("application/json");
    expect(listed.headers.get(SESSION_HEADER)).toBeNull();
    expect(((await listed.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(3);
    const called = await post("key-a", {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "client_capabilities", arguments: {} },
    });
    expect(await called.json()).toMatchObject({ result: { content: [{ type: "text", text: "null" }] } });
    expect(sessions.size).toBe(0);
  });

  it("answers a session only to the owner that opened it", async () => {
    const { connect, post } = setup();
    const { sessionId } = await connect("key-a");
    const headers = { [SESSION_HEADER]: sessionId, "mcp-protocol-version": "2025-06-18" };
    expect((await post("key-a", listTools, headers)).status).toBe(200);
    const stranger = await post("key-b", listTools, headers);
    expect(stranger.status).toBe(404);
    expect(await stranger.json()).toMatchObject({ error: { code: -32001 } });
  });

  it("names its instance in every session id, and says when an id names another one", async () => {
    const warned: unknown[] = [];
    const here = instanceToken("host-a:1");
    const { connect, post } = setup({ instance: here, logger: { warn: (fields) => warned.push(fields) } });
    const { sessionId } = await connect("key-a");
    expect(sessionId).toMatch(new RegExp(`^${here}\\.[0-9a-f-]{36}$`));
    const notFound = async (id: string, owner = "key-a") => {
      const answer = await post(owner, listTools, {
        [SESSION_HEADER]: id,
        "mcp-protocol-version": "2025-06-18",
      });
      expect(answer.status).toBe(404);
      return ((await answer.json()) as { error: { code: number; message: string } }).error;
    };
    // Another key's session, and an id of this instance's shape that it never gave: the same plain 404.
    expect(await notFound(sessionId, "key-b")).toEqual({ code: -32001, message: "Session not found" });
    expect(await notFound(`${here}.${crypto.randomUUID()}`)).toEqual({
      code: -32001,
      message: "Session not found",
    });
    // Ids that name no instance at all are plain too, and nothing is logged for them.
    expect((await notFound("no-dot")).message).toBe("Session not found");
    expect((await notFound(`Not-A-Token.${crypto.randomUUID()}`)).message).toBe("Session not found");
    expect(warned).toEqual([]);

    const elsewhere = instanceToken("host-b:1");
    const misrouted = await notFound(`${elsewhere}.${crypto.randomUUID()}`, "key-b");
    expect(misrouted.code).toBe(-32001);
    expect(misrouted.message).toMatch(/^Session not found: it was opened on another instance/);
    expect(warned).toEqual([{ instance: here, named: elsewhere }]);
  });

  it("refuses an instance token it did not make", () => {
    expect(() => new McpHttpSessions({ instance: "host-a.example" })).toThrow(/instanceToken/);
    expect(instanceToken("host-a:1")).not.toBe(instanceToken("host-a:2"));
  });

  it("wants a session for GET and ends one on DELETE", async () => {
    const { sessions, connect, fetchAs } = setup();
    const get = await fetchAs("key-a")(ENDPOINT, { headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(400);
    const { sessionId } = await connect("key-a");
    const deleted = await fetchAs("key-a")(ENDPOINT, {
      method: "DELETE",
      headers: { [SESSION_HEADER]: sessionId, "mcp-protocol-version": "2025-06-18" },
    });
    expect(deleted.status).toBe(200);
    expect(sessions.size).toBe(0);
  });

  it("keeps an owner to its limit by closing its least recently used session, and refuses past the total", async () => {
    const { sessions, connect, post } = setup({ perOwner: 2, limit: 3 });
    const first = await connect("key-a");
    await connect("key-a");
    await connect("key-a");
    expect(sessions.size).toBe(2);
    const headers = { [SESSION_HEADER]: first.sessionId, "mcp-protocol-version": "2025-06-18" };
    expect((await post("key-a", listTools, headers)).status).toBe(404);
    await connect("key-b");
    await expect(connect("key-c")).rejects.toThrow(/503|too many/);
  });

  it("holds the limits when many initializes arrive at once", async () => {
    const { sessions, connect } = setup({ perOwner: 2, limit: 3 });
    await Promise.allSettled(Array.from({ length: 10 }, () => connect("key-a")));
    expect(sessions.size).toBe(2);
    const others = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => connect(`key-${i}`)));
    expect(sessions.size).toBe(3);
    expect(others.filter((outcome) => outcome.status === "rejected").length).toBeGreaterThan(0);
  });

  it("closes every session when the server stops, and opens no more", async () => {
    const { sessions, connect } = setup();
    await connect("key-a");
    await sessions.close();
    expect(sessions.size).toBe(0);
    await expect(connect("key-a")).rejects.toThrow(/503|shutting down/);
  });

  it("closes a session left idle, but not one whose client listens on GET, until it stops listening", async () => {
    let now = 0;
    // The sweeper runs every idleMs of real time; the clock it reads is this test's.
    const { sessions, post, fetchAs } = setup({ idleMs: 20, now: () => now });
    /** A session opened by hand, so nothing listens on it unless the test does. */
    const open = async () => {
      const initialize = {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
      };
      const opened = await post("key-a", initialize);
      await opened.body?.cancel();
      const sessionId = opened.headers.get(SESSION_HEADER) as string;
      const headers = { [SESSION_HEADER]: sessionId, "mcp-protocol-version": "2025-06-18" };
      await post("key-a", { jsonrpc: "2.0", method: "notifications/initialized" }, headers);
      return headers;
    };
    const idle = await open();
    const listening = await open();
    const stream = await fetchAs("key-a")(ENDPOINT, {
      headers: { accept: "text/event-stream", ...listening },
    });
    expect(stream.status).toBe(200);
    expect(sessions.size).toBe(2);

    now += 60_000;
    await expect.poll(() => sessions.size, { timeout: 2_000 }).toBe(1);
    expect((await post("key-a", listTools, idle)).status).toBe(404);
    const listed = await post("key-a", listTools, listening);
    expect(listed.status).toBe(200);
    // Read to the end, as the HTTP server reads every answer it sends.
    expect(await listed.text()).toContain("calculate");

    await stream.body?.cancel();
    now += 60_000;
    await expect.poll(() => sessions.size, { timeout: 2_000 }).toBe(0);
  });

  it("tells answers and notifications, which a running call may wait for, from requests", () => {
    const answer = { jsonrpc: "2.0", id: 0, result: { action: "accept" } };
    const cancelled = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } };
    expect(McpHttpSessions.onlyAnswers(answer)).toBe(true);
    expect(McpHttpSessions.onlyAnswers([answer, cancelled])).toBe(true);
    expect(McpHttpSessions.onlyAnswers([answer, listTools])).toBe(false);
    expect(McpHttpSessions.onlyAnswers(undefined)).toBe(false);
    expect(McpHttpSessions.onlyAnswers([])).toBe(false);
  });

  describe("resuming a stream that broke mid-call", () => {
    /** A GET that resumes a session's stream after `eventId`, as `owner` sends it. */
    const resume = (
      fetch: ReturnType<ReturnType<typeof setup>["fetchAs"]>,
      sessionId: string,
      eventId: string,
    ) =>
      fetch(ENDPOINT, {
        headers: {
          accept: "text/event-stream",
          [SESSION_HEADER]: sessionId,
          "mcp-protocol-version": "2025-11-25",
          "last-event-id": eventId,
        },
      });

    it("sends what the client missed, then the rest live, each once, and the result", async () => {
      const away = gate();
      const back = gate();
      const steps = createScriptedTool(
        [
          async (_input, context) => {
            const client = mcpClientOf(context);
            await client?.progress(1, 3);
            await away.passed;
            await client?.log("info", "while away");
            await client?.progress(2, 3);
            await back.passed;
            await client?.progress(3, 3);
            return "finished";
          },
        ],
        { name: "report_steps" },
      );
      const { fetchAs, connect } = setup({}, [steps]);
      let cut: (() => void) | undefined;
      const resumedAfter: string[] = [];
      /** The network between client and server: a call's stream can be cut, and a resume is seen. */
      const network = async (url: string | URL, init?: RequestInit) => {
        const response = await fetchAs("key-a")(url, init);
        const lastEventId = new Headers(init?.headers).get("last-event-id");
        if (lastEventId !== null) {
          resumedAfter.push(lastEventId);
          back.open();
        }
        if (!String(init?.body).includes('"tools/call"') || !response.body) return response;
        const cuttable = cuttableBody(response.body);
        cut = cuttable.cut;
        return new Response(cuttable.body, response);
      };
      const { client } = await connect("key-a", network);
      const logged: unknown[] = [];
      client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
        logged.push(notification.params.data);
      });
      const progress: number[] = [];
      const tokens: string[] = [];
      const result = await client.callTool({ name: "report_steps", arguments: {} }, undefined, {
        onresumptiontoken: (token) => tokens.push(token),
        onprogress: ({ progress: step }) => {
          progress.push(step);
          // The connection drops once the first step has arrived; the call runs on without it.
          if (step === 1) {
            cut?.();
            away.open();
          }
        },
      });
      expect(result.content).toEqual([{ type: "text", text: "finished" }]);
      expect(progress).toEqual([1, 2, 3]);
      expect(logged).toEqual(["while away"]);
      // Resumed once, after the last event the cut stream carried (priming, then the first step).
      expect(resumedAfter).toEqual([tokens[1]]);
      expect(new Set(tokens).size).toBe(tokens.length);
    });

    it("replays a session's events to its owner only, and nothing for an id it did not give", async () => {
      const { connect, fetchAs } = setup();
      const mine = await connect("key-a");
      const other = await connect("key-a");
      const tokens: string[] = [];
      await mine.client.callTool({ name: "client_capabilities", arguments: {} }, undefined, {
        onresumptiontoken: (token) => tokens.push(token),
      });
      const [priming] = tokens;
      if (priming === undefined) throw new Error("the call's stream carried no event id");

      // Another session of the same owner does not know the id: nothing of the first session is sent.
      const foreign = await resume(fetchAs("key-a"), other.sessionId, priming);
      expect(foreign.status).toBe(400);
      expect(await foreign.text()).not.toContain("elicitation");
      // Another owner does not learn the session exists, let alone its events.
      const stranger = await resume(fetchAs("key-b"), mine.sessionId, priming);
      expect(stranger.status).toBe(404);
      expect(await stranger.text()).not.toContain("elicitation");
      const unknown = await resume(fetchAs("key-a"), mine.sessionId, `${priming}0`);
      expect(unknown.status).toBe(400);

      // The owner, in its own session, is sent the call's result once.
      const replayed = await resume(fetchAs("key-a"), mine.sessionId, priming);
      expect(replayed.status).toBe(200);
      const text = await readUntil(replayed, "elicitation");
      expect(text.match(/"result"/g)).toHaveLength(1);
    });
  });
});

/** A promise the test opens when it chooses. */
function gate() {
  let open!: () => void;
  const passed = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { passed, open };
}

/** A body that the network can cut: the reader sees an error, the server sees its stream cancelled. */
function cuttableBody(source: ReadableStream<Uint8Array>) {
  const reader = source.getReader();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let severed = false;
  const body = new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
    },
    async pull(streamController) {
      const { done, value } = await reader.read();
      if (severed) return;
      if (done) streamController.close();
      else streamController.enqueue(value);
    },
  });
  const cut = () => {
    severed = true;
    controller.error(new Error("connection reset"));
    void reader.cancel();
  };
  return { body, cut };
}

/** An SSE body's text up to the first chunk holding `text`; the stream, kept open for more, is then closed. */
async function readUntil(response: Response, text: string): Promise<string> {
  const reader = (response.body as ReadableStream<Uint8Array>)
    .pipeThrough(new TextDecoderStream())
    .getReader();
  let seen = "";
  while (!seen.includes(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    seen += value;
  }
  await reader.cancel();
  return seen;
}
