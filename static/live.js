// Live updates for every gmtool screen: one SSE stream (push=1) that brings each new version's
// fragment, rendered for this viewer by the server, which the page morphs in, so typed input
// survives; a bare "changed" notice makes the page re-fetch its fragment. If the stream is
// refused (503: the server's stream cap) the page polls /version instead. Offline is shown.
(function () {
  "use strict";
  const body = document.body;
  const cfg = body.dataset;
  if (!cfg.liveFragment) return;
  let version = Number(cfg.liveVersion || 0);
  let busy = false, again = false, pollTimer = null, source = null;
  let knownPrompts = null;
  let lastSeen = Date.now();
  const heartbeatMs = 1000 * Number(cfg.liveHeartbeat || 15);

  function setOffline(off) { body.classList.toggle("is-offline", off); }

  function promptsChanged() {
    const root = document.querySelector("#live [data-open-prompts]");
    if (!root) return;
    const now = new Set(root.dataset.openPrompts.split(" ").filter(Boolean));
    if (knownPrompts && [...now].some((p) => !knownPrompts.has(p)) && navigator.vibrate) {
      navigator.vibrate(200);
    }
    knownPrompts = now;
  }

  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      await htmx.ajax("GET", cfg.liveFragment, { target: "#live", swap: "innerMorph" });
      const root = document.querySelector("#live .live-root");
      if (root) body.dataset.shownVersion = root.dataset.version;
      promptsChanged();
    } catch (e) {
      setOffline(true);
      version = -1;  // not shown: the next notice or heartbeat fetches again
    }
    busy = false;
    if (again) { again = false; refresh(); }
  }

  async function pushed(e) {  // "<version>\n<fragment>" from the stream: no round trip
    const cut = e.data.indexOf("\n");
    const v = Number(e.data.slice(0, cut));
    lastSeen = Date.now();
    setOffline(false);
    if (v === version && body.dataset.shownVersion === String(v)) return;
    version = v;
    await htmx.swap({ text: e.data.slice(cut + 1), target: document.getElementById("live"), swap: "innerMorph" });
    body.dataset.shownVersion = String(v);
    promptsChanged();
  }

  function seen(v) {
    lastSeen = Date.now();
    setOffline(false);
    if (v !== version) { version = v; refresh(); }
  }

  function startPolling() {
    body.classList.add("is-polling");
    if (pollTimer) return;
    pollTimer = setInterval(async function () {
      try {
        const r = await fetch(cfg.livePoll, { cache: "no-store", credentials: "same-origin" });
        if (!r.ok) throw new Error(String(r.status));
        seen((await r.json()).version);
      } catch (e) { setOffline(true); }
    }, 2000);
  }

  function startStream() {
    if (!window.EventSource) { startPolling(); return; }
    if (source) source.close();
    lastSeen = Date.now();
    source = new EventSource(cfg.liveEvents + "&push=1&v=" + body.dataset.shownVersion);
    source.addEventListener("changed", function (e) { seen(Number(e.data)); });
    source.addEventListener("fragment", pushed);
    source.addEventListener("hb", function (e) { seen(Number(e.data)); });
    // The stream's first message names the current version: seen() re-fetches only if it differs from
    // what the page shows, so a first load does not fetch the fragment the page already holds.
    source.onopen = function () { setOffline(false); };
    source.onerror = function () {
      if (source.readyState === EventSource.CLOSED) { startPolling(); }  // refused (e.g. 503)
      else { setOffline(true); }
    };
  }

  // After one of our own actions (a POST), refresh at once instead of waiting for the stream.
  document.addEventListener("htmx:after:request", function (e) {
    const method = e.detail && e.detail.ctx && e.detail.ctx.request && e.detail.ctx.request.method;
    const streaming = source && source.readyState === EventSource.OPEN;  // the stream brings it
    if (method && method !== "GET" && !streaming) refresh();
    const form = e.target && e.target.closest && e.target.closest("form[data-reset]");
    const status = e.detail && e.detail.ctx && e.detail.ctx.response && e.detail.ctx.response.status;
    if (form && status && status < 400) form.reset();  // a form that creates something starts empty again
  });
  // A silent connection (Wi-Fi gone without a close) is noticed by the missing heartbeat.
  setInterval(function () {
    if (pollTimer || !source) return;
    if (Date.now() - lastSeen > 2.5 * heartbeatMs) { setOffline(true); startStream(); }
  }, 1000);
  window.addEventListener("offline", function () {  // the stream is dead too: reopened when back online
    setOffline(true);
    if (source) { source.close(); source = null; }
  });
  window.addEventListener("online", function () { if (!pollTimer) startStream(); refresh(); });
  body.dataset.shownVersion = String(version);
  promptsChanged();
  startStream();
})();
