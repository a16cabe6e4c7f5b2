// The case file's upload forms: drag and drop onto the drop zone, and an upload with a progress bar
// (XMLHttpRequest reports upload progress; fetch does not). Without JavaScript the form posts as is.
// On a task page, each "received" box gets the uploaded documents of its type beside it.
(function () {
  "use strict";

  function setup(form) {
    var zone = form.querySelector("[data-dropzone]");
    var input = form.querySelector("input[type=file]");
    var name = form.querySelector("[data-drop-name]");
    var progress = form.querySelector("[data-progress]");
    var status = form.querySelector("[data-status]");
    function show() { name.textContent = input.files.length ? input.files[0].name : ""; }
    input.addEventListener("change", show);
    ["dragenter", "dragover"].forEach(function (kind) {
      zone.addEventListener(kind, function (event) { event.preventDefault(); zone.classList.add("dragging"); });
    });
    ["dragleave", "drop"].forEach(function (kind) {
      zone.addEventListener(kind, function () { zone.classList.remove("dragging"); });
    });
    zone.addEventListener("drop", function (event) {
      event.preventDefault();
      if (event.dataTransfer && event.dataTransfer.files.length) {
        input.files = event.dataTransfer.files;
        show();
      }
    });
    form.addEventListener("submit", function (event) {
      if (!window.FormData || !input.files.length) { return; }  // the browser's own checks and post
      event.preventDefault();
      var request = new XMLHttpRequest();
      request.open("POST", form.action);
      request.setRequestHeader("Accept", "application/json");
      progress.hidden = false;
      progress.value = 0;
      status.textContent = "";
      request.upload.addEventListener("progress", function (e) {
        if (e.lengthComputable) { progress.value = Math.round(100 * e.loaded / e.total); }
      });
      request.addEventListener("load", function () {
        var answer = {};
        try { answer = JSON.parse(request.responseText); } catch (ignored) { answer = {}; }
        if (request.status === 201) {
          window.location.assign(answer.next || window.location.href);
          return;
        }
        progress.hidden = true;
        status.textContent = answer.message || (request.status + " " + request.statusText);
        status.classList.add("alert", "alert-error");
      });
      request.addEventListener("error", function () {
        progress.hidden = true;
        status.textContent = form.getAttribute("data-network-error") || "Error de red";
      });
      request.send(new FormData(form));
    });
  }

  function besideBoxes() {
    var block = document.getElementById("document-checklist-data");
    if (!block) { return; }
    var links = JSON.parse(block.textContent);
    Object.keys(links).forEach(function (field) {
      var box = document.querySelector('[name="' + field.replace(/"/g, "") + '"]');
      if (!box || !links[field].length) { return; }
      var list = document.createElement("span");
      list.className = "beside-box";
      links[field].forEach(function (link, i) {
        if (i) { list.appendChild(document.createTextNode(", ")); }
        var a = document.createElement("a");
        a.href = link.url;
        a.textContent = link.label;
        a.setAttribute("download", "");
        list.appendChild(a);
      });
      var holder = box.closest(".field") || box.parentNode;
      holder.appendChild(list);
    });
  }

  document.querySelectorAll("form[data-upload]").forEach(setup);
  besideBoxes();
}());
