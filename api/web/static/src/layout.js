// Bundled by esbuild (`npm run build:web`) into node_modules/.tramite-web/layout.js.
// Loads a diagram into a bpmn-js viewer or modeler; a diagram without drawing information
// (BPMN DI), as a hand-written or generated one may be, is laid out automatically first.
import { layoutProcess } from 'bpmn-auto-layout';

const BPMN = 'http://www.omg.org/spec/BPMN/20100524/MODEL';

function hasDiagram(xml) {
  return /BPMNDiagram/.test(xml) && /BPMN(Shape|Plane)/.test(xml);
}

// The layouter follows each node's <incoming>/<outgoing> references, which the engine does not
// need and generated diagrams often leave out; they are derived from the sequence flows here.
function withFlowReferences(xml) {
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  const byId = {};
  for (const node of doc.getElementsByTagNameNS(BPMN, '*')) {
    if (node.getAttribute('id')) byId[node.getAttribute('id')] = node;
  }
  for (const flow of Array.from(doc.getElementsByTagNameNS(BPMN, 'sequenceFlow'))) {
    const id = flow.getAttribute('id');
    for (const [end, tag] of [['sourceRef', 'outgoing'], ['targetRef', 'incoming']]) {
      const node = byId[flow.getAttribute(end)];
      if (!node) continue;
      const known = Array.from(node.getElementsByTagNameNS(BPMN, tag)).some((ref) => ref.textContent.trim() === id);
      if (known) continue;
      const ref = doc.createElementNS(BPMN, (node.prefix ? node.prefix + ':' : '') + tag);
      ref.textContent = id;
      node.appendChild(ref);
    }
  }
  return new XMLSerializer().serializeToString(doc);
}

async function prepare(xml) {
  return hasDiagram(xml) ? xml : layoutProcess(withFlowReferences(xml));
}

async function load(container, url, Viewer, options) {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) {
    throw new Error(response.status + ' ' + response.statusText);
  }
  const xml = await prepare(await response.text());
  const viewer = new Viewer(Object.assign({ container }, options || {}));
  await viewer.importXML(xml);
  viewer.get('canvas').zoom('fit-viewport', 'auto');
  return viewer;
}

window.TramiteDiagram = { load, prepare, hasDiagram };
