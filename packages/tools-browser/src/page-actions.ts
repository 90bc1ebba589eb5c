/**
 * @module What the session does to a page beyond Playwright's own calls: loads and reads that survive the
 * page moving on by itself, the check that keeps credentials out of browser_type, and failures worded for
 * a model.
 */
import type { Page } from "playwright-core";
import { ToolFailure } from "toolreg/toolkit";
import { type PickedPage, pickPage } from "./page-snapshot.js";

// Runs in the page: why an element may not be typed into, or "" when it may.
// biome-ignore lint/suspicious/noExplicitAny: a page-side element; the project's lib has no DOM types.
export function typingRefusal(element: any): string {
  const tag = String(element.tagName).toLowerCase();
  const type = String(element.type ?? "").toLowerCase();
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  const secret = (node: any) =>
    (String(node.tagName).toLowerCase() === "input" && String(node.type).toLowerCase() === "password") ||
    /\b(current|new)-password\b/i.test(node.getAttribute("autocomplete") ?? "");
  if (secret(element))
    return "a password field: no credential is typed by this tool; ask the user to sign in themselves";
  if (tag === "input" && type === "file") return "a file input: files are not uploaded by this tool";
  const form = element.form ?? element.closest("form");
  if (form && Array.from(form.querySelectorAll("input, textarea")).some(secret))
    return "in a form with a password field: sign-in forms are not filled by this tool; ask the user to sign in themselves";
  const editable =
    tag === "textarea" ||
    tag === "select" ||
    (tag === "input" &&
      !["checkbox", "radio", "submit", "button", "reset", "image", "hidden", "range", "color"].includes(
        type,
      )) ||
    element.isContentEditable === true;
  return editable ? "" : "not a field that takes text: use browser_click for it";
}

/** Reads the page; once more after it loads when the page navigated away mid-read (its script, a refresh). */
export async function pickSettled(page: Page): Promise<PickedPage> {
  try {
    return await pickPage(page);
  } catch (error) {
    if (!/Execution context was destroyed|navigat/i.test(firstLine(error))) throw error;
    await page.waitForLoadState("load", { timeout: 5_000 }).catch(() => {});
    try {
      return await pickPage(page);
    } catch (again) {
      throw new ToolFailure(
        "upstream_error",
        `the page kept navigating while it was read: ${firstLine(again)}`,
        {
          retryable: true,
        },
      );
    }
  }
}

/**
 * `page.goto`, once more when the page's own navigation (a previous load's error page committing late, a
 * script moving on) interrupted it: the model asked for this URL, not for whatever was in flight.
 */
export async function gotoSettled(page: Page, url: string) {
  try {
    return await page.goto(url, { waitUntil: "load" });
  } catch (error) {
    if (!/interrupted by another navigation/.test(firstLine(error))) throw error;
    await page.waitForLoadState("load", { timeout: 2_000 }).catch(() => {});
    return await page.goto(url, { waitUntil: "load" });
  }
}

export function navigationFailure(error: unknown, url: string): ToolFailure {
  const message = firstLine(error);
  if (/Timeout/i.test(message)) {
    return new ToolFailure("timeout", `${url} did not finish loading in time`, { retryable: true });
  }
  return new ToolFailure("upstream_error", `could not load ${url}: ${message}`);
}

/** The first line of an error's message, cut to 300 characters. */
export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]?.slice(0, 300) ?? "";
}
