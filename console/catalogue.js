/** @module The catalogue view: the tools this tenant may see, searched and filtered by the server. */
import { failureText, getJson } from "./api.js";
import { badge, el, setStatus } from "./dom.js";
import { EFFECT_TONE, formatJson } from "./format.js";
import { argumentTable } from "./schema-table.js";

const SEARCH_DELAY_MS = 250;

export function createCatalogue({ form, list, status }) {
  let latest = 0;
  let timer;

  async function load() {
    const request = ++latest;
    const query = new URLSearchParams();
    for (const name of ["q", "category", "effect"]) {
      const value = form.elements[name].value.trim();
      if (value) query.set(name, value);
    }
    setStatus(status, "Loading tools…");
    try {
      const { tools } = await getJson(`/api/v1/tools?${query}`);
      // A slower, older search must not overwrite a newer one.
      if (request !== latest) return;
      if (query.size === 0) fillFilters(form, tools);
      list.replaceChildren(...tools.map(toolItem));
      setStatus(status, countText(tools.length, query.size > 0));
    } catch (error) {
      if (request === latest) setStatus(status, failureText(error), "error");
    }
  }

  form.addEventListener("input", (event) => {
    clearTimeout(timer);
    timer = setTimeout(load, event.target.name === "q" ? SEARCH_DELAY_MS : 0);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    clearTimeout(timer);
    load();
  });
  return { load };
}

function countText(count, filtered) {
  const one = count === 1;
  if (filtered) return `${count} ${one ? "tool matches" : "tools match"}`;
  return `${count} ${one ? "tool" : "tools"} available to you`;
}

/** The filters offer what the unfiltered list holds, so no choice can only ever come back empty. */
function fillFilters(form, tools) {
  for (const name of ["category", "effect"]) {
    const select = form.elements[name];
    const values = [...new Set(tools.map((tool) => tool[name]))].sort();
    const chosen = select.value;
    select.replaceChildren(select.options[0], ...values.map((value) => el("option", { value }, value)));
    select.value = values.includes(chosen) ? chosen : "";
  }
}

function toolItem(tool) {
  return el(
    "li",
    { class: "tool" },
    el(
      "details",
      {},
      el(
        "summary",
        {},
        el(
          "span",
          { class: "tool-head" },
          el("code", { class: "tool-name" }, tool.name),
          el("span", { class: "muted" }, `v${tool.version}`),
          badge(tool.category),
          badge(tool.effect, EFFECT_TONE[tool.effect]),
        ),
        el("span", { class: "tool-summary" }, tool.description),
      ),
      el(
        "div",
        { class: "tool-body" },
        el("p", { class: "description" }, tool.description),
        el(
          "p",
          { class: "badges" },
          badge(`effect: ${tool.effect}`, EFFECT_TONE[tool.effect]),
          badge(`approval: ${tool.approval}`, tool.approval === "never" ? "calm" : "warn"),
          badge(`idempotency key: ${tool.idempotency ? "required" : "not needed"}`),
          badge(`cost: ${tool.cost}`),
          tool.runtime && badge(`runtime ${tool.runtime}`),
          tool.deprecated_by && badge(`deprecated: use ${tool.deprecated_by}`, "danger"),
        ),
        el("h3", {}, "Arguments"),
        argumentTable(tool.input_schema),
        el(
          "details",
          { class: "raw" },
          el("summary", {}, "Raw input schema"),
          el("pre", { class: "json" }, formatJson(tool.input_schema)),
        ),
      ),
    ),
  );
}
