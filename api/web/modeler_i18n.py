"""The bpmn-js modeler and its properties panel in Spanish.

bpmn-js passes every word it shows through a `translate(template)` service whose source language
is English; static/src/modeler.js swaps that service for a lookup in this table when the page is
in Spanish (the English page keeps the library's own words, so these are plain strings, not
gettext). A string missing here stays in English: it is never blank. Only the groups of the plain
BPMN properties provider are listed; the Camunda/Zeebe ones are not loaded.
"""
from __future__ import annotations

PANEL_ES = {
    # groups
    "General": "General", "Documentation": "Documentación", "Timer": "Temporizador", "Message": "Mensaje",
    "Signal": "Señal", "Error": "Error", "Escalation": "Escalamiento", "Link": "Enlace",
    "Compensation": "Compensación", "Multi-instance": "Instancias múltiples", "Completion": "Finalización",
    # entries
    "Name": "Nombre", "ID": "ID", "Process name": "Nombre del proceso", "Process ID": "ID del proceso",
    "Participant Name": "Nombre del participante", "Executable": "Ejecutable",
    "Element documentation": "Documentación del elemento", "Process documentation": "Documentación del proceso",
    "Type": "Tipo", "Value": "Valor", "Date": "Fecha", "Duration": "Duración", "Cycle": "Ciclo",
    "<none>": "<ninguno>", "<empty>": "<vacío>", "Create new ...": "Crear nuevo…", "Code": "Código",
    "Global message reference": "Mensaje global", "Global signal reference": "Señal global",
    "Global error reference": "Error global", "Global escalation reference": "Escalamiento global",
    "Loop cardinality": "Número de repeticiones", "Completion condition": "Condición de finalización",
    "Cancel remaining instances": "Cancelar las instancias restantes", "Wait for completion": "Esperar a que termine",
    "Activity reference": "Actividad de referencia", "Documentation: Timer events": "Documentación: eventos de tiempo",
    "A specific point in time defined as ISO 8601 combined date and time representation.":
        "Un momento concreto, como fecha y hora ISO 8601.",
    "A time duration defined as ISO 8601 durations format.": "Una duración en formato ISO 8601.",
    "A cycle defined as ISO 8601 repeating intervals format.": "Un ciclo en formato de intervalos repetidos ISO 8601.",
    "UTC time": "hora UTC", "UTC plus 2 hours zone offset": "UTC más 2 horas", "15 seconds": "15 segundos",
    "1 hour and 30 minutes": "1 hora y 30 minutos", "14 days": "14 días", "every day, infinitely": "cada día, sin fin",
    "every 10 seconds, up to 5 times": "cada 10 segundos, hasta 5 veces",
    "ID must be a valid QName.": "El ID debe ser un QName válido.", "ID must be unique.": "El ID debe ser único.",
    "ID must not be empty.": "El ID no puede estar vacío.", "ID must not contain prefix.": "El ID no puede llevar prefijo.",
    "ID must not contain spaces.": "El ID no puede tener espacios.",
    "Select an element to edit its properties.": "Seleccione un elemento para editar sus propiedades.",
    "Multiple elements are selected. Select a single element to edit its properties.":
        "Hay varios elementos seleccionados. Seleccione uno solo para editar sus propiedades.",
    # the panel's own controls
    "Toggle section": "Abrir o cerrar la sección", "Section contains edits": "La sección tiene cambios",
    "Section contains an error": "La sección tiene un error", "Create": "Crear", "Delete item": "Quitar elemento",
    "Create new list item": "Añadir elemento", "Toggle list item": "Abrir o cerrar el elemento",
    "Open pop-up editor": "Abrir el editor emergente", "Opened in editor": "Abierto en el editor",
    "Open documentation": "Abrir la documentación", "JSON contains errors": "El JSON tiene errores",
    # element types in the panel header
    "Process": "Proceso", "Participant": "Participante", "Lane": "Carril", "Task": "Tarea",
    "User Task": "Tarea de usuario", "Script Task": "Tarea de script", "Service Task": "Tarea de servicio",
    "Manual Task": "Tarea manual", "Send Task": "Tarea de envío", "Receive Task": "Tarea de recepción",
    "Business Rule Task": "Tarea de regla de negocio", "Call Activity": "Actividad de llamada",
    "Start Event": "Evento de inicio", "End Event": "Evento de fin", "Message Start Event": "Inicio por mensaje",
    "Timer Start Event": "Inicio por tiempo", "Message End Event": "Fin con mensaje",
    "Terminate End Event": "Fin que termina el proceso", "Error End Event": "Fin con error",
    "Intermediate Throw Event": "Evento intermedio de lanzamiento",
    "Intermediate Catch Event": "Evento intermedio de captura",
    "Message Intermediate Catch Event": "Espera de mensaje", "Timer Intermediate Catch Event": "Espera de tiempo",
    "Message Intermediate Throw Event": "Envío de mensaje", "Boundary Event": "Evento de borde",
    "Timer Boundary Event": "Plazo en el borde", "Message Boundary Event": "Mensaje en el borde",
    "Timer Boundary Event (Non Interrupting)": "Plazo en el borde (sin interrumpir)",
    "Message Boundary Event (Non Interrupting)": "Mensaje en el borde (sin interrumpir)",
    "Error Boundary Event": "Error en el borde", "Exclusive Gateway": "Compuerta exclusiva",
    "Parallel Gateway": "Compuerta paralela", "Inclusive Gateway": "Compuerta inclusiva",
    "Event Based Gateway": "Compuerta basada en eventos", "Sequence Flow": "Flujo de secuencia",
    "Conditional Flow": "Flujo condicional", "Default Flow": "Flujo por defecto", "Message Flow": "Flujo de mensaje",
    "Collapsed Sub Process": "Subproceso contraído", "Expanded Sub Process": "Subproceso expandido",
    "Event Sub Process": "Subproceso de evento", "Text Annotation": "Anotación", "Group": "Grupo",
    "Data Object Reference": "Objeto de datos", "Data Store Reference": "Almacén de datos",
    # palette and context pad
    "Activate hand tool": "Herramienta de mano", "Activate lasso tool": "Herramienta de lazo",
    "Activate create/remove space tool": "Herramienta para crear o quitar espacio",
    "Activate global connect tool": "Herramienta de conexión", "Create start event": "Crear evento de inicio",
    "Create intermediate/boundary event": "Crear evento intermedio o de borde", "Create end event": "Crear evento de fin",
    "Create gateway": "Crear compuerta", "Create task": "Crear tarea", "Create expanded sub-process":
        "Crear subproceso expandido", "Create pool/participant": "Crear piscina o participante",
    "Create data object reference": "Crear objeto de datos", "Create data store reference": "Crear almacén de datos",
    "Create group": "Crear grupo", "Append end event": "Añadir evento de fin", "Append gateway": "Añadir compuerta",
    "Append task": "Añadir tarea", "Append intermediate/boundary event": "Añadir evento intermedio",
    "Append text annotation": "Añadir anotación", "Add text annotation": "Añadir anotación",
    "Change element": "Cambiar el tipo", "Change type": "Cambiar el tipo", "Delete": "Borrar",
    "Connect to other element": "Conectar con otro elemento",
    "Connect using sequence/message flow or association": "Conectar con flujo o asociación",
    "Add lane above": "Añadir carril arriba", "Add lane below": "Añadir carril abajo",
    "Divide into two lanes": "Dividir en dos carriles", "Divide into three lanes": "Dividir en tres carriles",
}
