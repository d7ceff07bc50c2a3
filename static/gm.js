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
