/**
 * @module A page's address for people. Confluence gives `_links.webui` relative to `_links.base` (the
 * site's /wiki, on a single page's answer); a list gives `base` once, or not at all behind the OAuth
 * gateway, where the configured site stands in. Only an https address under that base is returned.
 */
export function webLinkOf(
  links: { webui?: string | undefined; base?: string | undefined } | undefined,
  fallbackBase: string | undefined,
): string | undefined {
  const base = links?.base ?? fallbackBase;
  const webui = links?.webui;
  if (base === undefined || webui === undefined || !webui.startsWith("/") || webui.startsWith("//"))
    return undefined;
  try {
    const url = new URL(`${base.replace(/\/+$/, "")}${webui}`);
    return url.protocol === "https:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}
