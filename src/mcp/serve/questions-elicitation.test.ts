import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  type ElicitRequestFormParams,
  ElicitRequestSchema,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { createTestHarness, type TestHarness } from "../../test/test-harness.js";
import { humanTools } from "../../tools/human/index.js";
import { createMcpServer } from "./create-mcp-server.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A client whose user answers every form with `reply`; the forms it was shown are kept. */
async function connect(
  harness: TestHarness,
  reply: ElicitResult,
): Promise<{ client: Client; forms: ElicitRequestFormParams[] }> {
  const server = createMcpServer({
    seam: harness.seam,
    context: ({ toolCallId, signal }) => harness.context({ toolCallId, signal }),
    registry: harness.registry,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "test", version: "0" }, { capabilities: { elicitation: {} } });
  const forms: ElicitRequestFormParams[] = [];
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    forms.push(request.params as ElicitRequestFormParams);
    return reply;
  });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return { client, forms };
}

const questions = {
  context: "Booking the offsite",
  questions: [
    { id: "city", text: "Which city?", choices: ["Lisbon", "Porto"] },
    { id: "extras", text: "What else?", choices: ["dinner", "boat"], multiple: true, required: false },
    { id: "size", text: "Room size?", choices: ["small", "large"], allowText: true },
    { id: "diet", text: "Dietary needs?", required: false },
  ],
};

describe("ask_questions over MCP elicitation", () => {
  it("puts the questions to the client's user as a form, and returns their answers as the call's result", async () => {
    const harness = createTestHarness(humanTools(undefined));
    const { client, forms } = await connect(harness, {
      action: "accept",
      content: { city: "Porto", extras: ["boat", "dinner"], "size.text": "one for 12", diet: "none" },
    });
    const result = await client.callTool({ name: "ask_questions", arguments: questions });
    expect(forms[0]?.message).toMatch(/^Booking the offsite\n\nYour agent asks you 4 questions\./);
    expect(forms[0]?.requestedSchema).toEqual({
      type: "object",
      properties: {
        city: { type: "string", title: "Which city?", enum: ["Lisbon", "Porto"] },
        extras: { type: "array", title: "What else?", items: { type: "string", enum: ["dinner", "boat"] } },
        size: { type: "string", title: "Room size?", enum: ["small", "large"] },
        "size.text": { type: "string", title: "Room size? (or write your own answer)", maxLength: 4000 },
        diet: { type: "string", title: "Dietary needs?", maxLength: 4000 },
      },
      required: ["city"],
    });
    expect(result.isError).toBeUndefined();
    const [record] = await harness.stores.approvals.list({ tenantId: "t1" });
    expect(record).toMatchObject({
      status: "executed",
      decidedBy: "p1",
      answers: {
        city: { choices: ["Porto"] },
        extras: { choices: ["dinner", "boat"] },
        size: { choices: [], text: "one for 12" },
        diet: { choices: [], text: "none" },
      },
    });
    expect(JSON.stringify(result.content)).toContain('- city: \\"Porto\\"');
  });

  it("leaves the questions open when the answers do not fit, and says they were declined on decline", async () => {
    const harness = createTestHarness(humanTools(undefined));
    const { client } = await connect(harness, { action: "accept", content: { city: "Faro" } });
    const open = await client.callTool({ name: "ask_questions", arguments: questions });
    expect(JSON.stringify(open.content)).toContain("approval_required");
    expect((await harness.stores.approvals.list({ tenantId: "t1" }))[0]).toMatchObject({ status: "pending" });

    const declining = await connect(harness, { action: "decline" });
    const declined = await declining.client.callTool({ name: "ask_questions", arguments: questions });
    expect(declined.isError).toBeUndefined();
    expect(JSON.stringify(declined.content)).toMatch(/p1 declined to answer at/);
  });

  it("tells the model the tool failed checking the answers, and leaves the questions open", async () => {
    const [asking] = humanTools(undefined).filter((tool) => tool.name === "ask_questions");
    if (!asking?.asksHuman) throw new Error("ask_questions asks no human");
    const checkAnswers = () => {
      throw new Error("the answer book is missing");
    };
    const harness = createTestHarness([{ ...asking, asksHuman: { ...asking.asksHuman, checkAnswers } }]);
    const { client } = await connect(harness, { action: "accept", content: { city: "Porto" } });
    const failed = await client.callTool({ name: "ask_questions", arguments: questions });
    expect(failed.isError).toBe(true);
    expect(JSON.stringify(failed.content)).toMatch(
      /internal.*ask_questions failed while checking the answers/,
    );
    expect((await harness.stores.approvals.list({ tenantId: "t1" }))[0]).toMatchObject({ status: "pending" });
  });

  it("keeps a question whose id looks like another's write-in field apart from it", async () => {
    const harness = createTestHarness(humanTools(undefined));
    const lookalikes = {
      questions: [
        { id: "room", text: "Which room?", choices: ["A", "B"], allowText: true },
        { id: "room_text", text: "Anything about the room?" },
        { id: "note", text: "A note for the caterer?", required: false },
      ],
    };
    const { client, forms } = await connect(harness, {
      action: "accept",
      content: { "room.text": "the attic", room_text: "quiet please", note: "no nuts" },
    });
    await client.callTool({ name: "ask_questions", arguments: lookalikes });
    expect(Object.keys(forms[0]?.requestedSchema.properties ?? {})).toEqual([
      "room",
      "room.text",
      "room_text",
      "note",
    ]);
    const [record] = await harness.stores.approvals.list({ tenantId: "t1" });
    expect(record).toMatchObject({
      status: "executed",
      answers: {
        room: { choices: [], text: "the attic" },
        room_text: { text: "quiet please" },
        note: { text: "no nuts" },
      },
    });
    // A question named note is answered, not taken for the note kept with the decision.
    expect(record?.note).toBeUndefined();
  });
});
