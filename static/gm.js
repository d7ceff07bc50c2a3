// The GM console's own part (templates/gm/console.html): the seats' counters compact on request (body.seats-compact,
// gmtool.css: −, the value and ＋ only, several seats side by side), remembered by this browser. The toggle sits in
// the live fragment marked hx-morph-skip, so a live update keeps the state set on it here.
(function () {
  "use strict";
  const KEY = "gmtool.seats-compact";
  function show(on) {
    document.body.classList.toggle("seats-compact", on);
    const toggle = document.getElementById("seats-compact");
    if (toggle) toggle.setAttribute("aria-pressed", String(on));
  }
  try { show(localStorage.getItem(KEY) === "1"); } catch (e) { /* storage refused: full counters */ }
  document.addEventListener("click", function (e) {
    if (!(e.target && e.target.closest && e.target.closest("#seats-compact"))) return;
    const on = !document.body.classList.contains("seats-compact");
    show(on);
    try { localStorage.setItem(KEY, on ? "1" : "0"); } catch (e) { /* storage refused: for this page only */ }
  });
})();

// The room of what is held on screen: the header bar at the top and the game's next step at the foot (gmtool.css:
// .bar and .gm-next are sticky; a game's fixed next step (static/rulesets/*.css) lies below the scrolling body, which --held-fixed ends
// above it). The page's scroll padding (gmtool.css, --held-top / --held-next) keeps it, so whatever
// is brought into view (a focused field, Tab, the browser's notice on a required field left empty) lands between them,
// not under them. Measured again when a live update swaps the console or either one changes size.
(function () {
  "use strict";
  const root = document.documentElement;
  const resize = window.ResizeObserver ? new ResizeObserver(function () { measure(); }) : null;
  let watched = [];
  function held() {
    return [...document.querySelectorAll("body > .bar, .gm-next")].filter(function (el) {
      return ["sticky", "fixed"].includes(getComputedStyle(el).position) && el.checkVisibility();
    });
  }
  function measure() {
    const now = held();
    let top = 0, foot = 0, fixed = 0;
    for (const el of now) {
      const height = Math.ceil(el.getBoundingClientRect().height);
      // a fixed one (a game's stylesheet) lies below the scrolling body, which ends above it
      if (getComputedStyle(el).position === "fixed") fixed = Math.max(fixed, height);
      else if (el.classList.contains("gm-next")) foot = Math.max(foot, height); else top = Math.max(top, height);
    }
    root.style.setProperty("--held-top", top + "px");
    root.style.setProperty("--held-next", foot + "px");
    root.style.setProperty("--held-fixed", fixed + "px");
    if (resize && (now.length !== watched.length || now.some(function (el, i) { return el !== watched[i]; }))) {
      resize.disconnect();
      watched = now;
      for (const el of now) resize.observe(el);
    }
  }
  measure();
  // a console that scrolls in its body, not the window (a game's stylesheet, with a fixed next step): on a page just opened, with nothing focused or
  // clicked yet, the keys that scroll a page (PageDown, Space, the arrows, End) went to the window, which has nothing to
  // scroll. The body takes them (focusable, out of the Tab order, focused without scrolling).
  if (getComputedStyle(document.body).overflowY === "auto") {
    document.body.tabIndex = -1;
    if (document.activeElement === document.body) document.body.focus({ preventScroll: true });
  }
  const live = document.getElementById("live");
  if (live) new MutationObserver(measure).observe(live, { childList: true, subtree: true });
  window.addEventListener("resize", measure);
})();
