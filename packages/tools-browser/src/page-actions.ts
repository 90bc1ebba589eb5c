/**
 * @module What the session does to a page beyond Playwright's own calls: loads and reads that survive the
 * page moving on by itself, the check that keeps credentials out of browser_type, and failures worded for
 * a model.
 */
import type { ElementHandle, Page } from "playwright-core";
import { ToolFailure } from "toolreg/toolkit";
import { type PickedPage, pickPage } from "./page-snapshot.js";

/** Fields that hold a credential, by their attributes: a password input, or one autocomplete names so. */
const SECRET_FIELD =
  "input[type=password i], [autocomplete~=current-password i], [autocomplete~=new-password i], [autocomplete~=one-time-code i]";
const TEXT_FIELD =
  "textarea, select, input:not([type=checkbox i], [type=radio i], [type=submit i], [type=button i], [type=reset i], [type=image i], [type=hidden i], [type=range i], [type=color i], [type=file i])";

/**
 * Whether `element` itself matches `css`. Playwright's selector engine runs in its own isolated world, where
 * the page's scripts cannot redefine a getter or a method; the checks below never run in the page's world.
 */
async function matches(element: ElementHandle, css: string): Promise<boolean> {
  const found = await element.$(`:scope:is(${css})`);
  await found?.dispose();
  return found !== null;
}

/**
 * Why an element may not be typed into, or "" when it may. Read from attributes, outside the page's
 * scripts: a password field, a file input, a field of a form with a password field, or — for a field in
 * no form — any field on a page that has a password field anywhere (open shadow roots included).
 */
export async function typingRefusal(page: Page, element: ElementHandle): Promise<string> {
  if (await matches(element, SECRET_FIELD)) {
    return "a password field: no credential is typed by this tool; ask the user to sign in themselves";
  }
  if (await matches(element, "input[type=file i]"))
    return "a file input: files are not uploaded by this tool";
  const form = await element.$("xpath=ancestor::form");
  try {
    const elsewhere = (await element.getAttribute("form")) !== null;
    if (form && !elsewhere) {
      const secret = await form.$(SECRET_FIELD);
      await secret?.dispose();
      if (secret) {
        return "in a form with a password field: sign-in forms are not filled by this tool; ask the user to sign in themselves";
      }
    } else if ((await page.locator(SECRET_FIELD).count()) > 0) {
      return "outside any form on a page with a password field, which may be a sign-in form without a <form>: it is not filled by this tool; ask the user to sign in themselves";
    }
  } finally {
    await form?.dispose();
  }
  if (await matches(element, TEXT_FIELD)) return "";
  const editable = await element.$(
    "xpath=ancestor-or-self::*[@contenteditable and translate(@contenteditable, 'FALSE', 'false') != 'false'][1]",
  );
  await editable?.dispose();
  return editable ? "" : "not a field that takes text: use browser_click for it";
}

/** Whether the element is a select, read outside the page's scripts. */
export function isSelect(element: ElementHandle): Promise<boolean> {
  return matches(element, "select");
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
