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
    const fresh = knownPrompts ? [...now].filter((p) => !knownPrompts.has(p)) : [];
    // A new prompt for this seat buzzes the phone, once the player has touched the page: before that the
    // browser refuses the call and logs an error (user activation).
    const touched = !navigator.userActivation || navigator.userActivation.hasBeenActive;
    if (fresh.length && navigator.vibrate && touched) navigator.vibrate(200);
    knownPrompts = now;
  }

  // What is new on the screen is read once by a screen reader: each thing the fragment marks (data-news: what it is,
  // data-say: the words; templates/_news.html) that it did not mark before goes to the page's polite live region,
  // outside #live, as a new line, so the same words for a new thing are read again. What the page showed when it
  // loaded is not news.
  let knownNews = null;
  function sayNews() {
    const now = new Map();
    document.querySelectorAll("#live [data-news]").forEach(function (el) { now.set(el.dataset.news, el.dataset.say || ""); });
    const fresh = knownNews ? [...now].filter(([key, words]) => words && !knownNews.has(key)).map(([, words]) => words) : [];
    knownNews = new Set(now.keys());
    const region = document.getElementById("announce");
    if (!region || !fresh.length) return;
    const line = document.createElement("p");
    line.textContent = fresh.join(" / ");
    region.replaceChildren(line);
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
  // -- what a viewer opened stays open: a live update morphs each element to the server's HTML, which has no `open` on
  // a <details> the viewer opened (a phone's 令呪を使う list snapped shut under the player's finger at every change).
  // One the server opened itself (grail's set-up tools before the first action) it may still close.
  const openedHere = new WeakSet();
  document.addEventListener("click", function (e) {  // a summary's click (or Enter, Space) toggles its details
    const summary = e.target && e.target.closest && e.target.closest("summary");
    const details = summary && summary.parentElement;
    if (!details || details.tagName !== "DETAILS" || !details.closest("#live")) return;
    if (details.open) openedHere.delete(details);  // closing it now
    else openedHere.add(details);
  });
  // (htmx 4 asks its extensions' hooks before it changes an attribute in a morph; false keeps the attribute)
  htmx.registerExtension("gmtool-keep-open", {
    htmx_before_morph_attr: function (el, change) {
      return !(change.attrName === "open" && change.newValue === null && openedHere.has(el));
    },
  });

  // -- a scarce or irreversible spend (a Command Seal, a token, a link reissued) takes a deliberate second tap within
  // 4 seconds; the first only arms the control and says what the second does (no JS dialog). What is armed is kept
  // by what the control does, not on the element: a live update between the two taps morphs the control to the
  // server's HTML, which has no armed mark, and the second tap only armed it again (at a busy table, most of the time).
  const ARMED_MS = 4000;
  const armedUntil = new Map();  // what an armed control does → when its arming runs out
  function armKey(el) {
    const form = el.closest("form");
    return [form ? form.getAttribute("hx-post") || form.getAttribute("action") : "", el.getAttribute("hx-post"),
            el.getAttribute("hx-vals"), el.name, el.value, el.id].join("\n");
  }
  function markArmed() {  // after a swap, and when an arming runs out
    const now = Date.now();
    armedUntil.forEach(function (until, key) { if (until <= now) armedUntil.delete(key); });
    document.querySelectorAll("[data-second-tap]").forEach(function (el) {
      el.classList.toggle("armed", armedUntil.has(armKey(el)));
    });
  }
  document.addEventListener("click", function (e) {
    const el = e.target && e.target.closest && e.target.closest("[data-second-tap]");
    if (!el || (el.type === "checkbox" && !el.checked)) return;  // unchecking needs no confirmation
    const key = armKey(el);
    if ((armedUntil.get(key) || 0) > Date.now()) { armedUntil.delete(key); el.classList.remove("armed"); return; }
    e.preventDefault();
    e.stopImmediatePropagation();
    armedUntil.set(key, Date.now() + ARMED_MS);
    el.classList.add("armed");
    note("flash-pending", el.dataset.secondTap);
    setTimeout(markArmed, ARMED_MS + 50);
  }, true);

  // -- nothing lost offline: every POST carries an Idempotency-Key; a tap that cannot reach the
  // server is queued (shown as pending), sent once when the connection returns, then shown as done.
  // The queue is the device's, not the tab's (localStorage): a tap queued in a tab that is closed before it could
  // send is sent by the next tab of the same page. Each queued tap is its own item (QUEUE + its key), added and removed
  // by its key alone: tabs that rewrote one shared list, and removed its first tap after each answer, lost a tap
  // another tab queued while their own send took long (it was the first by then). Two open tabs may send the same tap:
  // each in the order of the queue, with the tap's own key, which the server applies once (the other gets its answer).
  const badge = document.getElementById("pending");
  // Keyed by the session and the viewer (the live fragment's address: /s/<sid>/phone, …/gm, …/table), not by the
  // page's: a phone opened as /join/<sid> and as /s/<sid>/phone is one phone with one queue (it had two).
  const QUEUE = "gmtool.queue:" + new URL(cfg.liveFragment, location.href).pathname + ":";
  const realFetch = window.fetch.bind(window);
  let lastTap = "", flushing = false;
  document.addEventListener("click", function (e) {
    const el = e.target && e.target.closest && e.target.closest("button, [role=button], input[type=submit]");
    if (el) lastTap = (el.getAttribute("aria-label") || el.textContent || el.value || "").trim().slice(0, 40);
  }, true);
  function newKey() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);  // randomUUID needs a secure context; plain-HTTP LAN pages are not one
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }
  function loadQueue() {  // this page's queued taps, oldest first
    const q = [];
    try {
      for (let i = 0; i < localStorage.length; i++) {
        const name = localStorage.key(i);
        if (name && name.startsWith(QUEUE)) q.push(JSON.parse(localStorage.getItem(name)));
      }
    } catch (e) { /* storage refused */ }
    return q.filter(Boolean).sort((a, b) => a.at - b.at);
  }
  let lastAt = 0;
  function enqueue(item) {
    item.at = lastAt = Math.max(item.at || Date.now(), lastAt + 1);  // a tap after another stays after it
    try { localStorage.setItem(QUEUE + item.key, JSON.stringify(item)); } catch (e) { /* storage refused */ }
  }
  function dequeue(item) { try { localStorage.removeItem(QUEUE + item.key); } catch (e) { /* storage refused */ } }
  try {  // taps an older live.js queued under this page's own address (/join/<sid>), each or as one list
    const own = "gmtool.queue:" + location.pathname + ":";
    for (const prefix of own === QUEUE ? [] : [own]) {
      Object.keys(localStorage).filter((k) => k.startsWith(prefix)).forEach(function (name) {
        enqueue(JSON.parse(localStorage.getItem(name)));
        localStorage.removeItem(name);
      });
    }
    for (const list of new Set([QUEUE.slice(0, -1), own.slice(0, -1)])) {
      const older = localStorage.getItem(list);
      if (!older) continue;
      JSON.parse(older).forEach(function (item) {
        const name = Object.keys(item.headers || {}).find((k) => k.toLowerCase() === "idempotency-key");
        if (name) enqueue(Object.assign(item, { key: item.headers[name] }));
      });
      localStorage.removeItem(list);
    }
  } catch (e) { /* storage refused, or not a list */ }
  function escapeHtml(text) { const d = document.createElement("div"); d.textContent = text; return d.innerHTML; }
  function note(kind, text) {  // a message of the page's own into the live region of its kind (templates/base.html)
    const error = kind === "flash-error";
    const region = document.getElementById(error ? "flash-alert" : "flash-status");
    const other = document.getElementById(error ? "flash-status" : "flash-alert");
    if (other) other.innerHTML = "";
    if (region) region.innerHTML = '<div class="flash ' + kind + '">' + escapeHtml(text) + "</div>";
  }
  function showQueue() {
    if (!badge) return;
    const q = loadQueue();
    badge.hidden = q.length === 0;
    badge.textContent = badge.dataset.pending + " ×" + q.length;
  }
  function plainHeaders(h) {
    const out = {};
    if (!h) return out;
    if (h instanceof Headers) { h.forEach(function (v, k) { out[k] = v; }); return out; }
    return Object.assign(out, h);
  }
  // What a proxy answers while its gmtool is not there (gmtool serve --workers: Caddy while a worker restarts), or a
  // server that takes no more connections from this device: no answer of gmtool's. The page treats it as offline: a
  // read is not swapped in (an empty 502 emptied the whole screen), a tap is queued (the key keeps it to one action).
  const NO_ANSWER = [502, 503, 504];
  window.fetch = async function (input, init) {
    init = init || {};
    const method = String(init.method || (input && input.method) || "GET").toUpperCase();
    if (method === "GET" || method === "HEAD") {
      const r = await realFetch(input, init);
      if (NO_ANSWER.includes(r.status)) throw new TypeError("no answer from gmtool (" + r.status + ")");
      return r;
    }
    const url = typeof input === "string" ? input : (input instanceof URL ? input.href : input.url);
    const headers = plainHeaders(init.headers);
    const keyName = Object.keys(headers).find((k) => k.toLowerCase() === "idempotency-key") || "Idempotency-Key";
    headers[keyName] = headers[keyName] || newKey();
    let body = init.body;
    if (body instanceof FormData) body = new URLSearchParams(body);
    if (body instanceof URLSearchParams) {
      body = body.toString();
      for (const k of Object.keys(headers)) if (k.toLowerCase() === "content-type") delete headers[k];
      headers["Content-Type"] = "application/x-www-form-urlencoded";
    }
    const keepable = body == null || typeof body === "string";
    try {
      const r = await realFetch(url, Object.assign({}, init, { headers: headers, body: body }));
      if (!keepable || !NO_ANSWER.includes(r.status)) return r;
    } catch (err) {
      if (init.signal && init.signal.aborted) throw err;
      if (!keepable) throw err;  // not a form we can keep: refuse aloud
    }
    enqueue({ key: headers[keyName], url: url, method: method, headers: headers, body: body == null ? null : body,
              label: lastTap });
    setOffline(true);
    showQueue();
    const text = badge ? badge.dataset.pending : "…";
    return new Response('<div class="flash flash-pending">' + escapeHtml(text + (lastTap ? ": " + lastTap : "")) + "</div>" +
                        '<div id="flash-alert" hx-swap-oob="innerHTML"></div>',
                        { status: 202, headers: { "Content-Type": "text/html; charset=utf-8" } });
  };
  async function flushQueue() {
    if (flushing || !loadQueue().length) return;
    flushing = true;
    const sent = [];
    try {
      const done = new Set();
      for (let q = loadQueue(); q.length; q = loadQueue()) {  // read again after each answer: another tab may add or send
        const item = q[0];
        if (done.has(item.key)) break;  // (storage that refuses to remove it)
        done.add(item.key);
        let r;
        try {
          r = await realFetch(item.url, { method: item.method, headers: item.headers, body: item.body, credentials: "same-origin" });
        } catch (e) { break; }  // still offline: keep the rest for the next try
        if (NO_ANSWER.includes(r.status)) break;  // ... or still without its gmtool
        dequeue(item);
        if (r.status < 400) { sent.push(item.label); }
        else {
          const text = (await r.text()).replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim();
          note("flash-error", (badge ? badge.dataset.refused : "") + (item.label ? " (" + item.label + ")" : "") + ": " + text.slice(0, 200));
        }
      }
    } finally {
      flushing = false;
      showQueue();
    }
    if (sent.length) {
      note("flash-ok", (badge ? badge.dataset.sent : "") + ": " + sent.filter(Boolean).join("、"));
      refresh();
    }
  }

  // Swap a new fragment in (fetched or pushed) and do what follows every change: changed counters flash, and the
  // screen's own script does its part (static/table.js: the stage's entrance, the history, the fitting).
  async function show(swap) {
    const before = counterValues();
    document.dispatchEvent(new Event("gmtool:before-show"));  // a screen's own script (static/table.js) notes what it shows
    await swap();
    markArmed();
    flashChanged(before);
    document.dispatchEvent(new Event("gmtool:shown"));  // ... and does what follows on its screen
    // The GM console's counter controls come with the page; a live fragment holds placeholders for them.
    // One that no page control took (a seat added since the page loaded) brings the controls, once.
    if (cfg.liveControls && document.querySelector("#live [data-placeholder]")) {
      try { await htmx.ajax("GET", cfg.liveControls, { target: "#live", swap: "innerMorph" }); }
      catch (e) { /* offline: the next change tries again */ }
    }
    const root = document.querySelector("#live .live-root");
    if (root) body.dataset.shownVersion = root.dataset.version;
    promptsChanged();
    sayNews();
    showClosed();
  }

  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      await show(function () { return htmx.ajax("GET", cfg.liveFragment, { target: "#live", swap: "innerMorph" }); });
      // htmx reports a fetch that failed (offline, no answer) as htmx:error and swaps nothing: then the page still shows
      // an older version than the one it knows of
      if (Number(body.dataset.shownVersion) < version) throw new Error("not shown");
      flushQueue();
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
    await show(function () {
      return htmx.swap({ text: e.data.slice(cut + 1), target: document.getElementById("live"), swap: "innerMorph" });
    });  // show() notes the version the fragment carries
  }

  function seen(v) {  // any sign of life from the server (a notice, a heartbeat, a poll) also sends what waits
    lastSeen = Date.now();
    setOffline(false);
    if (v !== version) { version = v; refresh(); }
    else flushQueue();
  }

  // A refused stream (the stream cap's 503; a proxy's 502 while a worker of --workers restarts) is tried again once a
  // heartbeat while the page polls: what refused it may be over, and the page goes back to the stream.
  let streamTried = 0;
  function startPolling() {
    body.classList.add("is-polling");
    if (pollTimer) return;
    pollTimer = setInterval(async function () {
      try {
        const r = await fetch(cfg.livePoll, { cache: "no-store", credentials: "same-origin" });
        if (r.status === 403) { stopLive(true); return; }  // this link was reissued
        if (!r.ok) throw new Error(String(r.status));
        seen((await r.json()).version);
        if (!source && window.EventSource && Date.now() - streamTried >= heartbeatMs) startStream();
      } catch (e) { setOffline(true); }
    }, 2000);
  }
  function stopPolling() {
    if (pollTimer) { clearInterval(pollTimer); pollTimer = null; }
    body.classList.remove("is-polling");
  }

  // Nothing more will come: the session was closed (the page shows it), or this link was reissued (revoked).
  let stopped = false;
  function stopLive(revoked) {
    stopped = true;
    if (source) { source.close(); source = null; }
    stopPolling();
    setOffline(false);
    if (revoked) body.classList.add("is-revoked");
    else awaitNext();
  }
  function sessionClosed() { return Boolean(document.querySelector("#live .closed-banner")); }
  // A closed session may still be continued (the campaign's next session): while a table screen's or a phone's banner
  // waits for the way there (data-awaits-next, gone once it shows the link), the screen asks for the version once a
  // heartbeat and fetches the fragment that shows it. The GM console, which starts the next session, does not wait.
  let nextTimer = null;
  function awaitNext() {
    if (nextTimer) return;
    nextTimer = setInterval(async function () {
      if (!document.querySelector("#live [data-awaits-next]")) { clearInterval(nextTimer); nextTimer = null; return; }
      try {
        const r = await realFetch(cfg.livePoll, { cache: "no-store", credentials: "same-origin" });
        if (r.ok) seen((await r.json()).version);
      } catch (e) { /* offline: the next beat asks again */ }
    }, heartbeatMs);
  }
  // A closed session presents itself as closed: the GM console stops offering what can no longer work (gmtool.css).
  function showClosed() { body.classList.toggle("session-closed", sessionClosed()); }

  function startStream() {
    if (stopped) return;
    if (!window.EventSource) { startPolling(); return; }
    if (source) source.close();
    lastSeen = streamTried = Date.now();
    source = new EventSource(cfg.liveEvents + "&push=1&v=" + body.dataset.shownVersion);
    source.addEventListener("changed", function (e) { seen(Number(e.data)); });
    source.addEventListener("fragment", pushed);
    source.addEventListener("hb", function (e) { seen(Number(e.data)); });
    source.addEventListener("revoked", function () { stopLive(true); });
    // The stream's first message names the current version (or brings the fragment if the page is
    // behind), so a first load does not fetch the fragment it holds; queued actions go out on open.
    source.onopen = function () { setOffline(false); stopPolling(); flushQueue(); };
    source.onerror = function () {
      // The close arrived (the page shows it) and the server ended the stream: nothing more will come, and nothing
      // was lost (the browser's reconnect would only be refused with a 204, saying "offline" until then).
      if (sessionClosed()) stopLive(false);
      else if (source.readyState === EventSource.CLOSED) { source = null; startPolling(); }  // refused: a revoked link's 403, a 503
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
  window.addEventListener("online", function () { if (stopped) return; if (!pollTimer) startStream(); refresh(); });
  window.addEventListener("storage", function (e) {  // another tab of this page queued or sent a tap
    if (e.key === null || e.key.startsWith(QUEUE)) showQueue();
  });
  body.dataset.shownVersion = String(version);
  showQueue();
  flushQueue();
  promptsChanged();
  sayNews();
  startStream();
})();
