/**
 * @module What the consent step asks of the host's credential resolver besides the secret: whether a
 * credential is usable for this caller and with which scopes, and to stop using one the vendor refused.
 * Resolvers chain: the environment's `env:NAME` references, then the stored credentials.
 */
import type { CredentialResolver } from "../context.js";

/** Why a credential cannot be used. Only `unreachable` may pass by itself; the others need a person. */
export type CredentialProblem = "missing" | "revoked" | "expired" | "unreachable";

export type CredentialCheck =
  | {
      usable: true;
      kind: "token" | "oauth" | undefined;
      /** The scopes granted, when the credential knows them (an OAuth connection); undefined otherwise. */
      scopes: readonly string[] | undefined;
    }
  | { usable: false; problem: CredentialProblem; message: string };

export type CredentialScope = Parameters<CredentialResolver["resolve"]>[1];

export interface CredentialInspector extends CredentialResolver {
  /** Whether `ref` is usable for this caller now (refreshing it if that is what it takes). */
  inspect(ref: string, scope: CredentialScope): Promise<CredentialCheck>;
  /**
   * The vendor refused `sent`, the secret `ref` resolved to for this caller (its 401): that credential is not
   * offered again. One stored since (the user reconnected, a refresh rotated it) is kept.
   */
  reject(ref: string, scope: CredentialScope, reason: string, sent: string): Promise<void>;
}

/** A resolver's refusal that says why: the consent step tells a missing credential from an unreachable vendor. */
export class CredentialUnavailableError extends Error {
  readonly problem: CredentialProblem;

  constructor(problem: CredentialProblem, message: string) {
    super(message);
    this.name = "CredentialUnavailableError";
    this.problem = problem;
  }
}

export function isInspector(resolver: CredentialResolver): resolver is CredentialInspector {
  const candidate = resolver as Partial<CredentialInspector>;
  return typeof candidate.inspect === "function" && typeof candidate.reject === "function";
}

/** A problem a person must solve ranks above one nobody knew of: `missing` only when every link says so. */
const RANK: Record<CredentialProblem, number> = { missing: 0, unreachable: 1, expired: 2, revoked: 3 };

/**
 * Asks each resolver in turn; the first that resolves wins. A resolver without `inspect` is asked to
 * resolve, and a credential it gives is usable with scopes unknown.
 */
export function chainCredentialResolvers(...links: readonly CredentialResolver[]): CredentialInspector {
  const inspect = async (ref: string, scope: CredentialScope): Promise<CredentialCheck> => {
    let worst: Extract<CredentialCheck, { usable: false }> | undefined;
    for (const link of links) {
      let check: CredentialCheck;
      if (isInspector(link)) {
        check = await link.inspect(ref, scope);
      } else {
        try {
          await link.resolve(ref, scope);
          check = { usable: true, kind: undefined, scopes: undefined };
        } catch (error) {
          check = {
            usable: false,
            problem: error instanceof CredentialUnavailableError ? error.problem : "missing",
            message: (error as Error).message,
          };
        }
      }
      if (check.usable) return check;
      if (!worst || RANK[check.problem] > RANK[worst.problem]) worst = check;
    }
    return worst ?? { usable: false, problem: "missing", message: `no credential resolver knows "${ref}"` };
  };
  return {
    async resolve(ref, scope) {
      let failure: unknown;
      for (const link of links) {
        try {
          return await link.resolve(ref, scope);
        } catch (error) {
          if (
            failure === undefined ||
            (error instanceof CredentialUnavailableError &&
              (!(failure instanceof CredentialUnavailableError) ||
                RANK[error.problem] > RANK[failure.problem]))
          ) {
            failure = error;
          }
        }
      }
      throw failure ?? new CredentialUnavailableError("missing", `no credential resolver knows "${ref}"`);
    },
    inspect,
    async reject(ref, scope, reason, sent) {
      for (const link of links) if (isInspector(link)) await link.reject(ref, scope, reason, sent);
    },
  };
}
