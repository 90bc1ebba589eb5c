/**
 * @module The registry's event stream. The browser reconnects by itself. Events sent while the stream was
 * not connected (before the first connection too) are not replayed, so `ready` is each view's cue to reload.
 */

export function followEvents(handlers, indicator) {
  const source = new EventSource("/api/v1/events");
  const show = (text, state) => {
    indicator.textContent = text;
    indicator.dataset.state = state;
    indicator.hidden = false;
  };

  source.addEventListener("ready", () => {
    show("Live", "live");
    handlers.ready();
  });
  for (const type of ["approval.requested", "approval.resolved", "tool.update"]) {
    // The payload names what changed; each view reloads what it shows, so only the type matters.
    source.addEventListener(type, () => handlers[type]());
  }
  source.addEventListener("error", () => {
    // CLOSED means the browser gave up (the session ended, say); CONNECTING means it is retrying.
    if (source.readyState === EventSource.CLOSED) show("Offline: reload the page", "offline");
    else show("Reconnecting…", "retrying");
  });
}
