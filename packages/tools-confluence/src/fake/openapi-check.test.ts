import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConfluenceFake, startConfluenceFake, TEST_BASIC } from "./confluence-fake.js";
import { ENG_SPACE_ID, RUNBOOK_ID } from "./confluence-site.js";
import { loadOpenApiCheck, type OpenApiCheck } from "./openapi-check.js";

// Atlassian's description may not be redistributed, so it is not committed: see openapi-check.ts.
const DESCRIPTION = process.env.CONFLUENCE_OPENAPI_V2;

describe.skipIf(DESCRIPTION === undefined)(
  "the fake's v2 answers, against Atlassian's OpenAPI description",
  () => {
    let fake: ConfluenceFake;
    let check: OpenApiCheck;
    beforeAll(async () => {
      fake = await startConfluenceFake();
      check = loadOpenApiCheck(DESCRIPTION ?? "");
    });
    afterAll(() => fake.close());

    const send = async (method: string, path: string, json?: unknown) => {
      const response = await fetch(`${fake.url}${path}`, {
        method,
        headers: {
          authorization: `Basic ${Buffer.from(TEST_BASIC).toString("base64")}`,
          ...(json === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    const storage = { representation: "storage", value: "<p>x</p>" };

    it("matches for every v2 operation the tools use", async () => {
      const answers = [
        ["GET", `/wiki/api/v2/pages/${RUNBOOK_ID}?body-format=storage`],
        ["GET", `/wiki/api/v2/spaces?limit=2`],
        [
          "POST",
          "/wiki/api/v2/pages",
          { spaceId: ENG_SPACE_ID, status: "current", title: "Checked", body: storage },
        ],
        [
          "PUT",
          `/wiki/api/v2/pages/${RUNBOOK_ID}`,
          {
            id: RUNBOOK_ID,
            status: "current",
            title: "Deploy runbook",
            body: storage,
            version: { number: 8 },
          },
        ],
        ["POST", "/wiki/api/v2/footer-comments", { pageId: RUNBOOK_ID, body: storage }],
      ] as const;
      for (const [method, path, json] of answers) {
        const { status, body } = await send(method, path, json);
        expect(status).toBeLessThan(300);
        expect(check.problems(method, path.split("?")[0] ?? path, status, body), `${method} ${path}`).toEqual(
          [],
        );
      }
    });

    it("fails an answer Confluence would never send", () => {
      const wrong = { id: 393217, title: "x", version: { number: "7" } };
      expect(check.problems("GET", `/wiki/api/v2/pages/${RUNBOOK_ID}`, 200, wrong)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^\/id must be string/),
          expect.stringMatching(/^\/version\/number must be integer/),
        ]),
      );
      expect(() => check.problems("GET", "/wiki/api/v2/nowhere", 200, {})).toThrow(/documents no JSON 200/);
    });
  },
);
