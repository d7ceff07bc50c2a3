// The table screen's own behaviour (templates/table/screen.html loads it after static/live.js): its stage's
// entrance, its history left open or closed, the 根拠 toggle, and the fitting of its summary and stage to the screen.
// live.js says when it swaps a new fragment in: "gmtool:before-show", then "gmtool:shown".
(function () {
  const body = document.body;
  function stageKey() {
    const item = document.querySelector("#stage .stage-item");
    return item ? item.dataset.stageKey : "";
  }
  // The table screen shows the whole of its stage and summary: a summary taller than the room the stage leaves it
  // (eight seats of seven counters on a 1280×720 laptop), then a moment taller than the stage (a tie of seven long
  // names) is drawn smaller (--fit, a zoom in static/gmtool.css), never cut off. On a TV (--text-floor, gmtool.css)
  // no word is drawn below the floor: a box zooms no further than its smallest words allow, and a summary that
  // still does not fit takes more of the screen from the stage (which then zooms, down to its own words' floor).
  function smallestText(box) {  // the smallest font size (unzoomed px) of a word shown in `box`, rule codes aside
    let smallest = Infinity;
    const walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) {
      const el = walk.currentNode.parentElement;
      if (!walk.currentNode.textContent.trim() || el.closest(".rule") || !el.getClientRects().length) continue;
      smallest = Math.min(smallest, parseFloat(getComputedStyle(el).fontSize));
    }
    return smallest;
  }
  function fitTable() {
    const summary = document.getElementById("table-summary"), stage = document.getElementById("stage");
    const boxes = [summary, stage].filter(Boolean);
    boxes.forEach(function (box) { box.style.setProperty("--fit", "1"); box.style.maxHeight = ""; box.classList.remove("tight"); });
    const floor = parseFloat(getComputedStyle(body).getPropertyValue("--text-floor")) || 0;
    const over = function (box) { return box.scrollHeight > box.clientHeight + 1; };
    const least = function (box) {  // the smallest zoom its words allow, a step of 5 %
      return floor ? Math.min(1, Math.max(0.5, Math.ceil(floor / smallestText(box) * 20 - 1e-9) / 20)) : 0.5;
    };
    const shrink = function (box) {  // zoom out by steps of 5 % while too tall, down to what the floor allows
      const lowest = least(box);
      let fit = 1;
      box.style.setProperty("--fit", "1");
      while (over(box) && Math.round(fit * 100 - 5) / 100 >= lowest) {
        fit = Math.round(fit * 100 - 5) / 100;
        box.style.setProperty("--fit", String(fit));
      }
    };
    if (summary) {
      shrink(summary);
      if (over(summary)) {
        summary.classList.add("tight");  // each seat's counters one line each (label beside value), then measured again
        shrink(summary);
        if (over(summary)) summary.style.maxHeight = "none";  // the stage gives it room
      }
    }
    if (!stage) return;
    shrink(stage);
    if (over(stage) && summary && floor) {  // at its floor: the summary gives the stage room, drawn as small as it may be
      summary.style.setProperty("--fit", String(least(summary)));
      shrink(stage);
    }
  }
  window.addEventListener("resize", fitTable);
  document.addEventListener("animationend", function (e) {  // measured again without the entrance's offset
    if (e.target.classList && e.target.classList.contains("stage-item")) fitTable();
  });
  if (document.fonts) document.fonts.ready.then(fitTable);
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

  // A new moment on the stage plays its entrance; the history stays as the viewer left it; all of it fits.
  let stageBefore = "";
  document.addEventListener("gmtool:before-show", function () { stageBefore = stageKey(); });
  document.addEventListener("gmtool:shown", function () {
    const item = document.querySelector("#stage .stage-item");
    if (item && stageKey() !== stageBefore) {
      item.style.animation = "none";
      void item.offsetWidth;
      item.style.animation = "";
    }
    keepHistory();
    fitTable();
    followNextSession();
  });
  fitTable();
  // A table screen left on while the GM starts the campaign's next session goes there by itself: nobody stands at
  // the TV to tap its banner's link. A closed session's table opened on purpose stays (the link is there to take).
  function followNextSession() {
    const onward = document.querySelector("#stage .closed-banner a.next-session");
    if (onward) window.location.assign(onward.href);
  }
})();
