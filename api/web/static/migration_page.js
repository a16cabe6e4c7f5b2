// The migration run from the page, in batches so the page shows its progress; without JavaScript
// the same button posts the whole run and the summary comes back with the page.
(function () {
  "use strict";
  var form = document.getElementById("migration-form");
  var button = document.getElementById("run-migration");
  var list = document.getElementById("movable");
  if (!form || !button || !list || !window.fetch) return;
  var csrf = document.querySelector("meta[name=csrf-token]").content;
  var progress = document.getElementById("migration-progress");
  var status = document.getElementById("migration-status");
  var BATCH = 25;

  function text(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, k) { return values[k]; });
  }

  button.addEventListener("click", function (event) {
    event.preventDefault();
    var ids = list.dataset.ids.split(",").filter(Boolean).map(Number);
    var done = 0, migrated = [], blocked = [];
    button.disabled = true;
    progress.hidden = false;
    function next() {
      if (done >= ids.length) {
        status.textContent = text(status.dataset.done || "%(migrated)s / %(blocked)s",
                                  { migrated: migrated.length, blocked: blocked.length });
        // The summary page is the server's own: the form goes once more with what the batches did.
        [["action", "summary"], ["summary_migrated", migrated.join(",")],
         ["summary_blocked", JSON.stringify(blocked)]].forEach(function (pair) {
          var input = document.createElement("input");
          input.type = "hidden"; input.name = pair[0]; input.value = pair[1];
          form.appendChild(input);
        });
        form.submit();
        return;
      }
      var batch = ids.slice(done, done + BATCH);
      fetch(form.dataset.batchUrl, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
        body: JSON.stringify({ from: Number(form.elements.from.value), to: Number(form.elements.to.value),
                               ids: batch, mapping: form.elements.mapping.value, reason: form.elements.reason.value })
      }).then(function (r) {
        return r.json().then(function (body) { if (!r.ok) throw new Error(body.message); return body; });
      }).then(function (body) {
        migrated = migrated.concat(body.migrated.map(function (c) { return c.id; }));
        blocked = blocked.concat(body.blocked);
        done += batch.length;
        progress.value = done;
        status.textContent = text(status.dataset.progress || "%(done)s / %(total)s", { done: done, total: ids.length });
        next();
      }).catch(function (error) {
        status.textContent = error.message;
        button.disabled = false;
      });
    }
    next();
  });
})();
