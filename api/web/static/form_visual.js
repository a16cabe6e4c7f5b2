// The form editor's visual mode, beside the JSON: one row per field (name, title, type, required,
// the options of a choice with their labels). Each change is written back into the schema and
// presentation JSON, which stay the source (the preview and the deploy read them); a field of a
// kind this view does not draw (a list, an object) is kept as it is and edited in the JSON.
(function () {
  "use strict";
  var box = document.getElementById("form-visual");
  var schemaArea = document.getElementById("form-schema");
  var uiArea = document.getElementById("form-ui");
  if (!box || !schemaArea || !uiArea) return;
  var t = box.dataset;
  var MONEY = { type: ["string", "number"], pattern: "^\\d{1,12}(\\.\\d{1,2})?$", minimum: 0 };
  var TYPES = {
    text: function () { return { type: "string" }; },
    textarea: function () { return { type: "string" }; },
    number: function () { return { type: "number" }; },
    integer: function () { return { type: "integer" }; },
    money: function () { return JSON.parse(JSON.stringify(MONEY)); },
    date: function () { return { type: "string", format: "date" }; },
    boolean: function () { return { type: "boolean" }; },
    choice: function () { return { "enum": [] }; }
  };
  var writing = false;

  function parse(area, fallback) {
    if (!area.value.trim()) return fallback;
    return JSON.parse(area.value);
  }

  function kindOf(prop, ui) {
    if (Array.isArray(prop["enum"])) return "choice";
    var type = prop.type;
    if (Array.isArray(type) && type.indexOf("string") >= 0 && type.indexOf("number") >= 0) return "money";
    if (type === "string" && prop.format === "date") return "date";
    if (type === "string") return (ui && ui["ui:widget"] === "textarea") ? "textarea" : "text";
    if (type === "number" || type === "integer" || type === "boolean") return type;
    return "other";
  }

  function order(schema, ui) {
    var names = Object.keys(schema.properties || {});
    var wanted = (ui["ui:order"] || []).filter(function (n) { return names.indexOf(n) >= 0; });
    return wanted.concat(names.filter(function (n) { return wanted.indexOf(n) < 0; }));
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function write(schema, ui) {
    writing = true;
    schemaArea.value = JSON.stringify(schema, null, 2);
    uiArea.value = JSON.stringify(ui, null, 2);
    // The page's own listeners mark the files edited and redraw the preview.
    schemaArea.dispatchEvent(new Event("input"));
    uiArea.dispatchEvent(new Event("input"));
    writing = false;
    // Redrawn from the JSON just written; the control that had the focus keeps it.
    var active = document.activeElement;
    var at = active && box.contains(active) && active.closest("tr") ?
      [active.closest("tr").dataset.field, active.dataset.part] : null;
    render();
    if (at) {
      var again = box.querySelector('tr[data-field="' + CSS.escape(at[0]) + '"] [data-part="' + at[1] + '"]');
      if (again) again.focus();
    }
  }

  function optionsText(prop, ui) {
    var names = ui["ui:enumNames"] || [];
    return (prop["enum"] || []).map(function (v, i) { return names[i] ? v + " = " + names[i] : String(v); }).join("\n");
  }

  function setOptions(prop, ui, text) {
    var values = [], labels = [];
    text.split("\n").forEach(function (line) {
      if (!line.trim()) return;
      var at = line.indexOf("=");
      var value = (at >= 0 ? line.slice(0, at) : line).trim();
      values.push(value);
      labels.push(at >= 0 ? line.slice(at + 1).trim() : value);
    });
    prop["enum"] = values;
    ui["ui:enumNames"] = labels;
    if (!ui["ui:widget"]) ui["ui:widget"] = "radio";
  }

  function change(name, apply) {
    var schema, ui;
    try { schema = parse(schemaArea, {}); ui = parse(uiArea, {}); } catch (e) { render(); return; }
    schema.properties = schema.properties || {};
    ui[name] = ui[name] || {};
    apply(schema, ui);
    Object.keys(ui).forEach(function (k) {
      if (k.indexOf("ui:") !== 0 && ui[k] && typeof ui[k] === "object" && !Object.keys(ui[k]).length) delete ui[k];
    });
    write(schema, ui);
  }

  function rename(schema, ui, from, to) {
    if (!to || to === from || schema.properties[to]) return false;
    var props = {};
    Object.keys(schema.properties).forEach(function (k) { props[k === from ? to : k] = schema.properties[k]; });
    schema.properties = props;
    if (ui[from]) { ui[to] = ui[from]; delete ui[from]; }
    schema.required = (schema.required || []).map(function (k) { return k === from ? to : k; });
    ui["ui:order"] = order(schema, ui).map(function (k) { return k === from ? to : k; });
    return true;
  }

  function row(name, prop, required, ui) {
    var kind = kindOf(prop, ui);
    var tr = el("tr", { "data-field": name });
    var nameInput = el("input", { type: "text", value: name, "aria-label": t.name + " " + name, "data-part": "name" });
    nameInput.addEventListener("change", function () {
      var to = nameInput.value.trim().replace(/[^A-Za-z0-9_]/g, "_");
      change(name, function (schema, uiNow) { rename(schema, uiNow, name, to); });
    });
    var title = el("input", { type: "text", value: (ui[name] || {})["ui:title"] || prop.title || "",
                              "aria-label": t.title + " " + name, "data-part": "title" });
    title.addEventListener("change", function () {
      change(name, function (schema, uiNow) {
        if (title.value.trim()) uiNow[name]["ui:title"] = title.value.trim(); else delete uiNow[name]["ui:title"];
      });
    });
    var type = el("select", { "aria-label": t.type + " " + name, "data-part": "type" });
    var kinds = Object.keys(TYPES).concat(kind === "other" ? ["other"] : []);
    kinds.forEach(function (k) {
      var option = el("option", { value: k }, t["type" + k.charAt(0).toUpperCase() + k.slice(1)] || k);
      if (k === kind) option.selected = true;
      type.appendChild(option);
    });
    type.disabled = kind === "other";
    type.addEventListener("change", function () {
      change(name, function (schema, uiNow) {
        schema.properties[name] = TYPES[type.value]();
        delete uiNow[name]["ui:enumNames"];
        if (type.value === "textarea") uiNow[name]["ui:widget"] = "textarea";
        else delete uiNow[name]["ui:widget"];
      });
    });
    var req = el("input", { type: "checkbox", "aria-label": t.required + " " + name, "data-part": "required" });
    req.checked = required;
    req.addEventListener("change", function () {
      change(name, function (schema) {
        var list = (schema.required || []).filter(function (k) { return k !== name; });
        if (req.checked) list.push(name);
        schema.required = list;
      });
    });
    var options = el("td");
    if (kind === "choice") {
      var area = el("textarea", { rows: "3", "aria-label": t.options + " " + name, "data-part": "options",
                                  placeholder: t.optionsHelp });
      area.value = optionsText(prop, ui[name] || {});
      area.addEventListener("change", function () {
        change(name, function (schema, uiNow) { setOptions(schema.properties[name], uiNow[name], area.value); });
      });
      options.appendChild(area);
    } else if (kind === "other") {
      options.appendChild(el("span", { "class": "muted" }, t.otherHelp));
    }
    var remove = el("button", { type: "button", "class": "btn small secondary", "data-part": "remove" }, t.remove);
    remove.addEventListener("click", function () {
      change(name, function (schema, uiNow) {
        delete schema.properties[name];
        delete uiNow[name];
        schema.required = (schema.required || []).filter(function (k) { return k !== name; });
        if (uiNow["ui:order"]) uiNow["ui:order"] = uiNow["ui:order"].filter(function (k) { return k !== name; });
      });
    });
    [nameInput, title, type, req].forEach(function (node) { var td = el("td"); td.appendChild(node); tr.appendChild(td); });
    tr.appendChild(options);
    var last = el("td"); last.appendChild(remove); tr.appendChild(last);
    return tr;
  }

  function render() {
    if (writing) return;
    box.innerHTML = "";
    var schema, ui;
    try { schema = parse(schemaArea, {}); ui = parse(uiArea, {}); } catch (e) {
      box.appendChild(el("p", { "class": "alert alert-error", role: "status" }, t.invalid));
      return;
    }
    var table = el("table", { "class": "list compact form-visual-table" });
    var head = el("tr");
    [t.name, t.title, t.type, t.required, t.options, ""].forEach(function (h) { head.appendChild(el("th", { scope: "col" }, h)); });
    var thead = el("thead"); thead.appendChild(head); table.appendChild(thead);
    var body = el("tbody");
    var required = schema.required || [];
    order(schema, ui).forEach(function (name) {
      body.appendChild(row(name, schema.properties[name] || {}, required.indexOf(name) >= 0, ui));
    });
    table.appendChild(body);
    box.appendChild(table);
    var add = el("button", { type: "button", "class": "btn small", "data-part": "add" }, t.add);
    add.addEventListener("click", function () {
      var n = 1;
      while ((schema.properties || {})["campo_" + n]) n += 1;
      var fresh = "campo_" + n;
      change(fresh, function (schemaNow, uiNow) {
        schemaNow.properties[fresh] = TYPES.text();
        uiNow["ui:order"] = order(schemaNow, uiNow);
      });
    });
    box.appendChild(add);
  }

  schemaArea.addEventListener("input", render);
  uiArea.addEventListener("input", render);
  window.addEventListener("tramite:form-opened", render);
  render();
})();
