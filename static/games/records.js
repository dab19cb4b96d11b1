// Upload progress and pending verdicts refresh themselves until every record is verified: the server pushes
// "changed" when a record's verdict is stored (js/live.js); only while that socket cannot connect do they poll.
(function () {
  "use strict";
  if (!window.bgLive) { return; }
  var progress = document.getElementById("progress");
  if (progress && Number(progress.dataset.done) < Number(progress.dataset.total)) {
    var check = function () {
      fetch(progress.dataset.api, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (batch) {
          if (!batch) { return; }
          var bar = progress.querySelector("progress");
          bar.max = batch.total;
          bar.value = batch.done;
          ["valid", "invalid", "unreadable"].forEach(function (key) {
            var cell = progress.querySelector('[data-count="' + key + '"]');
            if (cell) { cell.textContent = batch[key]; }
          });
          if (batch.done >= batch.total) { window.location.reload(); }
        })
        .catch(function () { /* offline for a moment: the next change or poll tries again */ });
    };
    window.bgLive.watch([progress.dataset.liveGroup], check, { poll: check, interval: 2000 });
    check();  // a verdict may have landed between rendering the page and opening the socket
  }
  var status = document.getElementById("record-status");
  if (status && status.dataset.reload) {
    var reload = function () { window.location.reload(); };
    window.bgLive.watch([status.dataset.liveGroup], reload, { poll: reload, interval: 3000 });
    window.setTimeout(reload, 30000);  // a verdict stored before the socket opened is not missed for long
  }
})();
