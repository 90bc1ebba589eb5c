import { describe, expect, it } from "vitest";
import type { PageSchema } from "./property-schema.js";
import { propertyValues } from "./property-values.js";

const schema: PageSchema = {
  where: 'data source "People" (x)',
  properties: {
    Name: { type: "title" },
    Notes: { type: "rich_text" },
    Kind: { type: "select" },
    Skills: { type: "multi_select" },
    Mail: { type: "email" },
    Phone: { type: "phone_number" },
    Lead: { type: "people" },
    Projects: { type: "relation" },
    Files: { type: "files" },
  },
};

const ID = "5b8e1cbf7d444d10a0b62f0f1e3b9a11";

describe("propertyValues", () => {
  it("turns each type's value into Notion's shape, ids dashed", () => {
    expect(
      propertyValues(
        {
          Notes: "n",
          Kind: null,
          Skills: [],
          Mail: "ada@example.com",
          Phone: "+44 20 7946 0000",
          Lead: [ID],
          Projects: [],
        },
        schema,
      ),
    ).toEqual({
      Notes: { rich_text: [{ type: "text", text: { content: "n" } }] },
      Kind: { select: null },
      Skills: { multi_select: [] },
      Mail: { email: "ada@example.com" },
      Phone: { phone_number: "+44 20 7946 0000" },
      Lead: { people: [{ id: "5b8e1cbf-7d44-4d10-a0b6-2f0f1e3b9a11" }] },
      Projects: { relation: [] },
    });
  });

  it("refuses what Notion would refuse or misread, each named", () => {
    let details: Record<string, unknown> | undefined;
    try {
      propertyValues(
        { Kind: "a,b", Skills: ["ok", "x,y"], Mail: "not-mail", Lead: ["ada"], Projects: "p", Files: ["f"] },
        schema,
      );
    } catch (error) {
      details = (error as { details?: Record<string, unknown> }).details;
    }
    expect(details?.invalidValues).toEqual([
      '"Kind" is a select property and takes one option name (at most 100 characters, no comma) or null, not text',
      '"Skills" is a multi_select property and takes a list of option names (each at most 100 characters, no comma), not a list',
      '"Mail" is a email property and takes an email address of at most 200 characters or null, not text',
      '"Lead" is a people property and takes a list of Notion user ids, not a list',
      '"Projects" is a relation property and takes a list of Notion page ids, not text',
      '"Files" is a files property, which this tool does not write',
    ]);
  });
});
