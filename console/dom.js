/**
 * @module Element building for the console. Children that are strings become text nodes, so data from the
 * server (tool descriptions, call arguments) is never parsed as HTML.
 */

/**
 * `props`: `class`, `on<event>` listeners, and attributes (true → present, false/undefined/null → absent).
 * Null, undefined and false children are dropped, so callers can write `condition && child`.
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...children.flat().filter((child) => child !== undefined && child !== null && child !== false));
  return node;
}

/** A small label; `tone` picks its colour (see `.badge-*` in style.css). */
export function badge(text, tone = "neutral") {
  return el("span", { class: `badge badge-${tone}` }, text);
}

/** A status line's text and tone (`error` shows it as a problem). */
export function setStatus(node, text, tone) {
  node.textContent = text;
  node.classList.toggle("status-error", tone === "error");
}
