// The director's checklist of club members on an event's page (templates/tournaments/event_detail.html):
// a filter box narrows the list as one types. Without this script the box stays hidden and the page is a plain
// checklist with a field for pasted names; nothing here sends or enters anything.
// The names are compared as tournaments/core/names.py does (data-name holds its key): accents dropped, case
// folded, runs of spaces made one, so "jose" finds "José Pérez".
(function () {
  "use strict";

  function key(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().split(/\s+/).filter(Boolean).join(" ");
  }

  function narrow(input) {
    var list = document.getElementById(input.getAttribute("data-filter-list"));
    if (!list) {
      return;
    }
    var wanted = key(input.value);
    var shown = 0;
    list.querySelectorAll("li[data-name]").forEach(function (row) {
      var fits = !wanted || row.getAttribute("data-name").indexOf(wanted) >= 0;
      row.hidden = !fits;
      shown += fits ? 1 : 0;
    });
    var empty = document.querySelector("[data-filter-empty='" + list.id + "']");
    if (empty) {
      empty.hidden = shown > 0;
    }
  }

  document.querySelectorAll("input[data-filter-list]").forEach(function (input) {
    input.closest(".member-filter").hidden = false;
    input.addEventListener("input", function () {
      narrow(input);
    });
    input.addEventListener("keydown", function (event) {
      if (event.key === "Enter") {
        event.preventDefault(); // Enter in the filter box must not send the list
      }
    });
  });
})();
