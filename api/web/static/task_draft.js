// Saves a task form as a draft while the person types, and when they leave the page, so a long
// form left half-done comes back when the task is opened again (api/web/views/drafts.py).
// The server keeps it per task and person; completing the task drops it.
(function () {
  "use strict";
  var form = document.querySelector("form.task-form[data-draft-url]");
  if (!form || !window.fetch || !window.FormData) return;
  var url = form.dataset.draftUrl;
  var status = document.querySelector("[data-draft-status]");
  var timer = null;
  var dirty = false;
  var submitting = false;

  function body() {
    var data = new FormData(form);
    data.delete("_action");
    return data;
  }

  function save() {
    clearTimeout(timer);
    if (!dirty || submitting) return;
    dirty = false;
    fetch(url, { method: "POST", credentials: "same-origin", body: body() })
      .then(function (r) {
        if (status) status.textContent = r.ok ? status.dataset.savedText : status.dataset.failedText;
        form.dataset.draftSaved = r.ok ? "true" : "false";
      })
      .catch(function () { if (status) status.textContent = status.dataset.failedText; });
  }

  function changed() {
    dirty = true;
    clearTimeout(timer);
    timer = setTimeout(save, 1500);
  }

  form.addEventListener("input", changed);
  form.addEventListener("change", changed);
  form.addEventListener("submit", function () { submitting = true; clearTimeout(timer); });
  // Leaving (another page, a closed tab, a phone putting the browser away): send what is unsaved.
  function leaving() {
    if (!dirty || submitting) return;
    dirty = false;
    if (navigator.sendBeacon) navigator.sendBeacon(url, body());
    else fetch(url, { method: "POST", credentials: "same-origin", body: body(), keepalive: true });
  }
  window.addEventListener("pagehide", leaving);
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "hidden") leaving(); });
})();
