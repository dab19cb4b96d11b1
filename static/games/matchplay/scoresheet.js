// The add-game form at the board: show "Resigned" only for a resignation, and the cube hint only for a drop.
(function () {
  var form = document.querySelector("form.add-game");
  if (!form) return;
  var kind = form.querySelector("select[name=kind]");
  var resign = form.querySelector(".resign");
  function update() {
    if (resign) resign.hidden = kind.value !== "resign";
  }
  kind.addEventListener("change", update);
  update();
})();
