// Live updates for every gmtool screen: one SSE stream of "changed, version N" notices.
// On a new version the page re-fetches its own fragment (built for this viewer by the
// server) and morphs it in, so typed input survives. If the stream is refused (503:
// the server's stream cap) the page polls /version instead. Offline is shown.
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

  // Counters that change flash once (the table screen and every other screen).
  function counterValues() {
    const out = new Map();
    document.querySelectorAll("#live .value[data-seat][data-key]").forEach(function (el) {
      out.set(el.dataset.seat + "/" + el.dataset.key, el.textContent.trim());
    });
    return out;
  }
  function flashChanged(before) {
    document.querySelectorAll("#live .value[data-seat][data-key]").forEach(function (el) {
      const old = before.get(el.dataset.seat + "/" + el.dataset.key);
      if (old !== undefined && old !== el.textContent.trim()) {
        el.classList.remove("flash-change");
        void el.offsetWidth;  // restart the animation
        el.classList.add("flash-change");
      }
    });
  }
  function stageKey() {
    const item = document.querySelector("#stage .stage-item");
    return item ? item.dataset.stageKey : "";
  }
  // The table's history stays open (or closed) across live updates.
  let historyOpen = false;
  document.addEventListener("toggle", function (e) {
    if (e.target && e.target.id === "history") historyOpen = e.target.open;
  }, true);
  function keepHistory() {
    const h = document.getElementById("history");
    if (h && h.open !== historyOpen) h.open = historyOpen;
  }
  // The 根拠 toggle: rule codes and breakdowns on the TV, remembered by this browser.
  const rulesToggle = document.getElementById("rules-toggle");
  function showRules(on) {
    body.classList.toggle("show-rules", on);
    if (rulesToggle) rulesToggle.setAttribute("aria-pressed", String(on));
  }
  if (rulesToggle) {
    try { showRules(localStorage.getItem("gmtool.rules") === "1"); } catch (e) { /* storage refused */ }
    rulesToggle.addEventListener("click", function () {
      const on = !body.classList.contains("show-rules");
      showRules(on);
      try { localStorage.setItem("gmtool.rules", on ? "1" : "0"); } catch (e) { /* storage refused */ }
    });
  }

  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const before = counterValues();
      const stageBefore = stageKey();
      await htmx.ajax("GET", cfg.liveFragment, { target: "#live", swap: "innerMorph" });
      flashChanged(before);
      const item = document.querySelector("#stage .stage-item");
      if (item && stageKey() !== stageBefore) {  // a new moment on the stage: play its entrance again
        item.style.animation = "none";
        void item.offsetWidth;
        item.style.animation = "";
      }
      keepHistory();
      const root = document.querySelector("#live .live-root");
      if (root) body.dataset.shownVersion = root.dataset.version;
      promptsChanged();
    } catch (e) {
      setOffline(true);
    }
    busy = false;
    if (again) { again = false; refresh(); }
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
    source = new EventSource(cfg.liveEvents);
    source.addEventListener("changed", function (e) { seen(Number(e.data)); });
    source.addEventListener("hb", function (e) { seen(Number(e.data)); });
    source.onopen = function () { setOffline(false); refresh(); };  // catch up after a drop
    source.onerror = function () {
      if (source.readyState === EventSource.CLOSED) { startPolling(); }  // refused (e.g. 503)
      else { setOffline(true); }
    };
  }

  // After one of our own actions (a POST), refresh at once instead of waiting for the stream.
  document.addEventListener("htmx:after:request", function (e) {
    const method = e.detail && e.detail.ctx && e.detail.ctx.request && e.detail.ctx.request.method;
    if (method && method !== "GET") refresh();
    const form = e.target && e.target.closest && e.target.closest("form[data-reset]");
    const status = e.detail && e.detail.ctx && e.detail.ctx.response && e.detail.ctx.response.status;
    if (form && status && status < 400) form.reset();  // a form that creates something starts empty again
  });
  // A silent connection (Wi-Fi gone without a close) is noticed by the missing heartbeat.
  setInterval(function () {
    if (pollTimer || !source) return;
    if (Date.now() - lastSeen > 2.5 * heartbeatMs) { setOffline(true); startStream(); }
  }, 1000);
  window.addEventListener("offline", function () { setOffline(true); });
  window.addEventListener("online", function () { if (!pollTimer) startStream(); refresh(); });
  body.dataset.shownVersion = String(version);
  promptsChanged();
  startStream();
})();
