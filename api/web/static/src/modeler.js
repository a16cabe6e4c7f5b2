// Bundled by esbuild (`npm run build:web`) into node_modules/.tramite-web/modeler.js.
// The bpmn-js modeler with the standard properties panel (names, ids, lanes, timers, messages)
// plus a Trámite group for what the engine reads from the XML: scripts, gateway conditions, the
// SpiffWorkflow extensions (instructions, pre/post scripts) and the form of each user task.
// Every word bpmn-js shows goes through `translate`; the page hands us the Spanish table
// (api/web/modeler_i18n.py) and we swap the service, so no catalogue ships in this bundle.
import BpmnModeler from 'bpmn-js/lib/Modeler';
import { getBusinessObject, is } from 'bpmn-js/lib/util/ModelUtil';
import { BpmnPropertiesPanelModule, BpmnPropertiesProviderModule, useService } from 'bpmn-js-properties-panel';
import { TextAreaEntry, isTextAreaEntryEdited } from '@bpmn-io/properties-panel';
import { h } from '@bpmn-io/properties-panel/preact';

const LABELS = window.TRAMITE_MODELER_LABELS || {};
const SPIFF = 'http://spiffworkflow.org/bpmn/schema/1.0/core';

function translate(template, replacements) {
  const text = (LABELS.panel && LABELS.panel[template]) || template;
  return text.replace(/{([^}]+)}/g, (whole, key) => (replacements && key in replacements ? replacements[key] : whole));
}
const TranslateModule = { translate: ['value', translate] };

function label(key, fallback) {
  return LABELS[key] || fallback;
}

function ScriptEntry(props) {
  const { element, id } = props;
  const modeling = useService('modeling');
  const debounce = useService('debounceInput');
  const bo = getBusinessObject(element);
  return h(TextAreaEntry, {
    id, element, debounce, rows: 8, monospace: true,
    label: label('script', 'Script'),
    description: label('scriptHelp', ''),
    getValue: () => bo.get('script') || '',
    setValue: (value) => modeling.updateProperties(element, { scriptFormat: 'python', script: value || '' })
  });
}

function ConditionEntry(props) {
  const { element, id } = props;
  const modeling = useService('modeling');
  const bpmnFactory = useService('bpmnFactory');
  const debounce = useService('debounceInput');
  const bo = getBusinessObject(element);
  return h(TextAreaEntry, {
    id, element, debounce, rows: 3, monospace: true,
    label: label('condition', 'Condition'),
    getValue: () => (bo.conditionExpression && bo.conditionExpression.body) || '',
    setValue: (value) => modeling.updateProperties(element, {
      conditionExpression: value ? bpmnFactory.create('bpmn:FormalExpression', { body: value }) : undefined
    })
  });
}

// A SpiffWorkflow extension element (<spiffworkflow:NAME>text</spiffworkflow:NAME>) kept as a
// generic moddle element: bpmn-js preserves what it has no descriptor for, so no moddle extension
// is needed. Each change replaces the list of extension elements in one undoable command.
function spiffText(element, name) {
  const ext = getBusinessObject(element).extensionElements;
  const found = ext && (ext.values || []).find((v) => v.$type === 'spiffworkflow:' + name);
  return (found && found.$body) || '';
}

function setSpiffText(element, name, value, services) {
  const { modeling, bpmnFactory, moddle } = services;
  const bo = getBusinessObject(element);
  let ext = bo.extensionElements;
  if (!ext) {
    ext = bpmnFactory.create('bpmn:ExtensionElements', { values: [] });
    modeling.updateProperties(element, { extensionElements: ext });
  }
  const values = (ext.values || []).filter((v) => v.$type !== 'spiffworkflow:' + name);
  if (value) {
    const node = moddle.createAny('spiffworkflow:' + name, SPIFF, { $body: value });
    node.$parent = ext;
    values.push(node);
  }
  modeling.updateModdleProperties(element, ext, { values });
}

function SpiffEntry(props) {
  const { element, id, name, rows, monospace, labelKey, helpKey } = props;
  const services = { modeling: useService('modeling'), bpmnFactory: useService('bpmnFactory'), moddle: useService('moddle') };
  const debounce = useService('debounceInput');
  return h(TextAreaEntry, {
    id, element, debounce, rows, monospace,
    label: label(labelKey, name), description: helpKey ? label(helpKey, '') : undefined,
    getValue: () => spiffText(element, name),
    setValue: (value) => setSpiffText(element, name, value || '', services)
  });
}

// One component per extension, made once: a new function on each render would remount the
// textarea and take the focus away while the owner types.
const SPIFF_ENTRIES = {
  instructionsForEndUser: { labelKey: 'instructions', helpKey: 'instructionsHelp', rows: 5 },
  preScript: { labelKey: 'preScript', rows: 4, monospace: true },
  postScript: { labelKey: 'postScript', rows: 4, monospace: true }
};
Object.keys(SPIFF_ENTRIES).forEach((name) => {
  const options = SPIFF_ENTRIES[name];
  options.component = (props) => h(SpiffEntry, { ...props, name, ...options });
});

function spiffEntry(element, name) {
  return { id: 'tramite-' + name, element, isEdited: isTextAreaEntryEdited, component: SPIFF_ENTRIES[name].component };
}

function FormEntry(props) {
  const { element } = props;
  const open = () => window.dispatchEvent(new CustomEvent('tramite:edit-form', { detail: { id: element.id } }));
  return h('div', { class: 'bio-properties-panel-entry' },
    h('p', { class: 'bio-properties-panel-description' }, label('formFiles', '') + ' ' + element.id + '.schema.json, ' +
      element.id + '.ui.json'),
    h('button', { type: 'button', class: 'tr-panel-button', onClick: open }, label('editForm', 'Edit form')));
}

function TramiteProvider(propertiesPanel) {
  propertiesPanel.registerProvider(400, this);
}
TramiteProvider.$inject = ['propertiesPanel'];

TramiteProvider.prototype.getGroups = function (element) {
  return function (groups) {
    const entries = [];
    if (is(element, 'bpmn:ScriptTask')) {
      entries.push({ id: 'tramite-script', component: ScriptEntry, element, isEdited: isTextAreaEntryEdited });
    }
    if (is(element, 'bpmn:SequenceFlow') && element.source && is(element.source, 'bpmn:Gateway')) {
      entries.push({ id: 'tramite-condition', component: ConditionEntry, element, isEdited: isTextAreaEntryEdited });
    }
    if (is(element, 'bpmn:UserTask') || is(element, 'bpmn:ManualTask')) {
      entries.push(spiffEntry(element, 'instructionsForEndUser'));
    }
    if (is(element, 'bpmn:UserTask')) {
      entries.push({ id: 'tramite-form', component: FormEntry, element });
    }
    if (is(element, 'bpmn:Task')) {
      entries.push(spiffEntry(element, 'preScript'));
      entries.push(spiffEntry(element, 'postScript'));
    }
    if (entries.length) {
      groups.splice(1, 0, { id: 'tramite', label: label('group', 'Trámite'), entries });
    }
    return groups;
  };
};

const TramiteProviderModule = { __init__: ['tramitePropertiesProvider'], tramitePropertiesProvider: ['type', TramiteProvider] };

function create(container, panel) {
  return new BpmnModeler({
    container,
    propertiesPanel: { parent: panel },
    additionalModules: [TranslateModule, BpmnPropertiesPanelModule, BpmnPropertiesProviderModule, TramiteProviderModule]
  });
}

window.TramiteModeler = { create };
