// The GM console's export page: a whole-campaign export covers every scene, so while the campaign is
// chosen the scene picker is disabled (a disabled field is not sent) and hidden; choosing this session
// brings it back set to the whole session. The server refuses a scene with campaign=1 all the same.
(function () {
  "use strict";
  var scope = document.getElementById("export-scope");
  var picker = document.getElementById("scene-picker");
  if (!scope || !picker) return;
  var scene = picker.querySelector("select[name=scene]");
  function follow() {
    var whole = scope.value === "1";
    if (whole && !scene.disabled) scene.value = "";
    scene.disabled = whole;
    picker.hidden = whole;
  }
  scope.addEventListener("change", follow);
  follow();
})();
