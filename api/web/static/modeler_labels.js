// The modeler bundle's words, read from the page's JSON before the bundle runs (deferred scripts
// run in order): a file, not an inline script, so the page's CSP can refuse every inline script.
window.TRAMITE_MODELER_LABELS = JSON.parse(document.getElementById("modeler-labels").textContent);
