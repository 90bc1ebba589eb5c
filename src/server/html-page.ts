/** @module Small HTML pages a person reads in the browser (OAuth consent): escaped text, no script, nothing loaded. */
import { SECURITY_HEADERS } from "./security-headers.js";

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * A page of already-escaped `body` HTML, never cached. `formAction` lists where its form may post and be
 * redirected to (Chrome checks form-action along redirects); without it the page may post nowhere.
 */
export function htmlPage(status: number, title: string, body: string, formAction?: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>toolreg: ${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
  return new Response(html, {
    status,
    headers: {
      ...SECURITY_HEADERS,
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": `default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action ${formAction ?? "'none'"}`,
    },
  });
}
