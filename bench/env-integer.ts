/** @module A benchmark knob from the environment: a positive whole number, or the fallback when unset. */

export function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a positive whole number: "${raw}"`);
  return value;
}
