/**
 * @module The console's views as ARIA tabs: click or arrow keys to move, and the address's `#hash` names
 * the view, so a reload or a shared link opens the same one.
 */

export function setupTabs(tablist, onShow) {
  const tabs = [...tablist.querySelectorAll("[role=tab]")];
  const panelOf = (tab) => document.getElementById(tab.getAttribute("aria-controls"));

  function select(tab, { focus = false } = {}) {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute("aria-selected", String(selected));
      other.tabIndex = selected ? 0 : -1;
      panelOf(other).hidden = !selected;
    }
    if (focus) tab.focus();
    history.replaceState(null, "", `#${tab.getAttribute("aria-controls")}`);
    onShow(tab.getAttribute("aria-controls"));
  }

  tablist.addEventListener("click", (event) => {
    const tab = event.target.closest("[role=tab]");
    if (tab) select(tab);
  });
  tablist.addEventListener("keydown", (event) => {
    const steps = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (steps === undefined) return;
    const current = tabs.indexOf(document.activeElement);
    select(tabs[(current + steps + tabs.length) % tabs.length], { focus: true });
  });

  const fromHash = tabs.find((tab) => `#${tab.getAttribute("aria-controls")}` === location.hash);
  select(fromHash ?? tabs[0]);
}
