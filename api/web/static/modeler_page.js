// The process owner's modeler page: edit the diagram and the task forms, deploy a new version,
// and show the engine's refusals on the elements they name.
(function () {
  "use strict";
  var root = document.getElementById("modeler");
  if (!root || !window.TramiteModeler || !window.TramiteDiagram) return;
  var labels = window.TRAMITE_MODELER_LABELS || {};
  var csrf = document.querySelector("meta[name=csrf-token]").content;
  var forms = JSON.parse(document.getElementById("forms-data").textContent);
  var edited = {};
  var EMPTY_SCHEMA = JSON.stringify({ "$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                                      "properties": {}, "additionalProperties": false }, null, 2);
  var modeler = window.TramiteModeler.create(document.getElementById("canvas"), document.getElementById("properties"));
  var status = document.getElementById("deploy-status");
  var taskSelect = document.getElementById("form-task");
  var schemaArea = document.getElementById("form-schema");
  var uiArea = document.getElementById("form-ui");
  var preview = document.getElementById("form-preview");
  var marked = [];

  function text(name) { return Object.prototype.hasOwnProperty.call(edited, name) ? edited[name] : (forms[name] || ""); }
  function format(value) { try { return JSON.stringify(JSON.parse(value), null, 2); } catch (e) { return value; } }
  function escapeHtml(value) {
    return String(value).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; });
  }

  var currentTask = null;

  function userTasks() {
    return modeler.get("elementRegistry").filter(function (e) { return e.type === "bpmn:UserTask"; })
      .map(function (e) { return { id: e.businessObject.id, name: e.businessObject.name || e.businessObject.id }; });
  }

  function refreshTasks() {
    var tasks = userTasks();
    taskSelect.innerHTML = "";
    tasks.forEach(function (t) {
      var option = document.createElement("option");
      option.value = t.id;
      option.textContent = t.name + " (" + t.id + ")";
      taskSelect.appendChild(option);
    });
    if (!tasks.length) {
      currentTask = null;
      preview.textContent = labels.noTasks || "";
      return;
    }
    if (tasks.some(function (t) { return t.id === currentTask; })) taskSelect.value = currentTask;
    else openForm(tasks[0].id);
  }

  function openForm(id) {
    if (id === currentTask) return;
    currentTask = id;
    taskSelect.value = id;
    document.querySelector(".schema-name").textContent = id + ".schema.json";
    document.querySelector(".ui-name").textContent = id + ".ui.json";
    schemaArea.value = format(text(id + ".schema.json")) || EMPTY_SCHEMA;
    if (!text(id + ".schema.json")) edited[id + ".schema.json"] = schemaArea.value;
    uiArea.value = format(text(id + ".ui.json"));
    renderPreview();
    window.dispatchEvent(new CustomEvent("tramite:form-opened", { detail: { id: id } }));
  }

  var timer = null;
  var previewRequest = 0;  // only the newest answer is drawn, whatever order they arrive in
  function schedulePreview() { clearTimeout(timer); timer = setTimeout(renderPreview, 300); }
  function renderPreview() {
    var mine = ++previewRequest;
    fetch(root.dataset.previewUrl, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify({ schema: schemaArea.value, ui: uiArea.value })
    }).then(function (r) { return r.text(); }).then(function (html) {
        if (mine !== previewRequest) return;
        preview.innerHTML = html;
        if (window.TramiteForms) window.TramiteForms.applyConditions(preview);
      })
      .catch(function (e) { preview.textContent = (labels.previewError || "") + " " + e; });
  }

  taskSelect.addEventListener("change", function () { openForm(taskSelect.value); });
  schemaArea.addEventListener("input", function () { edited[currentTask + ".schema.json"] = schemaArea.value; schedulePreview(); });
  uiArea.addEventListener("input", function () { edited[currentTask + ".ui.json"] = uiArea.value; schedulePreview(); });
  window.addEventListener("tramite:edit-form", function (event) {
    refreshTasks();
    openForm(event.detail.id);
    document.getElementById("form-editor").scrollIntoView({ behavior: "smooth" });
    schemaArea.focus();
  });

  function clearMarks() {
    var canvas = modeler.get("canvas");
    marked.forEach(function (id) { try { canvas.removeMarker(id, "tr-invalid"); } catch (e) { /* gone */ } });
    modeler.get("overlays").remove({ type: "tr-invalid" });
    marked = [];
  }

  // The status box above the canvas changes its height: tell the canvas it moved.
  function statusChanged() { modeler.get("canvas").resized(); }

  function showRefusal(answer) {
    var registry = modeler.get("elementRegistry");
    var canvas = modeler.get("canvas");
    var overlays = modeler.get("overlays");
    var items = [];
    Object.keys(answer.errors || {}).forEach(function (key) {
      var messages = [].concat(answer.errors[key]).join(" ");
      var element = registry.get(key);
      if (element) {
        canvas.addMarker(key, "tr-invalid");
        marked.push(key);
        var note = document.createElement("div");
        note.className = "tr-invalid-note";
        note.textContent = messages;
        overlays.add(key, "tr-invalid", { position: { bottom: -4, left: 0 }, html: note });
      }
      items.push("<li data-element=\"" + escapeHtml(key) + "\"><code>" + escapeHtml(key) + "</code>: " + escapeHtml(messages) + "</li>");
    });
    status.className = "deploy-status alert alert-error";
    status.innerHTML = "<p><strong>" + escapeHtml(labels.refused || "") + "</strong> " + escapeHtml(answer.message || "") +
      "</p><ul>" + items.join("") + "</ul>";
    statusChanged();
  }

  // After a deploy the page edits the version just made: its number in the header, the
  // breadcrumbs and the title, and the base of the next deploy.
  function showVersion(version) {
    var previous = root.dataset.baseVersion;
    root.dataset.baseVersion = String(version);
    document.querySelectorAll("[data-version-label]").forEach(function (node) { node.textContent = "v" + version; });
    document.title = document.title.replace(new RegExp("\\bv" + previous + "\\b"), "v" + version);
  }

  // "fit-viewport" uses the whole canvas, the part under the palette too: fit the diagram in the
  // room to the palette's right instead, at most at full size.
  function fitBesidePalette() {
    var canvas = modeler.get("canvas");
    canvas.zoom("fit-viewport", "auto");
    var palette = root.querySelector(".djs-palette");
    var box = canvas.viewbox();
    if (!palette || !box.inner || !box.inner.width || !box.inner.height) return;
    var holder = document.getElementById("canvas").getBoundingClientRect();
    var margin = 24;
    var left = palette.getBoundingClientRect().right - holder.left + margin;
    var scale = Math.min((box.outer.width - left - margin) / box.inner.width,
                         (box.outer.height - 2 * margin) / box.inner.height, 1);
    if (!(scale > 0)) return;
    canvas.viewbox({ x: box.inner.x - left / scale, y: box.inner.y - margin / scale,
                     width: box.outer.width / scale, height: box.outer.height / scale });
  }

  document.getElementById("deploy-button").addEventListener("click", function () {
    var button = this;
    button.disabled = true;
    clearMarks();
    status.className = "deploy-status";
    status.textContent = labels.saving || "";
    modeler.saveXML({ format: true }).then(function (saved) {
      return fetch(root.dataset.deployUrl, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
        body: JSON.stringify({ xml: saved.xml, forms: edited, base_version: root.dataset.baseVersion })
      });
    }).then(function (r) { return r.json().then(function (body) { return { ok: r.ok, body: body }; }); })
      .then(function (answer) {
        if (!answer.ok) { showRefusal(answer.body); return; }
        var template = answer.body.created ? labels.deployed : labels.unchanged;
        status.className = "deploy-status alert alert-success";
        status.innerHTML = "<p>" + escapeHtml((template || "").replace("%(version)s", answer.body.version)) +
          " <a href=\"" + answer.body.processes_url + "\">" + escapeHtml(labels.open || "") + "</a></p>";
        status.dataset.version = answer.body.version;
        showVersion(answer.body.version);
        if (answer.body.edit_url && window.history.replaceState) window.history.replaceState(null, "", answer.body.edit_url);
        statusChanged();
      })
      .catch(function (e) { status.className = "deploy-status alert alert-error"; status.textContent = String(e); })
      .then(function () { button.disabled = false; });
  });

  fetch(root.dataset.xmlUrl, { credentials: "same-origin" }).then(function (r) { return r.text(); })
    .then(window.TramiteDiagram.prepare)
    .then(function (xml) { return modeler.importXML(xml); })
    .then(function () {
      fitBesidePalette();
      refreshTasks();
      var refresh = null;
      modeler.on("elements.changed", function () { clearTimeout(refresh); refresh = setTimeout(refreshTasks, 300); });
      root.dataset.ready = "true";
    })
    .catch(function (e) { status.className = "deploy-status alert alert-error"; status.textContent = String(e); });
})();
