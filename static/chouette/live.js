// The live chouette table: when the server pushes "changed" (js/live.js; polled every few seconds only while the
// socket cannot connect) check the small JSON state; when another phone changed the table (the revision grew),
// swap in the fresh HTML without reloading. An entry being typed is not thrown away: the
// form is only replaced when untouched, otherwise a notice offers to show the new state. The swap keeps the focus on
// the same control (bgLive.swap) and a changed table is announced on the page's status line (bgLive.announce).
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.fetch || !window.bgLive) return;
  var stateUrl = live.getAttribute("data-state-url");
  var fragmentUrl = live.getAttribute("data-fragment-url");
  var revision = parseInt(live.getAttribute("data-revision"), 10);
  var notice = document.getElementById("live-notice");
  var dirty = false;
  var INTERVAL = 3000;

  live.addEventListener("change", function (event) {
    if (event.target.closest && event.target.closest("#live-form")) dirty = true;
  });
  live.addEventListener("submit", function () { dirty = false; });

  function gameNumber(region) {
    var field = region.querySelector('input[name="expected_number"]');
    var number = field ? parseInt(field.value, 10) : NaN;
    return isNaN(number) ? 0 : number;
  }

  function swap(html, withForm) {
    var doc = new DOMParser().parseFromString("<div>" + html + "</div>", "text/html");
    var changed = false;
    ["live-state", "live-form"].forEach(function (id) {
      if (id === "live-form" && !withForm) return;
      var fresh = doc.getElementById(id);
      var old = document.getElementById(id);
      if (!fresh || !old) return;
      // A refresh that left before this phone seated its form for the next game itself (a game entered offline,
      // offline.js) must not bring back the form of the game before and lose what is being typed in the next.
      var seated = old.querySelector("form[data-seated-offline]");
      if (id === "live-form" && seated && gameNumber(fresh) < gameNumber(old)) return;
      changed = changed || old.textContent.replace(/\s+/g, " ") !== fresh.textContent.replace(/\s+/g, " ");
      window.bgLive.swap(old, document.importNode(fresh, true));
    });
    if (changed) window.bgLive.announce();
  }

  function refresh(withForm) {
    return fetch(fragmentUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) {
        if (!data) return;
        swap(data.html, withForm);
        revision = data.revision;
        live.setAttribute("data-revision", String(revision));
        document.dispatchEvent(new Event("chouette:swapped"));  // offline.js learns the table's new seating
        if (withForm) { dirty = false; if (notice) notice.hidden = true; }
        else if (notice) notice.hidden = false;
      });
  }

  function poll() {
    fetch(stateUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (state) {
        if (state && state.revision !== revision) return refresh(!dirty);
      })
      .catch(function () { /* offline for a moment: try again next time */ });
  }

  // Ending the session and a player leaving cannot be taken back: ask first.
  document.addEventListener("submit", function (event) {
    var submitter = event.submitter || null;
    var question = (submitter && submitter.getAttribute("data-confirm")) || event.target.getAttribute("data-confirm");
    if (question && !window.confirm(question)) event.preventDefault();
  });

  var button = document.getElementById("live-refresh");
  if (button) button.addEventListener("click", function () { refresh(true); });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
  // offline.js sent its waiting games: show the server's table (the form too, unless someone is filling it).
  document.addEventListener("chouette:refresh", function () { refresh(!dirty).catch(function () {}); });
  window.bgLive.watch([live.getAttribute("data-live-group")], poll, { poll: poll, interval: INTERVAL });
})();
