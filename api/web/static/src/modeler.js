// Bundled by esbuild (`npm run build:web`) into node_modules/.tramite-web/modeler.js.
// The bpmn-js modeler with the standard properties panel (names, ids, lanes, timers, messages)
// plus a Trámite group for what the engine reads from the XML: scripts, gateway conditions and
// the form of each user task.
import BpmnModeler from 'bpmn-js/lib/Modeler';
import { getBusinessObject, is } from 'bpmn-js/lib/util/ModelUtil';
import { BpmnPropertiesPanelModule, BpmnPropertiesProviderModule, useService } from 'bpmn-js-properties-panel';
import { TextAreaEntry, isTextAreaEntryEdited } from '@bpmn-io/properties-panel';
import { h } from '@bpmn-io/properties-panel/preact';

const LABELS = window.TRAMITE_MODELER_LABELS || {};

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

function FormEntry(props) {
  const { element } = props;
  const open = () => window.dispatchEvent(new CustomEvent('tramite:edit-form', { detail: { id: element.id } }));
  return h('div', { class: 'bio-properties-panel-entry' },
    h('p', { class: 'bio-properties-panel-description' }, label('formHelp', '') + ' ' + element.id + '.schema.json'),
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
    if (is(element, 'bpmn:UserTask')) {
      entries.push({ id: 'tramite-form', component: FormEntry, element });
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
    additionalModules: [BpmnPropertiesPanelModule, BpmnPropertiesProviderModule, TramiteProviderModule]
  });
}

window.TramiteModeler = { create };
