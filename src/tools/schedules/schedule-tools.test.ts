/** @module The schedule tools through a real seam over the in-process schedule store: checks at creation, scoping, refusals. */
import { describe, expect, it } from "vitest";
import { createExecuteTool } from "../../catalog/meta/execute-tool.js";
import type { Authorizer } from "../../policy/ports.js";
import type { Envelope } from "../../seam/envelope.js";
import { createMemoryScheduleStore } from "../../stores/memory/schedules.js";
import { createTestHarness, type TestHarness } from "../../test/test-harness.js";
import { generalTools } from "../general/index.js";
import { createToolkitHost } from "../toolkit/toolkit-host.js";
import { schedulesToolkit, scheduleTools, seamScheduleTargets } from "./index.js";

function harness(authorizer?: Authorizer) {
  const schedules = createMemoryScheduleStore();
  let served: TestHarness | undefined;
  const tools = scheduleTools({
    schedules,
    scheduleTargets: seamScheduleTargets(() => (served as TestHarness).seam),
  });
  // execute_tool calls the tool its input names: it must not carry a schedule tool past the check.
  const executeTool = createExecuteTool(() => (served as TestHarness).seam);
  served = createTestHarness([...generalTools({}), ...tools, executeTool], authorizer ? { authorizer } : {});
  return { schedules, ...served };
}

const ada = { tenantId: "acme", principalId: "user:ada" };
const bob = { tenantId: "acme", principalId: "user:bob" };
const soon = () => new Date(Date.now() + 3_600_000).toISOString();

const refused = (envelope: Envelope) => (envelope.ok ? undefined : envelope.error);

describe("schedule toolkit through the seam", () => {
  it("schedules a checked tool call for the caller, lists it fenced, and cancels it once", async () => {
    const { seam, context, schedules } = harness();
    const made = await seam.call(context(ada), "schedule_create", {
      tool: "calculate",
      input: { expression: "6*7" },
      cron: "0 9 * * 1-5",
      timeZone: "Europe/Paris",
    });
    expect(made).toMatchObject({
      ok: true,
      data: {
        id: expect.stringMatching(/^sch_[0-9a-f]{16}$/),
        status: "active",
        nextFireAt: expect.any(String),
      },
    });
    const id = made.ok ? (made.data as { id: string }).id : "";
    // Each answer that repeats what a model wrote is fenced, not only the listing.
    expect(made).toMatchObject({
      provenance: { source: "schedule_create: made by an agent", trusted: false },
      content: expect.stringMatching(
        /^<untrusted-content id="[0-9a-f]{16}" source="schedule_create: made by an agent">/,
      ),
    });
    expect(await schedules.get(ada, id)).toMatchObject({
      principalId: "user:ada",
      action: { kind: "tool", tool: "calculate", input: { expression: "6*7" } },
      timing: { kind: "cron", expression: "0 9 * * 1-5", timeZone: "Europe/Paris" },
    });

    const listed = await seam.call(context(ada), "schedule_list", {});
    expect(listed).toMatchObject({
      ok: true,
      provenance: { source: "schedule_list: made by an agent", trusted: false },
      data: { schedules: [{ id }] },
    });
    const content = listed.ok ? listed.content : "";
    expect(content).toMatch(
      /^<untrusted-content id="[0-9a-f]{16}" source="schedule_list: made by an agent">/,
    );
    expect(content).toContain(
      `${id} [active] calls calculate {"expression":"6*7"} on "0 9 * * 1-5" (Europe/Paris)`,
    );

    expect(await seam.call(context(ada), "schedule_cancel", { id })).toMatchObject({
      ok: true,
      data: { id, status: "cancelled" },
      provenance: { source: "schedule_cancel: made by an agent", trusted: false },
      content: expect.stringMatching(
        /^<untrusted-content id="[0-9a-f]{16}" source="schedule_cancel: made by an agent">/,
      ),
    });
    expect(await seam.call(context(ada), "schedule_cancel", { id })).toMatchObject({
      ok: true,
      content: expect.stringContaining("already cancelled"),
    });
    expect(await seam.call(context(ada), "schedule_list", { status: "active" })).toMatchObject({
      ok: true,
      content: "No active schedule.",
    });
  });

  it("schedules a prompt once at an instant", async () => {
    const { seam, context } = harness();
    const at = soon();
    const made = await seam.call(context(ada), "schedule_create", { prompt: "Check the build", at });
    expect(made).toMatchObject({ ok: true, data: { status: "active", nextFireAt: at } });
  });

  it("keeps a schedule from a colleague: not listed, and cancelling it is refused like a missing one", async () => {
    const { seam, context } = harness();
    const made = await seam.call(context(ada), "schedule_create", { prompt: "Water the plants", at: soon() });
    const id = made.ok ? (made.data as { id: string }).id : "";
    expect(await seam.call(context(bob), "schedule_list", {})).toMatchObject({
      ok: true,
      content: "No schedule.",
    });
    expect(refused(await seam.call(context(bob), "schedule_cancel", { id }))).toMatchObject({
      code: "precondition_failed",
      message: `no schedule ${id} of this person's; schedule_list shows the ids`,
    });
    expect(await seam.call(context(ada), "schedule_list", {})).toMatchObject({
      ok: true,
      data: { schedules: [{ id, status: "active" }] },
    });
  });

  it("refuses what could not run, and keeps nothing", async () => {
    const { seam, context, schedules } = harness();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [
        { tool: "launch_rockets", input: {}, at: soon() },
        "unknown_tool",
        /no tool "launch_rockets" you may call/,
      ],
      [{ tool: "calculate", input: { formula: "1+1" }, at: soon() }, "invalid_input", /calculate's schema/],
      [{ tool: "calculate", input: {}, at: soon() }, "invalid_input", /calculate's schema/],
      [{ tool: "schedule_list", input: {}, at: soon() }, "invalid_input", /cannot itself be scheduled/],
      [
        {
          tool: "execute_tool",
          input: { name: "schedule_create", arguments: { prompt: "again", cron: "* * * * *" } },
          cron: "* * * * *",
        },
        "invalid_input",
        /execute_tool calls other tools and cannot be scheduled/,
      ],
      [
        { tool: "execute_tool", input: { name: "calculate", arguments: { expression: "1+1" } }, at: soon() },
        "invalid_input",
        /schedule the tool it would call instead/,
      ],
      [{ tool: "calculate", prompt: "hi", at: soon() }, "invalid_input", /either tool .* or prompt/],
      [{ prompt: "hi" }, "invalid_input", /either at .* or cron/],
      [{ prompt: "hi", at: soon(), cron: "* * * * *" }, "invalid_input", /either at .* or cron/],
      [{ prompt: "hi", at: "2020-01-01T00:00:00Z" }, "invalid_input", /not in the future/],
      [{ prompt: "hi", at: "tomorrow" }, "invalid_input", /.+/],
      [{ prompt: "hi", cron: "* * * * * *" }, "invalid_input", /at most once every 60 s/],
      [{ prompt: "hi", cron: "0 9 * * *", timeZone: "Nowhere/Land" }, "invalid_input", /IANA time zone/],
      [{ prompt: "hi", cron: "whenever" }, "invalid_input", /does not parse/],
    ];
    for (const [input, code, message] of cases) {
      const envelope = await seam.call(context(ada), "schedule_create", input);
      expect(refused(envelope), JSON.stringify(input)).toMatchObject({
        code,
        message: expect.stringMatching(message),
      });
    }
    expect(await schedules.list(ada)).toEqual([]);
  });

  it("refuses a tool the caller may not call as unknown, though it exists", async () => {
    // Bob may call everything but calculate.
    const { seam, context } = harness({
      authorize: (caller, tool) => !(caller.principalId === "user:bob" && tool.name === "calculate"),
    });
    const input = { tool: "calculate", input: { expression: "1+1" }, at: soon() };
    expect(refused(await seam.call(context(bob), "schedule_create", input))).toMatchObject({
      code: "unknown_tool",
      message: expect.stringContaining('no tool "calculate" you may call'),
    });
    expect(await seam.call(context(ada), "schedule_create", input)).toMatchObject({ ok: true });
  });

  it("is built only when the host lends both the store and the check of a scheduled call", async () => {
    const schedules = createMemoryScheduleStore();
    const scheduleTargets = seamScheduleTargets(() => {
      throw new Error("not called while building");
    });
    const names = (tools: readonly { name: string }[]) => tools.map((tool) => tool.name);
    expect(
      names(await schedulesToolkit.build({}, createToolkitHost({ schedules, scheduleTargets }))),
    ).toEqual(["schedule_create", "schedule_list", "schedule_cancel"]);
    expect(await schedulesToolkit.build({}, createToolkitHost({ schedules }))).toEqual([]);
    expect(await schedulesToolkit.build({}, createToolkitHost({ scheduleTargets }))).toEqual([]);
  });
});
