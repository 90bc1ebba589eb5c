/**
 * @module The GitHub toolkit's own OAuth consent, end to end over real HTTP on 127.0.0.1: toolreg's registry
 * server (SQLite, credentials sealed under a key) serving the real GitHub toolkit, configured with a web
 * host where a real OAuth provider (oidc-provider 9) serves GitHub's /login/oauth paths and issues opaque
 * tokens with GitHub's scopes, and the GitHub fake accepting only the tokens that provider issued (RFC 7662
 * introspection), answering any other with GitHub's own 401.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GithubFake, startGithubFake } from "../../packages/tools-github/src/fake/github-fake.js";
import { issueRoutesOver } from "../../packages/tools-github/src/fake/issues-routes.js";
import { seedIssueStore } from "../../packages/tools-github/src/fake/issues-store.js";
import { checkAgainstOpenApi } from "../../packages/tools-github/src/fake/openapi-check.js";
import { githubToolkit } from "../../packages/tools-github/src/toolkit.js";
import type { Envelope } from "../../src/seam/envelope.js";
import type { RegistryServer } from "../../src/server/registry-server.js";
import { createToolkitHost } from "../../src/tools/toolkit/toolkit-host.js";
import { type BrowserVisit, completeConsent } from "./browser.js";
import { type ConsentServer, startConsentServer } from "./consent-server.js";
import { type ProviderFixture, startProvider } from "./oidc-provider-fixture.js";

const TENANT = "acme";
/** The resource the provider's tokens are for (RFC 8707): GitHub's API. */
const GITHUB_API = "https://api.github.com/";

let provider: ProviderFixture;
let github: GithubFake;
let consent: ConsentServer;
let server: RegistryServer;
let origin: string;
let toolkitHost: ReturnType<typeof createToolkitHost>;

beforeAll(async () => {
  provider = await startProvider({
    routes: { authorization: "/login/oauth/authorize", token: "/login/oauth/access_token" },
    resource: { indicator: GITHUB_API, scopes: ["repo", "read:project", "project"] },
  });
  github = await startGithubFake({
    routes: [issueRoutesOver(seedIssueStore())],
    check: checkAgainstOpenApi,
    async authenticate(token) {
      const login = await provider.subjectFor(token, GITHUB_API);
      return login ? { login } : undefined;
    },
  });
  // Loopback is allowed for the test's own servers alone: in a deployment GitHub is a public host.
  toolkitHost = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
  const tools = await githubToolkit.build({ baseUrl: github.url, webUrl: provider.issuer }, toolkitHost);
  consent = await startConsentServer({
    tools,
    apps: { github: provider.client },
    tenantId: TENANT,
    principals: ["alice", "carol"],
  });
  ({ server, url: origin } = consent);
  provider.start(`${origin}/oauth/callback`);
});

afterAll(async () => {
  await consent?.close();
  await toolkitHost?.close();
  await github?.close();
  await provider?.close();
  // Every answer the fake served passed GitHub's OpenAPI description.
  expect(github?.checkFailures ?? []).toEqual([]);
});

const invoke: ConsentServer["invoke"] = (...call) => consent.invoke(...call);
const resume: ConsentServer["resume"] = (...call) => consent.resume(...call);

interface Parked {
  parkedCallId: string;
  consentId: string;
  problem: string;
  scopes: string[];
  consentUrl: string;
}

function parkedOf(answer: { status: number; envelope: Envelope }): Parked {
  expect(answer.status).toBe(202);
  expect(answer.envelope).toMatchObject({ ok: false, error: { code: "auth_required" } });
  return (answer.envelope.ok ? {} : answer.envelope.error.details) as unknown as Parked;
}

/**
 * How the user opens a parked call's consent, and completes it at the provider: the one place that knows
 * which link the envelope gives them.
 */
async function openConsent(parked: Parked, login: string): Promise<BrowserVisit> {
  const browser = await consent.browserOf(login);
  return completeConsent(parked.consentUrl, { login, password: `${login}-password` }, browser);
}

const ISSUE = { owner: "octocat", repo: "hello-world", issue_number: 7 };
const ISSUE_PATH = "/repos/octocat/hello-world/issues/7";
const requestsTo = (path: string) => github.requests.filter((request) => request.path === path);

/** The token toolreg stored for a user, read the way only the resolver reads it. */
async function storedTokenOf(principalId: string): Promise<string> {
  const token = await server.deps.credentials?.resolve("github", { tenantId: TENANT, principalId });
  if (!token) throw new Error(`no token for ${principalId}`);
  return token;
}

describe("the GitHub toolkit's OAuth consent, at a provider serving GitHub's paths", () => {
  it("parks an unconnected read, connects at the web host's /login/oauth, and runs the read once", async () => {
    const ids = { run: "run-alice", call: "call-1" };
    const parked = parkedOf(await invoke("alice", "github_get_issue", ISSUE, ids));
    expect(parked).toMatchObject({ problem: "missing", scopes: ["repo"] });
    expect(github.requests).toEqual([]);

    const page = await openConsent(parked, "alice");
    // The toolkit's endpoints followed webUrl: the browser was sent to GitHub's authorize path there.
    const authorize = page.visited.find((step) =>
      step.startsWith(`GET ${provider.issuer}/login/oauth/authorize?`),
    );
    expect(authorize).toBeDefined();
    expect(page.url.startsWith(`${origin}/oauth/callback?`)).toBe(true);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Connected github");
    expect(page.text).toContain("github_get_issue ran.");

    const token = await storedTokenOf("alice");
    expect(requestsTo(ISSUE_PATH)).toMatchObject([
      { method: "GET", login: "alice", headers: { authorization: `Bearer ${token}` } },
    ]);
    expect(await provider.introspect(token)).toMatchObject({ active: true, sub: "alice", scope: "repo" });
    const stored = await server.deps.credentialStore?.list({ tenantId: TENANT, principalId: "alice" });
    expect(stored).toMatchObject([{ ref: "github", kind: "oauth", provider: "github", scopes: ["repo"] }]);

    const first = await resume("alice", parked.parkedCallId);
    expect(first).toMatchObject({
      status: 200,
      envelope: { ok: true, data: { number: 7, title: "Issue 7", state: "open" } },
    });
    expect(await resume("alice", parked.parkedCallId)).toEqual(first);
    expect(requestsTo(ISSUE_PATH)).toHaveLength(1);
  });

  it("parks a write whose scope the connection lacks, asking for the scopes held and the one it needs", async () => {
    const before = github.requests.length;
    const parked = parkedOf(
      await invoke(
        "alice",
        "github_create_project",
        { owner: "octocat", title: "Roadmap" },
        { run: "run-alice", call: "w-1" },
      ),
    );
    expect(parked.problem).toBe("scopes");
    expect([...parked.scopes].sort()).toEqual(["project", "repo"]);
    expect(github.requests).toHaveLength(before);
  });

  it("hears of a token the provider revoked through GitHub's 401, then parks the next call for consent again", async () => {
    const parked = parkedOf(
      await invoke("carol", "github_get_issue", ISSUE, { run: "run-carol", call: "c-1" }),
    );
    await openConsent(parked, "carol");
    const token = await storedTokenOf("carol");
    const carols = () =>
      github.requests.filter((request) => request.headers.authorization === `Bearer ${token}`);
    expect(carols()).toMatchObject([{ path: ISSUE_PATH, login: "carol" }]);

    await provider.revoke(token);
    const refused = await invoke("carol", "github_get_issue", ISSUE, { run: "run-carol", call: "c-2" });
    expect(refused).toMatchObject({
      status: 202,
      envelope: {
        ok: false,
        error: { code: "auth_required", details: { status: 401, credentialRejected: true } },
      },
    });
    // GitHub's fake saw the revoked token once, and did not know it.
    expect(carols()).toHaveLength(2);
    expect(carols()[1]?.login).toBeUndefined();

    const again = parkedOf(
      await invoke("carol", "github_get_issue", ISSUE, { run: "run-carol", call: "c-3" }),
    );
    expect(again.problem).toBe("revoked");
    expect(again.consentId).not.toBe(parked.consentId);
    expect(carols()).toHaveLength(2);
    // What toolreg was told is GitHub's own answer to a dead token.
    const direct = await fetch(`${github.url}${ISSUE_PATH}`, {
      headers: { authorization: `Bearer ${token}`, "user-agent": "github-consent-test" },
    });
    expect(direct.status).toBe(401);
    expect(await direct.json()).toEqual({
      message: "Bad credentials",
      documentation_url: "https://docs.github.com/rest",
      status: "401",
    });
  });
});
