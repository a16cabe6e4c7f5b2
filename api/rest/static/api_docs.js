// Swagger UI over this server's own OpenAPI document; a file, not an inline script, so the page's
// CSP refuses every inline script. No validator badge: it would send the document to another site.
window.addEventListener("DOMContentLoaded", function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({ url: root.dataset.specUrl, dom_id: "#swagger-ui", validatorUrl: null });
});
