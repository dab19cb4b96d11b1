// The chouette game form on a phone: each member's own cube is a list of steps ("box:take team:beaver
// box:drop") kept in a text field that works without JavaScript; here the field becomes a row of buttons that
// only offers the doubles the cube allows (the side that owns the cube redoubles, a dropped cube is over), and
// shows the cube after each step. Delegated on the document: the live table swaps the form in and out.
(function () {
  "use strict";
  var FACTOR = { take: 2, beaver: 4, raccoon: 8 };

  function start() {
    var auto = document.getElementById("id_automatic_doubles");
    var n = auto ? parseInt(auto.value, 10) || 0 : 0;
    return Math.pow(2, n);
  }

  function steps(input) {
    return input.value.split(/[\s,]+/).filter(function (s) { return s; });
  }

  // The cube after the steps: its value, who owns it, and whether that member's game already ended.
  function cube(list) {
    var state = { value: start(), owner: null, out: null };
    list.forEach(function (step) {
      if (state.out) return;
      var parts = step.split(":");
      if (parts[1] === "drop") { state.out = parts[0]; return; }
      state.value *= FACTOR[parts[1]] || 1;
      state.owner = parts[0] === "box" ? "team" : "box";
    });
    return state;
  }

  function render(row) {
    var input = row.querySelector("input[name^=cube_]");
    var box = row.closest(".cube-rows");
    var list = steps(input);
    var state = cube(list);
    var now = row.querySelector(".cube-now");
    var text;
    if (state.out === "box") text = box.getAttribute("data-t-dropped").replace("{n}", state.value);
    else if (state.out === "team") text = box.getAttribute("data-t-box-dropped").replace("{n}", state.value);
    else if (state.owner === "box") text = box.getAttribute("data-t-box-owns").replace("{n}", state.value);
    else if (state.owner === "team") text = box.getAttribute("data-t-member-owns").replace("{n}", state.value);
    else text = box.getAttribute("data-t-middle").replace("{n}", state.value);
    now.textContent = "· " + text;
    var chips = row.querySelector(".cube-steps");
    chips.textContent = "";
    list.forEach(function (step) {
      var button = row.querySelector('[data-step="' + step + '"]');
      var li = document.createElement("li");
      li.textContent = button ? button.getAttribute("data-chip") : step;
      chips.appendChild(li);
    });
    row.querySelector(".by-box").hidden = !!state.out || state.owner === "team";
    row.querySelector(".by-team").hidden = !!state.out || state.owner === "box";
    row.querySelector(".cube-undo").hidden = list.length === 0;
  }

  function add(row, step) {
    var input = row.querySelector("input[name^=cube_]");
    input.value = steps(input).concat([step]).join(" ");
    render(row);
    input.dispatchEvent(new Event("change", { bubbles: true }));  // marks the live form as being edited
  }

  function allowed(row, step) {
    var state = cube(steps(row.querySelector("input[name^=cube_]")));
    var doubler = step.split(":")[0];
    return !state.out && state.owner !== (doubler === "box" ? "team" : "box");
  }

  function enhance(root) {
    (root || document).querySelectorAll(".cube-rows:not([data-ready])").forEach(function (box) {
      box.setAttribute("data-ready", "1");
      box.querySelectorAll(".cube-row").forEach(function (row) {
        row.querySelector(".cube-text").hidden = true;
        row.querySelector(".cube-buttons").hidden = false;
        render(row);
      });
      var all = box.querySelector(".cube-all");
      if (all) all.hidden = false;
    });
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest && event.target.closest("button");
    if (!target || !target.closest(".cube-rows")) return;
    var row = target.closest(".cube-row");
    if (target.hasAttribute("data-step")) add(row, target.getAttribute("data-step"));
    else if (target.hasAttribute("data-undo")) {
      var input = row.querySelector("input[name^=cube_]");
      input.value = steps(input).slice(0, -1).join(" ");
      render(row);
    } else if (target.hasAttribute("data-all")) {
      var step = target.getAttribute("data-all");
      target.closest(".cube-rows").querySelectorAll(".cube-row").forEach(function (each) {
        if (!each.hidden && allowed(each, step)) add(each, step);
      });
    }
  });
  // The box's partner plays on the box's side: their cube row is hidden and left out of "everyone".
  function partner() {
    var select = document.getElementById("id_partner");
    var chosen = select ? select.value : "";
    document.querySelectorAll(".cube-row").forEach(function (row) {
      row.hidden = chosen !== "" && row.getAttribute("data-player") === chosen;
    });
  }

  document.addEventListener("change", function (event) {
    if (event.target.id === "id_automatic_doubles") document.querySelectorAll(".cube-row").forEach(render);
    if (event.target.id === "id_partner") partner();
  });
  // offline.js reseated the form for the next game it keeps offline: draw every cube afresh.
  document.addEventListener("chouette:form-reset", function () {
    document.querySelectorAll(".cube-row").forEach(render);
    partner();
  });
  enhance(document);
  partner();
  new MutationObserver(function () { enhance(document); partner(); }).observe(document.body, { childList: true, subtree: true });
})();
