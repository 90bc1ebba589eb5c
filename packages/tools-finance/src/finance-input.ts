/**
 * @module A ticker symbol as the finance tools take it: the characters exchanges' symbols use (letters,
 * digits, `.` for a class or a market suffix, `^` for an index, `=` for a currency or future, `-`), at
 * most 15, upper-cased. Anything else — a path, a query, a space — is refused before any request.
 */
import { z } from "zod";

const SYMBOL = /^[A-Z0-9.^=-]{1,15}$/;

export const SymbolSchema = z
  .string()
  .min(1)
  .max(15)
  .transform((symbol) => symbol.toUpperCase())
  .pipe(
    z
      .string()
      .regex(SYMBOL, "a ticker symbol: letters, digits and . ^ = - only, e.g. AAPL, BRK-B, ^GSPC, EURUSD=X")
      .refine((symbol) => /[A-Z0-9]/.test(symbol), "a ticker symbol has at least one letter or digit"),
  )
  .describe(
    "a ticker symbol as the provider spells it, e.g. AAPL, ^GSPC or EURUSD=X (at most 15 characters)",
  );
