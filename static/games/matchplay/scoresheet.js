// The add-game form at the board: show "Resigned" only for a resignation, and the cube hint only for a drop.
// Run again when the live page swaps in a fresh copy of the match (js/live.js: "live:swapped").
(function () {
  function setUp() {
    var form = document.querySelector("form.add-game");
    if (!form) return;
    var kind = form.querySelector("select[name=kind]");
    var resign = form.querySelector(".resign");
    function update() {
      if (resign) resign.hidden = kind.value !== "resign";
    }
    kind.addEventListener("change", update);
    update();
  }
  setUp();
  document.addEventListener("live:swapped", setUp);
})();
