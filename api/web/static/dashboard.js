// The outcomes chart of the supervisors' dashboard (chart.js from npm, served locally).
(function () {
  "use strict";
  var source = document.getElementById("outcomes-data");
  var canvas = document.getElementById("outcomes-chart");
  if (!source || !canvas || !window.Chart) return;
  var data = JSON.parse(source.textContent);
  var palette = ["#1b6e3a", "#a61b1b", "#1f4e8c", "#8a5a00", "#5b2a86", "#00676b", "#555555"];
  var datasets = Object.keys(data.series).map(function (outcome, i) {
    return { label: outcome, data: data.series[outcome], backgroundColor: palette[i % palette.length] };
  });
  new window.Chart(canvas, {
    type: "bar",
    data: { labels: data.periods, datasets: datasets },
    options: {
      responsive: true, maintainAspectRatio: false, animation: false,
      scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } },
      plugins: { legend: { position: "bottom" } }
    }
  });
  canvas.dataset.ready = "true";
})();
