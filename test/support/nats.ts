/** @module The NATS probe the bus tests share, and a subject prefix no other run uses. */
import { randomBytes } from "node:crypto";
import { connect } from "nats";

export const NATS_URL = process.env.TOOLREG_TEST_NATS_URL ?? "nats://127.0.0.1:4222";

/** Whether NATS answers; under CI=true its absence is an error, elsewhere a warning and a skip. */
export async function natsAvailable(suite: string): Promise<boolean> {
  let up = true;
  try {
    const connection = await connect({ servers: NATS_URL, timeout: 2_000, reconnect: false });
    await connection.close();
  } catch {
    up = false;
  }
  if (!up && process.env.CI === "true") {
    throw new Error(`NATS is required under CI=true, but nothing answers at ${NATS_URL}`);
  }
  if (!up) console.warn(`Skipping the NATS ${suite}: nothing answers at ${NATS_URL}.`);
  return up;
}

/** Subjects of this run alone, so parallel runs on one NATS never hear each other. */
export const freshPrefix = () => `toolreg_test_${randomBytes(6).toString("hex")}`;
