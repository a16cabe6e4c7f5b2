// Small enhancements over server-rendered pages; every page also works without JavaScript.
(function () {
  "use strict";

  // List rows in forms: clone the server-rendered <template> row with a fresh index.
  function renumber(array) {
    array.querySelectorAll(":scope > [data-rows] > [data-row]").forEach(function (row, i) {
      row.querySelectorAll(":scope > .row-head [data-row-number]").forEach(function (n) { n.textContent = i + 1; });
      row.querySelectorAll(":scope > .row-head [data-remove-row]").forEach(function (b) {
        b.setAttribute("aria-label", b.dataset.label + " " + (i + 1));
      });
    });
    var empty = array.querySelector(":scope > [data-empty]");
    if (empty) empty.hidden = array.querySelectorAll(":scope > [data-rows] > [data-row]").length > 0;
  }

  document.addEventListener("click", function (event) {
    var add = event.target.closest("[data-add-row]");
    if (add) {
      event.preventDefault();
      var array = add.closest("[data-array]");
      var template = array.querySelector(":scope > template[data-row-template]");
      var index = parseInt(array.dataset.next || "0", 10);
      array.dataset.next = index + 1;
      var html = template.innerHTML.split(array.dataset.token).join(String(index));
      var holder = document.createElement("div");
      holder.innerHTML = html.trim();
      var row = holder.firstElementChild;
      array.querySelector(":scope > [data-rows]").appendChild(row);
      renumber(array);
      var first = row.querySelector("input:not([type=hidden]), select, textarea");
      if (first) first.focus();
      return;
    }
    var remove = event.target.closest("[data-remove-row]");
    if (remove) {
      event.preventDefault();
      var owner = remove.closest("[data-array]");
      remove.closest("[data-row]").remove();
      renumber(owner);
      var again = owner.querySelector(":scope > [data-add-row]");
      if (again) again.focus();
    }
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) event.preventDefault();
  });

  // After a refused submit, take keyboard and screen-reader users to the explanation.
  window.addEventListener("DOMContentLoaded", function () {
    var refusal = document.getElementById("form-refusal");
    if (refusal) refusal.focus();
  });
})();
