// The home page's new-session form (templates/home.html): what a seat line says depends on the game picked (generic
// guidance, or a game's own `<name>.form_seats`: a line's two parts may come in another order). Lines typed for one
// game and then another game picked whose guidance differs would silently swap the two parts:
// the warning under the guidance shows until the lines are edited (then they are typed for the game now picked) or
// the game they were typed for is picked again.
(function () {
  "use strict";
  var form = document.getElementById("new-session");
  if (!form) return;
  var select = form.querySelector("select[name=ruleset]");
  var seats = form.querySelector("textarea[name=seats]");
  var warning = form.querySelector("[data-seats-warning]");
  if (!select || !seats || !warning) return;
  function guide(name) {
    var el = form.querySelector('.seats-guide[data-ruleset="' + name + '"]');
    return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
  }
  var typedFor = select.value;
  function update() {
    warning.hidden = !seats.value.trim() || guide(select.value) === guide(typedFor);
  }
  seats.addEventListener("input", function () { typedFor = select.value; update(); });
  select.addEventListener("change", update);
})();
