// The case's diagram with its state: bpmn-js NavigatedViewer plus markers and visit counts.
(function () {
  "use strict";
  var container = document.getElementById("diagram");
  if (!container || !window.BpmnJS || !window.TramiteDiagram) return;  // a script that did not load (page left early)
  var activity = JSON.parse(document.getElementById("activity-data").textContent);

  window.TramiteDiagram.load(container, container.dataset.xmlUrl, window.BpmnJS).then(function (viewer) {
    var canvas = viewer.get("canvas");
    var overlays = viewer.get("overlays");
    var registry = viewer.get("elementRegistry");
    Object.keys(activity).forEach(function (id) {
      if (!registry.get(id)) return;
      var entry = activity[id];
      canvas.addMarker(id, "tr-" + entry.state);
      if (entry.count > 1) {
        var badge = document.createElement("span");
        badge.className = "tr-count";
        badge.textContent = "×" + entry.count;
        badge.title = entry.count + " " + (container.dataset.countTitle || "");
        overlays.add(id, "tr-count", { position: { top: -10, right: 10 }, html: badge });
      }
    });
    container.dataset.ready = "true";
  }).catch(function (error) {
    container.textContent = String(error && error.message || error);
    container.dataset.ready = "error";
  });
})();
