/**
 * @module The search toolkit bound to one provider's fake, as a deployment would bind it: the real
 * toolkit host and egress client (loopback allowed for the fake alone), the key injected by egress from
 * the caller's credential resolver. A test puts the tools behind a seam and calls them with `searchCaller`.
 */
import type { AnyTool } from "../../../registry/registry.js";
import type { ExecutionContext, ExecutionContextInit } from "../../../seam/context.js";
import type { Envelope } from "../../../seam/envelope.js";
import type { Seam } from "../../../seam/seam.js";
import { createToolkitHost } from "../../toolkit/toolkit-host.js";
import type { SearchConfig } from "../search-config.js";
import type { ProviderName } from "../search-provider.js";
import { searchToolkit } from "../toolkit.js";
import { startBraveFake } from "./brave-fake.js";
import type { SearchFake } from "./fake-server.js";
import { CREDENTIAL_REF, TEST_KEY } from "./fixture-pages.js";
import { startSearxngFake } from "./searxng-fake.js";
import { startSerperFake } from "./serper-fake.js";
import { startTavilyFake } from "./tavily-fake.js";

const FAKES: Record<ProviderName, () => Promise<SearchFake<string>>> = {
  brave: startBraveFake,
  tavily: startTavilyFake,
  serper: startSerperFake,
  searxng: startSearxngFake,
};

export interface SearchRig<S extends string = string> {
  fake: SearchFake<S>;
  tools: readonly AnyTool[];
  close(): Promise<void>;
}

/** Starts `provider`'s fake and builds the toolkit against it; `config` adds to or overrides the defaults. */
export async function startSearchRig<S extends string = string>(
  provider: ProviderName,
  config: Partial<SearchConfig> = {},
): Promise<SearchRig<S>> {
  const fake = (await FAKES[provider]()) as SearchFake<S>;
  const host = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
  const keyed = provider === "searxng" ? {} : { credentialRef: CREDENTIAL_REF };
  const tools = await searchToolkit.build({ provider, baseUrl: fake.url, ...keyed, ...config }, host);
  return {
    fake,
    tools,
    async close() {
      await host.close();
      await fake.close();
    },
  };
}

/** A resolver that hands egress `secret` for the toolkit's reference, and nothing for any other. */
export function credentialsResolving(secret: string) {
  return {
    resolve: async (ref: string) => {
      if (ref !== CREDENTIAL_REF) throw new Error(`no credential named ${ref}`);
      return secret;
    },
  };
}

interface SeamHarness {
  seam: Seam;
  context(overrides?: Partial<ExecutionContextInit>): ExecutionContext;
}

/** Calls `web_search` through the seam as a caller whose credential resolves to `secret`. */
export function searchCaller(harness: SeamHarness, secret = TEST_KEY): (input: unknown) => Promise<Envelope> {
  return (input) =>
    harness.seam.call(harness.context({ credentials: credentialsResolving(secret) }), "web_search", input);
}
