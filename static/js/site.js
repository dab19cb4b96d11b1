// Behaviour every page may use, attached through data attributes because the Content-Security-Policy allows
// no inline script (no onclick/onchange attributes):
//   data-autosubmit on a <select>: submit its form when the choice changes;
//   data-print on a button or link: print the page;
//   data-path-template and data-path-field on a GET form: go to the template URL with its last "/0/" segment
//     replaced by the chosen field's value (a form whose target is a path, not a query); a normal submit
//     when the field is empty;
//   data-menu-toggle on the header's menu button: open and close the menu on a phone (the "js" class on <html>
//     lets the stylesheet fold the menu only when this script runs, so without it the menu stays visible);
//   .table-wrap: a table wider than its box scrolls sideways; while it does, the box is a named region in the tab
//     order (tabindex=0, named by the table's caption or the heading before it) so a keyboard can scroll it.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target.matches && target.matches("select[data-autosubmit]") && target.form) {
      target.form.submit();
    }
  });
  document.addEventListener("click", function (event) {
    var toggle = event.target.closest && event.target.closest("[data-menu-toggle]");
    if (toggle) {
      var menu = document.getElementById(toggle.getAttribute("aria-controls"));
      var open = toggle.getAttribute("aria-expanded") !== "true";
      toggle.setAttribute("aria-expanded", open ? "true" : "false");
      if (menu) {
        menu.classList.toggle("open", open);
      }
      return;
    }
    var trigger = event.target.closest && event.target.closest("[data-print]");
    if (trigger) {
      event.preventDefault();
      window.print();
    }
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var template = form.getAttribute && form.getAttribute("data-path-template");
    var field = template && form.elements[form.getAttribute("data-path-field")];
    if (!field || !field.value) {
      return;
    }
    var at = template.lastIndexOf("/0/");
    if (at < 0) {
      return;
    }
    event.preventDefault();
    window.location = template.slice(0, at) + "/" + encodeURIComponent(field.value) + "/" + template.slice(at + 3);
  });
  function nameOf(wrap) {
    var caption = wrap.querySelector("caption");
    if (caption && caption.textContent.trim()) { return caption.textContent.trim(); }
    var name = "";
    Array.prototype.forEach.call(document.querySelectorAll("main h1, main h2, main h3, main h4"), function (heading) {
      if (heading.compareDocumentPosition(wrap) & Node.DOCUMENT_POSITION_FOLLOWING) { name = heading.textContent.trim(); }
    });
    return name || document.title;
  }
  function markScrollables() {
    Array.prototype.forEach.call(document.querySelectorAll(".table-wrap"), function (wrap) {
      var scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
      if (scrolls && !wrap.hasAttribute("tabindex")) {
        wrap.setAttribute("tabindex", "0");
        wrap.setAttribute("role", "region");
        wrap.setAttribute("data-scroll-region", "");
        if (!wrap.hasAttribute("aria-label") && !wrap.hasAttribute("aria-labelledby")) {
          wrap.setAttribute("aria-label", nameOf(wrap));
          wrap.setAttribute("data-scroll-region", "named");
        }
      } else if (!scrolls && wrap.hasAttribute("data-scroll-region") && document.activeElement !== wrap) {
        if (wrap.getAttribute("data-scroll-region") === "named") { wrap.removeAttribute("aria-label"); }
        ["tabindex", "role", "data-scroll-region"].forEach(function (name) { wrap.removeAttribute(name); });
      }
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", markScrollables);
  } else {
    markScrollables();
  }
  window.addEventListener("resize", markScrollables);
  document.addEventListener("live:swapped", markScrollables);
  document.addEventListener("chouette:swapped", markScrollables);
})();
