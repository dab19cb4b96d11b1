// Behaviour every page may use, attached through data attributes because the Content-Security-Policy allows
// no inline script (no onclick/onchange attributes):
//   data-autosubmit on a <select>: submit its form when the choice changes;
//   data-print on a button or link: print the page;
//   data-path-template and data-path-field on a GET form: go to the template URL with its last "/0/" segment
//     replaced by the chosen field's value (a form whose target is a path, not a query); a normal submit
//     when the field is empty;
//   data-menu-toggle on the header's menu button: open and close the menu on a phone (the "js" class on <html>
//     lets the stylesheet fold the menu only when this script runs, so without it the menu stays visible).
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
})();
