// Two versions side by side: added elements marked on the new one, removed on the old, changed on both.
(function () {
  "use strict";
  if (!window.BpmnJS || !window.TramiteDiagram) return;
  var rows = JSON.parse(document.getElementById("diff-data").textContent);
  function show(id, states) {
    var container = document.getElementById(id);
    return window.TramiteDiagram.load(container, container.dataset.xmlUrl, window.BpmnJS).then(function (viewer) {
      var canvas = viewer.get("canvas");
      var registry = viewer.get("elementRegistry");
      rows.forEach(function (row) {
        if (states.indexOf(row.status) >= 0 && registry.get(row.id)) canvas.addMarker(row.id, "diff-" + row.status);
      });
      container.dataset.ready = "true";
    });
  }
  show("diagram-old", ["removed", "changed"]);
  show("diagram-new", ["added", "changed"]);
})();
