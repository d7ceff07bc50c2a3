// The phone page's own behaviour (live updates are live.js): the docked primary action leaves room for the
// content above it, a flash can be closed (and never covers the controls: gmtool.css keeps an error in the flow
// and lays a success over the header bar), and the screen stays awake during the session where the browser
// allows the Screen Wake Lock API (a secure context only: https or localhost; on a plain-HTTP LAN address it is
// unavailable and nothing is shown).
(function () {
  "use strict";
  const root = document.documentElement;
  const labels = (document.currentScript && document.currentScript.dataset) || {};

  // -- the dock: pad the page by the docked action's height, the sticky flash by the header's.
  function measure() {
    const bar = document.querySelector("body > .bar");
    if (bar) root.style.setProperty("--bar-height", bar.offsetHeight + "px");
    let docked = null;
    for (const el of document.querySelectorAll("[data-primary]")) {
      if (getComputedStyle(el).position === "fixed") { docked = el; break; }
    }
    root.style.setProperty("--dock-height", (docked ? Math.ceil(docked.getBoundingClientRect().height) : 0) + "px");
    if (resize && docked !== watched) {
      resize.disconnect();
      watched = docked;
      if (docked) resize.observe(docked);
    }
  }
  let watched = null;
  const resize = window.ResizeObserver ? new ResizeObserver(function () { measure(); }) : null;
  const live = document.getElementById("live");
  if (live) new MutationObserver(function () { measure(); wake(); }).observe(live, { childList: true, subtree: true });
  window.addEventListener("resize", measure);

  // -- the flash: a ✕ on every message (the server's and live.js's), a tap on it closes it; a success that
  // has faded away is removed.
  const flash = document.getElementById("flash");
  function closable() {
    if (!flash) return;
    for (const box of flash.querySelectorAll(".flash:not([data-closable])")) {
      box.dataset.closable = "1";
      const text = document.createElement("span");
      text.className = "flash-text";
      while (box.firstChild) text.appendChild(box.firstChild);
      box.appendChild(text);
      const close = document.createElement("button");
      close.type = "button";
      close.className = "flash-close";
      close.setAttribute("aria-label", labels.close || "×");
      close.textContent = "✕";
      box.appendChild(close);
    }
  }
  if (flash) {
    new MutationObserver(closable).observe(flash, { childList: true, subtree: true });
    flash.addEventListener("click", function (e) {
      if (e.target.closest && e.target.closest(".flash-close")) e.target.closest(".flash").remove();
    });
    flash.addEventListener("animationend", function (e) {
      if (e.target.classList && e.target.classList.contains("flash")) e.target.remove();
    });
  }

  // -- a success the GM has since undone no longer says what stands: it is cleared when the version that undid it
  // arrives (its data-action is among the live root's data-undone, the seat's own undone actions).
  document.addEventListener("gmtool:shown", function () {
    const liveRoot = document.querySelector("#live .live-root");
    if (!flash || !liveRoot) return;
    const undone = new Set((liveRoot.dataset.undone || "").split(" ").filter(Boolean));
    for (const box of flash.querySelectorAll(".flash[data-action]")) if (undone.has(box.dataset.action)) box.remove();
  });

  // -- keep the screen awake while the session is open (re-taken when the page is shown again).
  let lock = null, asking = false;
  function wakeState(state) { root.dataset.wakeLock = state; }
  function sessionClosed() { return !!document.querySelector("#live .closed-banner"); }
  async function wake() {
    if (!("wakeLock" in navigator) || !window.isSecureContext) { wakeState("unavailable"); return; }
    if (sessionClosed()) {
      if (lock && !lock.released) lock.release().catch(function () {});
      wakeState("closed");
      return;
    }
    if ((lock && !lock.released) || asking || document.visibilityState !== "visible") return;
    asking = true;
    try {
      lock = await navigator.wakeLock.request("screen");
      wakeState("on");
      lock.addEventListener("release", function () { wakeState("off"); });
    } catch (e) {
      wakeState("refused");  // e.g. battery saver or a permissions policy: the screen may sleep as usual
    } finally {
      asking = false;
    }
  }
  document.addEventListener("visibilitychange", wake);
  document.addEventListener("click", wake);  // a browser that wants a tap first gets one

  measure();
  closable();
  wake();
})();
