/**
 * @module The e-mail toolkit bound to a fake behind a real seam, as a deployment binds it: the real toolkit
 * host and egress (loopback allowed for the fakes alone), a memory record store, the credentials resolved
 * from the caller's resolver.
 */
import { approvalIdOf, type Envelope } from "toolreg";
import { createMemoryToolkitRecordStore, createTestHarness, type TestHarness } from "toolreg/test";
import { createToolkitHost, type EgressClient, type ToolkitRecordStore } from "toolreg/toolkit";
import { emailToolkit } from "../toolkit.js";

export const FROM = { address: "assistant@mg.acme.example", name: "Acme Assistant" };

type ContextOverrides = Parameters<TestHarness["context"]>[0];

export interface EmailHarness extends TestHarness {
  records: ToolkitRecordStore;
  context(overrides?: ContextOverrides): ReturnType<TestHarness["context"]>;
  /** Calls a tool, approving it once as a person would when it parks (email_send does). */
  call(name: string, input: unknown, overrides?: ContextOverrides): Promise<Envelope>;
  close(): Promise<void>;
}

export async function startEmailHarness(
  config: Record<string, unknown>,
  secrets: Record<string, string>,
  options: { egress?: EgressClient } = {},
): Promise<EmailHarness> {
  const records = createMemoryToolkitRecordStore();
  const host = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] }, records });
  const { egress } = options;
  const tools = await emailToolkit.build(
    { from: FROM, ...config },
    egress ? { ...host, egress: () => egress } : host,
  );
  const harness = createTestHarness(tools, { clock: Date.now });
  const context = (overrides: ContextOverrides = {}) =>
    harness.context({
      credentials: {
        resolve: async (ref) => {
          const secret = secrets[ref];
          return secret === undefined ? Promise.reject(new Error(`no credential ${ref}`)) : secret;
        },
      },
      ...overrides,
    });
  return {
    ...harness,
    records,
    context,
    async call(name, input, overrides) {
      const caller = context(overrides);
      const first = await harness.seam.call(caller, name, input);
      const approvalId = approvalIdOf(first);
      if (approvalId === undefined) return first;
      await harness.seam.approve({ tenantId: caller.tenantId, approvalId, by: "reviewer" });
      return harness.seam.resume(caller, approvalId);
    },
    close: () => host.close(),
  };
}

/** The envelope's data, or a thrown error naming the failure. */
export function dataOf<T>(result: Envelope): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.data as T;
}

/** The envelope's error, or a thrown error when it succeeded. */
export function errorOf(result: Envelope) {
  if (result.ok) throw new Error(`expected a failure, got: ${result.content}`);
  return result.error;
}

/** The options of the egress client class, as far as these tests set them. */
interface EgressClientInit {
  policy?: { allowAddressClasses?: string[]; allowHosts?: string[] };
  resolver?: (host: string) => Promise<{ address: string; family: 4 | 6 }[]>;
  extraCertificates?: readonly string[];
}

/**
 * A real egress client with its own name resolution (`names`, each to one address) and extra trusted CAs. Its
 * class is reached through a client the toolkit host made: a vendor package's tests import toolreg/toolkit
 * and toolreg/test only, and neither exports the class.
 */
export function egressWith(
  names: Record<string, string>,
  extraCertificates?: readonly string[],
): EgressClient {
  const host = createToolkitHost();
  const EgressClientClass = host.egress().constructor as new (init: EgressClientInit) => EgressClient;
  void host.close();
  return new EgressClientClass({
    policy: { allowAddressClasses: ["loopback"] },
    resolver: async (name) => {
      const address = names[name];
      return address ? [{ address, family: 4 }] : [];
    },
    ...(extraCertificates ? { extraCertificates } : {}),
  });
}
