import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NotionFake, startNotionFake } from "./notion-fake.js";
import { createWorld, HANDBOOK, TEST_TOKEN } from "./notion-world.js";

let fake: NotionFake;
beforeAll(async () => {
  fake = await startNotionFake(createWorld());
});
afterAll(() => fake.close());

const headers = {
  authorization: `Bearer ${TEST_TOKEN}`,
  "notion-version": "2025-09-03",
  "content-type": "application/json",
};
const paragraph = (content: string) => ({
  type: "paragraph",
  paragraph: { rich_text: [{ text: { content } }] },
});

async function patchChildren(children: unknown[], extra: Record<string, string> = {}) {
  const response = await fetch(`${fake.url}/v1/blocks/${HANDBOOK}/children`, {
    method: "PATCH",
    headers: { ...headers, ...extra },
    body: JSON.stringify({ children }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("the Notion fake holds the toolkit to Notion's documented limits", () => {
  it("refuses 101 children in one request as validation_error, in Notion's error shape", async () => {
    const { status, body } = await patchChildren(Array.from({ length: 101 }, () => paragraph("x")));
    expect(status).toBe(400);
    expect(body).toMatchObject({
      object: "error",
      status: 400,
      code: "validation_error",
      message: "body failed validation: body.children.length should be ≤ `100`, instead was `101`.",
    });
  });

  it("refuses a text object over 2,000 characters, naming where", async () => {
    const { status, body } = await patchChildren([paragraph("ok"), paragraph("x".repeat(2001))]);
    expect(status).toBe(400);
    expect(body.message).toBe(
      "body failed validation: body.children[1].paragraph.rich_text[0].text.content.length should be ≤ `2000`, instead was `2001`.",
    );
  });

  it("answers a bad token 401 unauthorized and a missing Notion-Version 400 missing_version", async () => {
    expect((await patchChildren([], { authorization: "Bearer nope" })).body).toMatchObject({
      status: 401,
      code: "unauthorized",
    });
    const response = await fetch(`${fake.url}/v1/pages/${HANDBOOK}`, {
      headers: { authorization: headers.authorization },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "missing_version" });
  });
});
