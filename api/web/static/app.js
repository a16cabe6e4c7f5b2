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
      applyConditions(formScope(array));
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

  // if/then/else in forms (api/web/form_conditions.py): a field some answers require is marked
  // required as the user answers; the server checks the whole schema on submit whatever this says.
  function controlValue(scope, name) {
    var controls = scope.querySelectorAll('[name="' + CSS.escape(name) + '"]');
    if (!controls.length) return undefined;
    var first = controls[0];
    if (first.type === "radio") {
      for (var i = 0; i < controls.length; i++) if (controls[i].checked) return controls[i].value || undefined;
      return undefined;
    }
    if (first.type === "checkbox" && controls.length === 1 && first.value === "true") return first.checked ? "true" : "false";
    return first.value === "" ? undefined : first.value;
  }

  function holds(condition, scope, prefix) {
    var ok = condition.present.every(function (name) { return controlValue(scope, prefix + name) !== undefined; });
    return ok && Object.keys(condition.when).every(function (name) {
      var value = controlValue(scope, prefix + name);
      return value === undefined || condition.when[name].indexOf(value) >= 0;
    });
  }

  function markRequired(wrapper, required) {
    wrapper.dataset.required = required ? "true" : "false";
    wrapper.querySelectorAll(":scope > label [data-req], :scope > legend [data-req]").forEach(function (mark) { mark.hidden = !required; });
    wrapper.querySelectorAll(":scope > textarea, :scope > select, :scope > span > input").forEach(function (control) {
      if (required) control.setAttribute("aria-required", "true"); else control.removeAttribute("aria-required");
    });
  }

  function applyConditions(scope) {
    scope.querySelectorAll("script[data-conditions]").forEach(function (holder) {
      if (holder.closest("template")) return;
      var conditions = JSON.parse(holder.textContent), prefix = holder.dataset.path ? holder.dataset.path + "." : "";
      var required = {};
      conditions.forEach(function (c) {
        var active = holds(c, scope, prefix) ? c.then : c["else"];
        c.then.concat(c["else"]).forEach(function (name) { required[name] = required[name] || active.indexOf(name) >= 0; });
      });
      Object.keys(required).forEach(function (name) {
        var wrapper = scope.querySelector('[data-field="' + CSS.escape(prefix + name) + '"][data-conditional]');
        if (wrapper) markRequired(wrapper, required[name]);
      });
    });
  }

  function formScope(element) { return element.closest("form, [data-preview]") || document; }
  ["change", "input"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      if (event.target.name) applyConditions(formScope(event.target));
    });
  });
  window.TramiteForms = { applyConditions: applyConditions };

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) event.preventDefault();
  });

  // After a refused submit, take keyboard and screen-reader users to the explanation.
  window.addEventListener("DOMContentLoaded", function () {
    applyConditions(document);
    var refusal = document.getElementById("form-refusal");
    if (refusal) refusal.focus();
  });
})();
