// Upload progress and pending verdicts refresh themselves until every record is verified.
(function () {
  "use strict";
  var progress = document.getElementById("progress");
  if (progress) {
    var poll = function () {
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
          if (batch.done >= batch.total) { window.location.reload(); } else { window.setTimeout(poll, 2000); }
        });
    };
    if (Number(progress.dataset.done) < Number(progress.dataset.total)) { window.setTimeout(poll, 2000); }
  }
  var status = document.getElementById("record-status");
  if (status && status.dataset.reload) { window.setTimeout(function () { window.location.reload(); }, 3000); }
})();
