<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="es_ES">
<context>
    <name>AboutDialog</name>
    <message>
        <source>About Paddock</source>
        <translation>Acerca de Paddock</translation>
    </message>
    <message>
        <source>Paddock %1</source>
        <translation>Paddock %1</translation>
    </message>
    <message>
        <source>Runs coding agents in sandboxes whose only way out is a proxy that lets through the domains you allow.</source>
        <translation>Ejecuta agentes de programación en entornos aislados cuya única salida es un proxy que solo deja pasar los dominios que usted permite.</translation>
    </message>
    <message>
        <source>Free software under the GNU General Public License, version 3 or later.</source>
        <translation>Software libre bajo la Licencia Pública General de GNU, versión 3 o posterior.</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Cerrar</translation>
    </message>
</context>
<context>
    <name>ActivityBar</name>
    <message>
        <source>%1: %2 allowed, %3 refused</source>
        <translation>%1: %2 permitidas, %3 rechazadas</translation>
    </message>
</context>
<context>
    <name>ActivityHostRow</name>
    <message>
        <source>%1: %2 allowed, %3 refused</source>
        <translation>%1: %2 permitidas, %3 rechazadas</translation>
    </message>
    <message>
        <source>%1 allowed · %2 refused</source>
        <translation>%1 permitidas · %2 rechazadas</translation>
    </message>
    <message>
        <source>Allow…</source>
        <translation>Permitir…</translation>
    </message>
    <message>
        <source>Allow %1</source>
        <translation>Permitir %1</translation>
    </message>
</context>
<context>
    <name>ActivitySection</name>
    <message>
        <source>Activity</source>
        <translation>Actividad</translation>
    </message>
    <message>
        <source>All sandboxes</source>
        <translation>Todos los entornos aislados</translation>
    </message>
    <message>
        <source>Activity of sandbox</source>
        <translation>Actividad del entorno aislado</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>Última hora</translation>
    </message>
    <message>
        <source>Last day</source>
        <translation>Último día</translation>
    </message>
    <message>
        <source>%1 allowed · %2 refused</source>
        <translation>%1 permitidas · %2 rechazadas</translation>
    </message>
    <message>
        <source>Connections over time: %1 allowed, %2 refused</source>
        <translation>Conexiones a lo largo del tiempo: %1 permitidas, %2 rechazadas</translation>
    </message>
    <message>
        <source>No connections in the last hour.</source>
        <translation>Ninguna conexión en la última hora.</translation>
    </message>
    <message>
        <source>No connections in the last day.</source>
        <translation>Ninguna conexión en el último día.</translation>
    </message>
    <message>
        <source>allowed</source>
        <translation>permitidas</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>rechazadas</translation>
    </message>
    <message>
        <source>now</source>
        <translation>ahora</translation>
    </message>
    <message>
        <source>Top destinations</source>
        <translation>Destinos principales</translation>
    </message>
    <message numerus="yes">
        <source>%n more destination(s) not shown. </source>
        <translation>
            <numerusform>%n destino más sin mostrar. </numerusform>
            <numerusform>%n destinos más sin mostrar. </numerusform>
        </translation>
    </message>
    <message>
        <source>Bytes are counted for allowed connections; a refused one carries none.</source>
        <translation>Los bytes se cuentan para las conexiones permitidas; una conexión rechazada no transporta ninguno.</translation>
    </message>
</context>
<context>
    <name>AgentAllowDialog</name>
    <message>
        <source>Allow %1</source>
        <translation>Permitir %1</translation>
    </message>
    <message>
        <source>In this sandbox&apos;s project file (its workspace)</source>
        <translation>En el archivo del proyecto de este sandbox (su espacio de trabajo)</translation>
    </message>
    <message>
        <source>In the kit (and its running sandboxes)</source>
        <translation>En el kit (y sus sandboxes en ejecución)</translation>
    </message>
    <message>
        <source>Rule: %1</source>
        <translation>Regla: %1</translation>
    </message>
    <message>
        <source>Working out the change…</source>
        <translation>Calculando el cambio…</translation>
    </message>
    <message>
        <source>From a terminal: paddock agent-perms allow %1 --where %2</source>
        <translation>Desde una terminal: paddock agent-perms allow %1 --where %2</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Write these lines</source>
        <translation>Escribir estas líneas</translation>
    </message>
</context>
<context>
    <name>AgentPermissionsPane</name>
    <message>
        <source>%1 (no file yet: a rule added creates it)</source>
        <translation>%1 (aún no existe: añadir una regla lo crea)</translation>
    </message>
    <message>
        <source>Checked against the schema of pi-permission-system %1. Within a surface the last matching pattern wins; across surfaces the most restrictive answer does.</source>
        <translation>Comprobado con el esquema de pi-permission-system %1. Dentro de una superficie gana el último patrón que coincide; entre superficies gana la respuesta más restrictiva.</translation>
    </message>
    <message>
        <source>No rules in this file.</source>
        <translation>No hay reglas en este archivo.</translation>
    </message>
    <message>
        <source>Surface</source>
        <translation>Superficie</translation>
    </message>
    <message>
        <source>Pattern, e.g. rm -rf * or *.env (empty: the whole surface)</source>
        <translation>Patrón, p. ej. rm -rf * o *.env (vacío: toda la superficie)</translation>
    </message>
    <message>
        <source>Pattern</source>
        <translation>Patrón</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Estado</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Añadir</translation>
    </message>
    <message>
        <source>What happens for… bash: rm -rf game · read: .env · external_directory: ~/.ssh/id_rsa</source>
        <translation>¿Qué pasa con… bash: rm -rf game · read: .env · external_directory: ~/.ssh/id_rsa</translation>
    </message>
    <message>
        <source>Call to test</source>
        <translation>Llamada a probar</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>Probar</translation>
    </message>
    <message>
        <source> by the %1 rule %2</source>
        <translation> por la regla %1 %2</translation>
    </message>
    <message>
        <source>%1: %2%3</source>
        <translation>%1: %2%3</translation>
    </message>
</context>
<context>
    <name>AgentRefusalRow</name>
    <message>
        <source>Agent %1: %2 %3 in sandbox %4</source>
        <translation>Agente %1: %2 %3 en el sandbox %4</translation>
    </message>
    <message>
        <source>denied</source>
        <translation>denegado</translation>
    </message>
    <message>
        <source>asked</source>
        <translation>preguntado</translation>
    </message>
    <message>
        <source>Agent · sandbox %1 · %2</source>
        <translation>Agente · sandbox %1 · %2</translation>
    </message>
    <message>
        <source>rule unknown</source>
        <translation>regla desconocida</translation>
    </message>
    <message>
        <source>× %1</source>
        <translation>× %1</translation>
    </message>
    <message>
        <source>Allow…</source>
        <translation>Permitir…</translation>
    </message>
    <message>
        <source>Allow %1: %2</source>
        <translation>Permitir %1: %2</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Descartar</translation>
    </message>
    <message>
        <source>Dismiss %1: %2</source>
        <translation>Descartar %1: %2</translation>
    </message>
</context>
<context>
    <name>AgentRuleRow</name>
    <message>
        <source>* (every tool without its own rule)</source>
        <translation>* (toda herramienta sin regla propia)</translation>
    </message>
    <message>
        <source>Drag to move %1</source>
        <translation>Arrastrar para mover %1</translation>
    </message>
    <message>
        <source>(every value)</source>
        <translation>(cualquier valor)</translation>
    </message>
    <message>
        <source>State of %1</source>
        <translation>Estado de %1</translation>
    </message>
    <message>
        <source>Move %1 up</source>
        <translation>Subir %1</translation>
    </message>
    <message>
        <source>Move %1 down</source>
        <translation>Bajar %1</translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation>Quitar %1</translation>
    </message>
    <message>
        <source>Line %1: %2</source>
        <translation>Línea %1: %2</translation>
    </message>
</context>
<context>
    <name>AllowChoices</name>
    <message>
        <source>Where</source>
        <translation>Dónde</translation>
    </message>
    <message>
        <source>This sandbox (%1)</source>
        <translation>Este entorno aislado (%1)</translation>
    </message>
    <message>
        <source>The kit&apos;s spec.yaml (%1)</source>
        <translation>El spec.yaml del kit (%1)</translation>
    </message>
    <message>
        <source>Every sandbox</source>
        <translation>Todos los entornos aislados</translation>
    </message>
    <message>
        <source>What</source>
        <translation>Qué</translation>
    </message>
    <message>
        <source>This host on this port: %1</source>
        <translation>Este host en este puerto: %1</translation>
    </message>
    <message>
        <source>This host on any port: %1</source>
        <translation>Este host en cualquier puerto: %1</translation>
    </message>
    <message>
        <source>Every name one level under the domain: %1</source>
        <translation>Todos los nombres un nivel por debajo del dominio: %1</translation>
    </message>
    <message>
        <source>Every name one level under the domain (not possible for this host)</source>
        <translation>Todos los nombres un nivel por debajo del dominio (no es posible para este host)</translation>
    </message>
    <message>
        <source>The whole domain, at any depth: %1</source>
        <translation>Todo el dominio, a cualquier profundidad: %1</translation>
    </message>
    <message>
        <source>The whole domain, at any depth (not possible for this host)</source>
        <translation>Todo el dominio, a cualquier profundidad (no es posible para este host)</translation>
    </message>
</context>
<context>
    <name>AskPrompt</name>
    <message>
        <source>A connection waits for your answer</source>
        <translation>Una conexión espera su respuesta</translation>
    </message>
    <message>
        <source>Destination %1</source>
        <translation>Destino %1</translation>
    </message>
    <message>
        <source>Sandbox %1 is in ask mode and no rule covers this destination.</source>
        <translation>El entorno aislado %1 pregunta antes de conectarse y ninguna regla cubre este destino.</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>Entorno aislado</translation>
    </message>
    <message>
        <source>Kit</source>
        <translation>Kit</translation>
    </message>
    <message>
        <source>none</source>
        <translation>ninguno</translation>
    </message>
    <message>
        <source>Protocol</source>
        <translation>Protocolo</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>En espera</translation>
    </message>
    <message numerus="yes">
        <source>%n connection(s)</source>
        <translation>
            <numerusform>%n conexión</numerusform>
            <numerusform>%n conexiones</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Refused in %n second(s) unless you answer.</source>
        <translation>
            <numerusform>Se rechaza en %n segundo si no responde.</numerusform>
            <numerusform>Se rechaza en %n segundos si no responde.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n more waiting after this one.</source>
        <translation>
            <numerusform>%n más en espera después de esta.</numerusform>
            <numerusform>%n más en espera después de esta.</numerusform>
        </translation>
    </message>
    <message>
        <source>The same from a terminal:</source>
        <translation>Lo mismo desde un terminal:</translation>
    </message>
    <message>
        <source>Allow once</source>
        <translation>Permitir una vez</translation>
    </message>
    <message>
        <source>Allow %1 this time only</source>
        <translation>Permitir %1 solo esta vez</translation>
    </message>
    <message>
        <source>Allow…</source>
        <translation>Permitir…</translation>
    </message>
    <message>
        <source>Allow %1 with a rule</source>
        <translation>Permitir %1 con una regla</translation>
    </message>
    <message>
        <source>Allow</source>
        <translation>Permitir</translation>
    </message>
    <message>
        <source>Allow %1 as chosen</source>
        <translation>Permitir %1 como se eligió</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>Atrás</translation>
    </message>
    <message>
        <source>Deny once</source>
        <translation>Denegar una vez</translation>
    </message>
    <message>
        <source>Deny %1 this time only</source>
        <translation>Denegar %1 solo esta vez</translation>
    </message>
    <message>
        <source>Deny always</source>
        <translation>Denegar siempre</translation>
    </message>
    <message>
        <source>Deny %1 for sandbox %2 from now on</source>
        <translation>Denegar %1 para el entorno aislado %2 a partir de ahora</translation>
    </message>
    <message>
        <source>Program</source>
        <translation>Programa</translation>
    </message>
    <message>
        <source>not known</source>
        <translation>desconocido</translation>
    </message>
    <message>
        <source>Written inside the sandbox (%1): not the sandbox&apos;s own %2, whatever its name says</source>
        <translation>Escrito dentro del entorno aislado (%1): no es el %2 propio del entorno aislado, diga lo que diga su nombre</translation>
    </message>
</context>
<context>
    <name>BackendChoice</name>
    <message>
        <source>Backend</source>
        <translation>Motor</translation>
    </message>
    <message>
        <source>bubblewrap: starts in a moment, nothing else to install</source>
        <translation>bubblewrap: arranca al instante, no hay que instalar nada más</translation>
    </message>
    <message>
        <source>bubblewrap backend</source>
        <translation>Motor bubblewrap</translation>
    </message>
    <message>
        <source>Docker: runs the kit&apos;s image in a container</source>
        <translation>Docker: ejecuta la imagen del kit en un contenedor</translation>
    </message>
    <message>
        <source>Docker backend</source>
        <translation>Motor Docker</translation>
    </message>
    <message>
        <source>Docker + gVisor: the image in a container with a kernel of its own, slower to start</source>
        <translation>Docker + gVisor: la imagen en un contenedor con su propio núcleo, más lento al arrancar</translation>
    </message>
    <message>
        <source>Docker backend with gVisor isolation</source>
        <translation>Motor Docker con aislamiento gVisor</translation>
    </message>
    <message>
        <source>Not available: %1</source>
        <translation>No disponible: %1</translation>
    </message>
    <message>
        <source>What does each level protect?</source>
        <translation>¿Qué protege cada nivel?</translation>
    </message>
    <message>
        <source>What each isolation level protects</source>
        <translation>Lo que protege cada nivel de aislamiento</translation>
    </message>
    <message>
        <source>this computer</source>
        <translation>este ordenador</translation>
    </message>
    <message>
        <source>another computer</source>
        <translation>otro ordenador</translation>
    </message>
    <message>
        <source>%1 (in use) — %2, %3</source>
        <translation>%1 (en uso) — %2, %3</translation>
    </message>
    <message>
        <source>%1 — %2, %3</source>
        <translation>%1 — %2, %3</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>Motor</translation>
    </message>
    <message>
        <source>Container engine</source>
        <translation>Motor de contenedores</translation>
    </message>
    <message>
        <source>%1 is on another computer: the sandbox gets a clone of the workspace (its committed files), not the folder itself. Its commits come back as branches paddock/NAME/… of your repository; files not committed stay here. It cannot share folders of this computer.</source>
        <translation>%1 está en otro ordenador: el entorno aislado recibe un clon del espacio de trabajo (sus archivos confirmados), no la carpeta misma. Sus commits vuelven como ramas paddock/NOMBRE/… de su repositorio; los archivos no confirmados se quedan aquí. No puede compartir carpetas de este ordenador.</translation>
    </message>
    <message>
        <source>The kit is composed with mixins: the Docker engine builds their layers over the kit&apos;s image, once for these kits.</source>
        <translation>El kit está compuesto con mixins: el motor Docker construye sus capas sobre la imagen del kit, una sola vez para estos kits.</translation>
    </message>
</context>
<context>
    <name>BindingDialog</name>
    <message>
        <source>Allow this kit to use your keys?</source>
        <translation>¿Permitir que este kit use sus claves?</translation>
    </message>
    <message>
        <source>The kit %1 asks Paddock to add your keys to its requests to these domains. The keys stay on this computer; the proxy adds them on the way out.</source>
        <translation>El kit %1 pide a Paddock que añada sus claves a las peticiones que hace a estos dominios. Las claves se quedan en este equipo; el proxy las añade a la salida.</translation>
    </message>
    <message>
        <source>Credential %1 of %2 in the kit %3.</source>
        <translation>Credencial %1 de %2 del kit %3.</translation>
    </message>
    <message>
        <source>%1 (required)</source>
        <translation>%1 (obligatoria)</translation>
    </message>
    <message>
        <source>%1 (optional)</source>
        <translation>%1 (opcional)</translation>
    </message>
    <message>
        <source>Sent to: %1</source>
        <translation>Se envía a: %1</translation>
    </message>
    <message>
        <source>Warning: a wildcard domain sends this key to every host it matches, not to one server.</source>
        <translation>Advertencia: un dominio comodín envía esta clave a todos los hosts que coinciden con él, no a un solo servidor.</translation>
    </message>
    <message>
        <source>Approve all</source>
        <translation>Aprobar todas</translation>
    </message>
    <message>
        <source>Approve all credentials</source>
        <translation>Aprobar todas las credenciales</translation>
    </message>
    <message>
        <source>Review each</source>
        <translation>Revisar una a una</translation>
    </message>
    <message>
        <source>Review each credential</source>
        <translation>Revisar cada credencial</translation>
    </message>
    <message>
        <source>Approve</source>
        <translation>Aprobar</translation>
    </message>
    <message>
        <source>Approve this credential</source>
        <translation>Aprobar esta credencial</translation>
    </message>
    <message>
        <source>Skip</source>
        <translation>Omitir</translation>
    </message>
    <message>
        <source>Do not approve this credential</source>
        <translation>No aprobar esta credencial</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>Denegar</translation>
    </message>
    <message>
        <source>Deny: approve nothing</source>
        <translation>Denegar: no aprobar nada</translation>
    </message>
</context>
<context>
    <name>BundleExportDialog</name>
    <message>
        <source>Export a bundle of %1</source>
        <translation>Exportar un paquete de %1</translation>
    </message>
    <message>
        <source>Choose the notes shown to students</source>
        <translation>Elegir las notas que verán los estudiantes</translation>
    </message>
    <message>
        <source>Text files (*.txt *.md)</source>
        <translation>Archivos de texto (*.txt *.md)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Todos los archivos (*)</translation>
    </message>
    <message>
        <source>Save the bundle as</source>
        <translation>Guardar el paquete como</translation>
    </message>
    <message>
        <source>Paddock bundles (*.paddock)</source>
        <translation>Paquetes de Paddock (*.paddock)</translation>
    </message>
    <message>
        <source>A bundle holds the kit and the list of keys students provide (names only, never a value). Students import it on their Classroom page.</source>
        <translation>Un paquete contiene el kit y la lista de claves que aportan los estudiantes (solo los nombres, nunca un valor). Los estudiantes lo importan en su página Aula.</translation>
    </message>
    <message>
        <source>Include the network policy: its preset and your global rules</source>
        <translation>Incluir la política de red: su preajuste y sus reglas globales</translation>
    </message>
    <message>
        <source>Include the network policy</source>
        <translation>Incluir la política de red</translation>
    </message>
    <message>
        <source>Notes for students (optional)</source>
        <translation>Notas para los estudiantes (opcional)</translation>
    </message>
    <message>
        <source>A text file shown on import</source>
        <translation>Un archivo de texto que se muestra al importar</translation>
    </message>
    <message>
        <source>Notes file</source>
        <translation>Archivo de notas</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Elegir…</translation>
    </message>
    <message>
        <source>Choose the notes file</source>
        <translation>Elegir el archivo de notas</translation>
    </message>
    <message>
        <source>Bundle file</source>
        <translation>Archivo del paquete</translation>
    </message>
    <message>
        <source>Choose where to save the bundle</source>
        <translation>Elegir dónde guardar el paquete</translation>
    </message>
    <message>
        <source>The same from a terminal.</source>
        <translation>Lo mismo desde un terminal.</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportar</translation>
    </message>
    <message>
        <source>Write the bundle</source>
        <translation>Escribir el paquete</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Cerrar</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
</context>
<context>
    <name>ClassroomPage</name>
    <message>
        <source>Classroom</source>
        <translation>Aula</translation>
    </message>
    <message>
        <source>Choose a Paddock bundle</source>
        <translation>Elegir un paquete de Paddock</translation>
    </message>
    <message>
        <source>Paddock bundles (*.paddock)</source>
        <translation>Paquetes de Paddock (*.paddock)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Todos los archivos (*)</translation>
    </message>
    <message>
        <source>1. Import a bundle</source>
        <translation>1. Importar un paquete</translation>
    </message>
    <message>
        <source>A bundle (.paddock file) holds a kit, the network rules of the course and the list of keys you will need. Nothing is written before you press Import.</source>
        <translation>Un paquete (archivo .paddock) contiene un kit, las reglas de red del curso y la lista de claves que necesitará. No se escribe nada hasta que pulse Importar.</translation>
    </message>
    <message>
        <source>No bundle opened yet</source>
        <translation>Aún no se ha abierto ningún paquete</translation>
    </message>
    <message>
        <source>Your teacher gives you one .paddock file. Choose it below: Paddock shows everything the import would change before anything is written.</source>
        <translation>Su profesor le proporciona un archivo .paddock. Elíjalo a continuación: Paddock muestra todo lo que cambiaría la importación antes de escribir nada.</translation>
    </message>
    <message>
        <source>Preview a bundle from a terminal.</source>
        <translation>Previsualizar un paquete desde un terminal.</translation>
    </message>
    <message>
        <source>Choose a bundle…</source>
        <translation>Elegir un paquete…</translation>
    </message>
    <message>
        <source>Choose a bundle file</source>
        <translation>Elegir un archivo de paquete</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Importar</translation>
    </message>
    <message>
        <source>Import the bundle</source>
        <translation>Importar el paquete</translation>
    </message>
    <message>
        <source>What the import will change</source>
        <translation>Lo que cambiará la importación</translation>
    </message>
    <message>
        <source>2. Check a sandbox</source>
        <translation>2. Comprobar un entorno aislado</translation>
    </message>
    <message>
        <source>With the sandbox running, the checklist proves that the key stays outside, that an unlisted domain is refused and logged, that your edits reach your project, and that no refusal surprised the policy.</source>
        <translation>Con el entorno aislado en marcha, la lista de comprobación demuestra que la clave se queda fuera, que un dominio no incluido en la lista se rechaza y se registra, que sus cambios llegan a su proyecto y que ningún rechazo fue inesperado para la política.</translation>
    </message>
    <message>
        <source>Sandbox to check</source>
        <translation>Entorno aislado que comprobar</translation>
    </message>
    <message>
        <source>Run the checks</source>
        <translation>Ejecutar las comprobaciones</translation>
    </message>
    <message>
        <source>Run the checks on the sandbox</source>
        <translation>Ejecutar las comprobaciones en el entorno aislado</translation>
    </message>
    <message>
        <source>The same from a terminal.</source>
        <translation>Lo mismo desde un terminal.</translation>
    </message>
    <message>
        <source>Import the bundle your teacher shared, create your sandbox, then check that it works.</source>
        <translation>Importe el paquete que le ha compartido su profesor, cree su entorno aislado y compruebe después que funciona.</translation>
    </message>
    <message>
        <source>%1 is running; its agent opens in a terminal (&apos;%2&apos; joins it again).</source>
        <translation>%1 está en ejecución; su agente se abre en un terminal («%2» vuelve a unirse a él).</translation>
    </message>
    <message>
        <source>%1 is running. No terminal emulator was found: &apos;%2&apos; in a terminal opens its agent.</source>
        <translation>%1 está en ejecución. No se ha encontrado ningún emulador de terminal: «%2» en un terminal abre su agente.</translation>
    </message>
    <message>
        <source>2. Create your sandbox</source>
        <translation>2. Cree su entorno aislado</translation>
    </message>
    <message>
        <source>The kit %1 runs the course&apos;s agent on a project folder of yours. Paddock asks for the keys it needs, then starts it and opens the agent in a terminal.</source>
        <translation>El kit %1 ejecuta el agente del curso sobre una carpeta de proyecto suya. Paddock le pide las claves que necesita, lo inicia y abre el agente en un terminal.</translation>
    </message>
    <message>
        <source>Create my sandbox…</source>
        <translation>Crear mi entorno aislado…</translation>
    </message>
    <message>
        <source>Create a sandbox of the kit %1</source>
        <translation>Crear un entorno aislado del kit %1</translation>
    </message>
    <message>
        <source>Sandboxes are made by the daemon, which is not connected.</source>
        <translation>Los entornos aislados los crea el servicio, que no está conectado.</translation>
    </message>
    <message>
        <source>3. Check your sandbox</source>
        <translation>3. Compruebe su entorno aislado</translation>
    </message>
    <message>
        <source>No sandbox of the kit %1 is running</source>
        <translation>Ningún entorno aislado del kit %1 está en ejecución</translation>
    </message>
    <message>
        <source>No sandbox is running</source>
        <translation>Ningún entorno aislado está en ejecución</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>superada</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fallida</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>omitida</translation>
    </message>
</context>
<context>
    <name>ClassroomSandboxDialog</name>
    <message>
        <source>Create my sandbox</source>
        <translation>Crear mi entorno aislado</translation>
    </message>
    <message>
        <source>Create my sandbox: %1</source>
        <translation>Crear mi entorno aislado: %1</translation>
    </message>
    <message>
        <source>1. Your project folder</source>
        <translation>1. Su carpeta de proyecto</translation>
    </message>
    <message>
        <source>2. Keys and approvals</source>
        <translation>2. Claves y aprobaciones</translation>
    </message>
    <message>
        <source>3. The image</source>
        <translation>3. La imagen</translation>
    </message>
    <message>
        <source>4. Create and start</source>
        <translation>4. Crear e iniciar</translation>
    </message>
    <message>
        <source>The folder of your project: the agent reads and changes the files in it, and nothing else of yours.</source>
        <translation>La carpeta de su proyecto: el agente lee y modifica los archivos que contiene, y nada más de lo suyo.</translation>
    </message>
    <message>
        <source>Create a sandbox of the kit %1 on %2, start it, and open its agent in a terminal.</source>
        <translation>Crear un entorno aislado del kit %1 sobre %2, iniciarlo y abrir su agente en un terminal.</translation>
    </message>
    <message>
        <source>Create a sandbox of the kit %1 on %2, then start it.</source>
        <translation>Crear un entorno aislado del kit %1 sobre %2 e iniciarlo después.</translation>
    </message>
    <message>
        <source>No terminal emulator was found, so the agent cannot open here: it starts, and the page shows the command that opens it. Install xterm, GNOME Terminal or Konsole to open agents from this window.</source>
        <translation>No se ha encontrado ningún emulador de terminal, así que el agente no puede abrirse aquí: se inicia, y la página muestra la orden que lo abre. Instale xterm, GNOME Terminal o Konsole para abrir agentes desde esta ventana.</translation>
    </message>
    <message>
        <source>bubblewrap runs the agent on this computer&apos;s own system: there is no image to build or load.</source>
        <translation>bubblewrap ejecuta el agente sobre el propio sistema de este ordenador: no hay ninguna imagen que construir ni cargar.</translation>
    </message>
    <message>
        <source>Creating the sandbox (the kit&apos;s setup runs now)…</source>
        <translation>Creando el entorno aislado (ahora se ejecuta la preparación del kit)…</translation>
    </message>
    <message>
        <source>Starting %1…</source>
        <translation>Iniciando %1…</translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>Procesando…</translation>
    </message>
    <message>
        <source>Your class&apos;s sandboxes run on the container engine %1: Docker on %1 is chosen.</source>
        <translation>Los entornos aislados de su clase se ejecutan en el motor de contenedores %1: se elige Docker en %1.</translation>
    </message>
    <message>
        <source>Your class&apos;s sandboxes run on the container engine %1, which this computer does not have yet: add it on the Sandboxes page (Container engines, Add engine…) with the address and files your teacher gives, or create this sandbox with bubblewrap here.</source>
        <translation>Los entornos aislados de su clase se ejecutan en el motor de contenedores %1, que este ordenador aún no tiene: añádalo en la página Entornos aislados (Motores de contenedores, Añadir motor…) con la dirección y los archivos que da su profesor, o cree este entorno aislado con bubblewrap aquí.</translation>
    </message>
</context>
<context>
    <name>CommandHint</name>
    <message>
        <source>Copied</source>
        <translation>Copiado</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copiar</translation>
    </message>
    <message>
        <source>Copy the command %1</source>
        <translation>Copiar la orden %1</translation>
    </message>
    <message>
        <source>Copy to the clipboard</source>
        <translation>Copiar al portapapeles</translation>
    </message>
</context>
<context>
    <name>CredentialsStep</name>
    <message>
        <source>No keychain is reachable: keys cannot be stored. Install GNOME Keyring or KWallet and try again.</source>
        <translation>No hay ningún llavero accesible: no se pueden guardar claves. Instale GNOME Keyring o KWallet y vuelva a intentarlo.</translation>
    </message>
    <message>
        <source>The key of %1 (required)</source>
        <translation>La clave de %1 (obligatoria)</translation>
    </message>
    <message>
        <source>The key of %1 (optional)</source>
        <translation>La clave de %1 (opcional)</translation>
    </message>
    <message>
        <source>Paste the key; it goes to the keychain</source>
        <translation>Pegue la clave; se guarda en el llavero</translation>
    </message>
    <message>
        <source>Key of %1</source>
        <translation>Clave de %1</translation>
    </message>
    <message>
        <source>Save key</source>
        <translation>Guardar la clave</translation>
    </message>
    <message>
        <source>Save the key of %1</source>
        <translation>Guardar la clave de %1</translation>
    </message>
    <message>
        <source>The kit sends keys to domains you have not approved: %1.</source>
        <translation>El kit envía claves a dominios que usted no ha aprobado: %1.</translation>
    </message>
    <message>
        <source>Review and approve…</source>
        <translation>Revisar y aprobar…</translation>
    </message>
    <message>
        <source>Review and approve the kit&apos;s use of your keys</source>
        <translation>Revisar y aprobar el uso que hace el kit de sus claves</translation>
    </message>
    <message>
        <source>Every required key is stored and approved.</source>
        <translation>Todas las claves obligatorias están guardadas y aprobadas.</translation>
    </message>
    <message>
        <source>Nothing was approved: the kit may not send your keys, so its sandbox cannot use them. To approve later, press &quot;Review and approve…&quot; again, or run: %1</source>
        <translation>No se ha aprobado nada: el kit no puede enviar sus claves, así que su entorno aislado no puede usarlas. Para aprobarlas más tarde, pulse de nuevo «Revisar y aprobar…» o ejecute: %1</translation>
    </message>
</context>
<context>
    <name>CustomSecretRemoveDialog</name>
    <message>
        <source>Remove the custom secret %1?</source>
        <translation>¿Eliminar el secreto personalizado %1?</translation>
    </message>
    <message>
        <source>Sandboxes hold a placeholder in %1. From now on it is no longer replaced with the value in requests to %2, and its value is deleted from the keychain (or its command no longer runs). Sandboxes created afterwards no longer get %1.</source>
        <translation>Los entornos aislados tienen un marcador en %1. A partir de ahora ya no se sustituye por el valor en las peticiones a %2, y su valor se borra del llavero (o su orden deja de ejecutarse). Los entornos aislados creados después ya no reciben %1.</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Eliminar</translation>
    </message>
    <message>
        <source>Remove the custom secret %1</source>
        <translation>Eliminar el secreto personalizado %1</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
</context>
<context>
    <name>DenialAllowDialog</name>
    <message>
        <source>Allow %1</source>
        <translation>Permitir %1</translation>
    </message>
    <message>
        <source>The same from a terminal:</source>
        <translation>Lo mismo desde un terminal:</translation>
    </message>
    <message>
        <source>Allow</source>
        <translation>Permitir</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
</context>
<context>
    <name>DenialRow</name>
    <message numerus="yes">
        <source>%1 refused for sandbox %2, %n time(s), last at %3</source>
        <translation>
            <numerusform>%1 rechazado para el entorno aislado %2, %n vez, la última: %3</numerusform>
            <numerusform>%1 rechazado para el entorno aislado %2, %n veces, la última: %3</numerusform>
        </translation>
    </message>
    <message>
        <source>Sandbox %1 · %2</source>
        <translation>Entorno aislado %1 · %2</translation>
    </message>
    <message>
        <source>× %1</source>
        <translation>× %1</translation>
    </message>
    <message numerus="yes">
        <source>%n refusal(s)</source>
        <translation>
            <numerusform>%n rechazo</numerusform>
            <numerusform>%n rechazos</numerusform>
        </translation>
    </message>
    <message>
        <source>Allow…</source>
        <translation>Permitir…</translation>
    </message>
    <message>
        <source>Allow %1</source>
        <translation>Permitir %1</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Descartar</translation>
    </message>
    <message>
        <source>Dismiss %1</source>
        <translation>Descartar %1</translation>
    </message>
    <message>
        <source>Sandbox %1 · %2 · %3</source>
        <translation>Entorno aislado %1 · %2 · %3</translation>
    </message>
    <message>
        <source>%1 (written inside the sandbox: %2)</source>
        <translation>%1 (escrito dentro del entorno aislado: %2)</translation>
    </message>
    <message>
        <source>Only TCP leaves a sandbox; UDP has no rule to allow it</source>
        <translation>Solo TCP sale de un entorno aislado; no hay ninguna regla que permita UDP</translation>
    </message>
    <message>
        <source>A secret of Paddock&apos;s keychain: Paddock adds it where it is bound, the sandbox never needs to send it</source>
        <translation>Un secreto del llavero de Paddock: Paddock lo añade donde está vinculado, el entorno aislado nunca necesita enviarlo</translation>
    </message>
    <message>
        <source>Allow this value for %1…</source>
        <translation>Permitir este valor para %1…</translation>
    </message>
    <message>
        <source>Allow the value of %1 from %2 for %3</source>
        <translation>Permitir el valor de %1 de %2 para %3</translation>
    </message>
</context>
<context>
    <name>EmptyState</name>
    <message>
        <source>Available today from a terminal:</source>
        <translation>Disponible hoy desde un terminal:</translation>
    </message>
</context>
<context>
    <name>EngineAddDialog</name>
    <message>
        <source>Add a container engine</source>
        <translation>Añadir un motor de contenedores</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Elegir…</translation>
    </message>
    <message>
        <source>Choose: %1</source>
        <translation>Elegir: %1</translation>
    </message>
    <message>
        <source>Docker sandboxes can run on another Docker engine: one reached over TCP with TLS, through ssh, or at another socket. Paddock adds it once it has answered.</source>
        <translation>Los entornos aislados Docker pueden ejecutarse en otro motor Docker: uno alcanzado por TCP con TLS, por ssh o en otro socket. Paddock lo añade cuando ha respondido.</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nombre</translation>
    </message>
    <message>
        <source>letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;</source>
        <translation>letras, dígitos, &apos;.&apos;, &apos;_&apos; y &apos;-&apos;</translation>
    </message>
    <message>
        <source>Engine name</source>
        <translation>Nombre del motor</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Dirección</translation>
    </message>
    <message>
        <source>Engine address</source>
        <translation>Dirección del motor</translation>
    </message>
    <message>
        <source>TLS: the CA that signs the engine&apos;s certificate, and the client certificate with its key that the engine asks for.</source>
        <translation>TLS: la autoridad que firma el certificado del motor, y el certificado de cliente con su clave que el motor pide.</translation>
    </message>
    <message>
        <source>CA certificate file</source>
        <translation>Archivo del certificado de la autoridad</translation>
    </message>
    <message>
        <source>Client certificate file</source>
        <translation>Archivo del certificado de cliente</translation>
    </message>
    <message>
        <source>Client key file</source>
        <translation>Archivo de la clave de cliente</translation>
    </message>
    <message>
        <source>It shares no folder with this computer (a virtual machine or a tunnel on a loopback address)</source>
        <translation>No comparte ninguna carpeta con este ordenador (una máquina virtual o un túnel en una dirección local)</translation>
    </message>
    <message>
        <source>The engine shares no folder with this computer</source>
        <translation>El motor no comparte ninguna carpeta con este ordenador</translation>
    </message>
    <message>
        <source>Asking the engine…</source>
        <translation>Consultando al motor…</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Añadir</translation>
    </message>
    <message>
        <source>Add the engine</source>
        <translation>Añadir el motor</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
</context>
<context>
    <name>EngineRemoveDialog</name>
    <message>
        <source>Remove the engine %1?</source>
        <translation>¿Eliminar el motor %1?</translation>
    </message>
    <message>
        <source>Paddock forgets the engine at %1: Docker sandboxes no longer run there, and if it was in use, they run on this computer&apos;s engine again. The engine itself is not touched. Sandboxes still on it must be removed first.</source>
        <translation>Paddock olvida el motor en %1: los entornos aislados Docker ya no se ejecutan allí y, si estaba en uso, vuelven a ejecutarse en el motor de este ordenador. El motor en sí no se toca. Los entornos aislados que sigan en él deben eliminarse antes.</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Eliminar</translation>
    </message>
    <message>
        <source>Remove the engine %1</source>
        <translation>Eliminar el motor %1</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
</context>
<context>
    <name>EnginesSection</name>
    <message>
        <source>Container engines</source>
        <translation>Motores de contenedores</translation>
    </message>
    <message>
        <source>%1 (in use): %2, %3, %4</source>
        <translation>%1 (en uso): %2, %3, %4</translation>
    </message>
    <message>
        <source>%1: %2, %3, %4</source>
        <translation>%1: %2, %3, %4</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>Usar</translation>
    </message>
    <message>
        <source>Use engine %1</source>
        <translation>Usar el motor %1</translation>
    </message>
    <message>
        <source>Add engine…</source>
        <translation>Añadir motor…</translation>
    </message>
    <message>
        <source>Add a container engine</source>
        <translation>Añadir un motor de contenedores</translation>
    </message>
    <message>
        <source>Docker sandboxes run on the engine in use unless the New sandbox wizard or --engine names another. An engine on another computer gets a clone of the workspace (its committed files), not the folder itself.</source>
        <translation>Los entornos aislados Docker se ejecutan en el motor en uso salvo que el asistente Nuevo entorno aislado o --engine nombre otro. Un motor en otro ordenador recibe un clon del espacio de trabajo (sus archivos confirmados), no la carpeta misma.</translation>
    </message>
    <message>
        <source>Remove…</source>
        <translation>Eliminar…</translation>
    </message>
    <message>
        <source>Remove engine %1</source>
        <translation>Eliminar el motor %1</translation>
    </message>
</context>
<context>
    <name>EnvironmentDialog</name>
    <message>
        <source>Open an environment file</source>
        <translation>Abrir un archivo de entorno</translation>
    </message>
    <message>
        <source>Environment files (sbxenv.yaml *.yaml)</source>
        <translation>Archivos de entorno (sbxenv.yaml *.yaml)</translation>
    </message>
    <message>
        <source>Environment %1</source>
        <translation>Entorno %1</translation>
    </message>
    <message>
        <source>Commands run on this computer, outside the sandbox. Read each one; tick it to approve exactly this text.</source>
        <translation>Órdenes que se ejecutan en este equipo, fuera del entorno aislado. Lea cada una; márquela para aprobar exactamente este texto.</translation>
    </message>
    <message>
        <source>%1 %2 (approved before)</source>
        <translation>%1 %2 (aprobada antes)</translation>
    </message>
    <message>
        <source>Run %1 %2 on this computer</source>
        <translation>Ejecutar %1 %2 en este equipo</translation>
    </message>
    <message>
        <source>Approve the %1 command %2</source>
        <translation>Aprobar la orden %1 %2</translation>
    </message>
    <message>
        <source>Bringing up…</source>
        <translation>Iniciando…</translation>
    </message>
    <message>
        <source>Bring up</source>
        <translation>Iniciar</translation>
    </message>
    <message>
        <source>Bring up the environment</source>
        <translation>Iniciar el entorno</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
</context>
<context>
    <name>GuardValueAllowDialog</name>
    <message>
        <source>Allow this value for %1?</source>
        <translation>¿Permitir este valor para %1?</translation>
    </message>
    <message>
        <source>Sandbox %1 may then send the value of %2 from %3 in its requests, to %4 and every other domain its keys go to. The value may then reach the model provider, and whoever reads what the provider keeps.</source>
        <translation>El entorno aislado %1 podrá entonces enviar el valor de %2 de %3 en sus peticiones, a %4 y a cualquier otro dominio al que vayan sus claves. El valor podrá entonces llegar al proveedor del modelo, y a quien lea lo que el proveedor guarda.</translation>
    </message>
    <message>
        <source>The same from a terminal:</source>
        <translation>Lo mismo desde un terminal:</translation>
    </message>
    <message>
        <source>Allow this value</source>
        <translation>Permitir este valor</translation>
    </message>
    <message>
        <source>Allow the value of %1 from %2 for %3</source>
        <translation>Permitir el valor de %1 de %2 para %3</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
</context>
<context>
    <name>ImageStep</name>
    <message>
        <source>Choose an image file (docker save)</source>
        <translation>Elegir un archivo de imagen (docker save)</translation>
    </message>
    <message>
        <source>Image archives (*.tar *.tar.gz)</source>
        <translation>Archivos de imagen (*.tar *.tar.gz)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Todos los archivos (*)</translation>
    </message>
    <message>
        <source>The sandbox runs in the Docker image %1.</source>
        <translation>El entorno aislado se ejecuta en la imagen de Docker %1.</translation>
    </message>
    <message>
        <source>Looking for the image on this computer…</source>
        <translation>Buscando la imagen en este ordenador…</translation>
    </message>
    <message>
        <source>The image is on this computer: the sandbox can be created.</source>
        <translation>La imagen está en este ordenador: ya se puede crear el entorno aislado.</translation>
    </message>
    <message>
        <source>The image is not on this computer yet: build it from the kit, or load the image file you were given.</source>
        <translation>La imagen aún no está en este ordenador: constrúyala a partir del kit o cargue el archivo de imagen que le han dado.</translation>
    </message>
    <message>
        <source>The image is not on this computer yet: load the image file you were given.</source>
        <translation>La imagen aún no está en este ordenador: cargue el archivo de imagen que le han dado.</translation>
    </message>
    <message>
        <source>Image progress</source>
        <translation>Progreso de la imagen</translation>
    </message>
    <message>
        <source>Build the image</source>
        <translation>Construir la imagen</translation>
    </message>
    <message>
        <source>Build the kit&apos;s image</source>
        <translation>Construir la imagen del kit</translation>
    </message>
    <message>
        <source>Load an image file…</source>
        <translation>Cargar un archivo de imagen…</translation>
    </message>
    <message>
        <source>Load the image from a file</source>
        <translation>Cargar la imagen desde un archivo</translation>
    </message>
    <message>
        <source>Check again</source>
        <translation>Comprobar de nuevo</translation>
    </message>
    <message>
        <source>Look for the image again</source>
        <translation>Buscar la imagen de nuevo</translation>
    </message>
</context>
<context>
    <name>IsolationTable</name>
    <message>
        <source>The working tree</source>
        <translation>El árbol de trabajo</translation>
    </message>
    <message>
        <source>Shared read-write (or a disposable clone)</source>
        <translation>Compartido en lectura y escritura (o un clon desechable)</translation>
    </message>
    <message>
        <source>Shared read-write</source>
        <translation>Compartido en lectura y escritura</translation>
    </message>
    <message>
        <source>Shared read-write, through gVisor&apos;s file proxy</source>
        <translation>Compartido en lectura y escritura, a través del intermediario de archivos de gVisor</translation>
    </message>
    <message>
        <source>Synced into the VM</source>
        <translation>Sincronizado en la VM</translation>
    </message>
    <message>
        <source>Your home folder</source>
        <translation>Tu carpeta personal</translation>
    </message>
    <message>
        <source>Hidden: a private home</source>
        <translation>Oculta: una carpeta personal privada</translation>
    </message>
    <message>
        <source>Hidden: the VM&apos;s own disk</source>
        <translation>Oculta: el disco propio de la VM</translation>
    </message>
    <message>
        <source>Outbound network</source>
        <translation>Red saliente</translation>
    </message>
    <message>
        <source>Only through Paddock&apos;s proxy</source>
        <translation>Solo a través del proxy de Paddock</translation>
    </message>
    <message>
        <source>Only through its proxy</source>
        <translation>Solo a través de su proxy</translation>
    </message>
    <message>
        <source>Your API keys</source>
        <translation>Tus claves de API</translation>
    </message>
    <message>
        <source>Stay on this computer: the proxy adds them</source>
        <translation>Se quedan en este equipo: el proxy las añade</translation>
    </message>
    <message>
        <source>Stay on the host: its proxy adds them</source>
        <translation>Se quedan en el anfitrión: su proxy las añade</translation>
    </message>
    <message>
        <source>The host kernel</source>
        <translation>El núcleo del anfitrión</translation>
    </message>
    <message>
        <source>Shared: a kernel flaw is a way out</source>
        <translation>Compartido: un fallo del núcleo es una salida</translation>
    </message>
    <message>
        <source>Not reached directly: gVisor answers system calls in user space</source>
        <translation>No se alcanza directamente: gVisor responde las llamadas al sistema en espacio de usuario</translation>
    </message>
    <message>
        <source>Separate: a kernel of its own</source>
        <translation>Separado: un núcleo propio</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Arranque</translation>
    </message>
    <message>
        <source>Tens of milliseconds</source>
        <translation>Decenas de milisegundos</translation>
    </message>
    <message>
        <source>Under a second</source>
        <translation>Menos de un segundo</translation>
    </message>
    <message>
        <source>Under a second, a tenth more than Docker</source>
        <translation>Menos de un segundo, una décima más que Docker</translation>
    </message>
    <message>
        <source>Seconds</source>
        <translation>Segundos</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Memoria</translation>
    </message>
    <message>
        <source>Nothing beyond the agent</source>
        <translation>Nada aparte del agente</translation>
    </message>
    <message>
        <source>About 13 MB for the engine&apos;s shim</source>
        <translation>Unos 13 MB para el shim del motor</translation>
    </message>
    <message>
        <source>About 45 MB more for its kernel and file proxy</source>
        <translation>Unos 45 MB más para su núcleo y su intermediario de archivos</translation>
    </message>
    <message>
        <source>The VM&apos;s whole memory</source>
        <translation>Toda la memoria de la VM</translation>
    </message>
    <message>
        <source>Compatibility</source>
        <translation>Compatibilidad</translation>
    </message>
    <message>
        <source>Every program</source>
        <translation>Todos los programas</translation>
    </message>
    <message>
        <source>Most programs, but file-heavy work is far slower (git status on 10,000 files: 40 times) and a few system calls are missing</source>
        <translation>La mayoría de los programas, pero el trabajo con muchos archivos es mucho más lento (git status en 10 000 archivos: 40 veces) y faltan algunas llamadas al sistema</translation>
    </message>
    <message>
        <source>Every program; needs KVM</source>
        <translation>Todos los programas; necesita KVM</translation>
    </message>
    <message>
        <source>bubblewrap</source>
        <translation>bubblewrap</translation>
    </message>
    <message>
        <source>Docker</source>
        <translation>Docker</translation>
    </message>
    <message>
        <source>Docker + gVisor</source>
        <translation>Docker + gVisor</translation>
    </message>
    <message>
        <source>Docker Sandboxes micro-VM</source>
        <translation>Micro-VM de Docker Sandboxes</translation>
    </message>
</context>
<context>
    <name>KitEditorPane</name>
    <message>
        <source>Back to kits</source>
        <translation>Volver a los kits</translation>
    </message>
    <message numerus="yes">
        <source>%n error(s)</source>
        <translation>
            <numerusform>%n error</numerusform>
            <numerusform>%n errores</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Valid, %n warning(s)</source>
        <translation>
            <numerusform>Válido, %n advertencia</numerusform>
            <numerusform>Válido, %n advertencias</numerusform>
        </translation>
    </message>
    <message>
        <source>Valid</source>
        <translation>Válido</translation>
    </message>
    <message>
        <source>Copy to…</source>
        <translation>Copiar en…</translation>
    </message>
    <message>
        <source>Copy this sample kit to a folder of yours</source>
        <translation>Copiar este kit de ejemplo en una carpeta propia</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>Revertir</translation>
    </message>
    <message>
        <source>Drop the changes</source>
        <translation>Descartar los cambios</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>Guardar…</translation>
    </message>
    <message>
        <source>Review the changes and save</source>
        <translation>Revisar los cambios y guardar</translation>
    </message>
    <message>
        <source>Line %1: %2</source>
        <translation>Línea %1: %2</translation>
    </message>
    <message>
        <source>About the kit</source>
        <translation>Acerca del kit</translation>
    </message>
    <message>
        <source>Name (lower-case letters, digits and dashes)</source>
        <translation>Nombre (letras minúsculas, cifras y guiones)</translation>
    </message>
    <message>
        <source>Kind (sandbox or mixin)</source>
        <translation>Tipo (sandbox o mixin)</translation>
    </message>
    <message>
        <source>Display name</source>
        <translation>Nombre visible</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Descripción</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Versión</translation>
    </message>
    <message>
        <source>Source URL</source>
        <translation>URL de origen</translation>
    </message>
    <message>
        <source>Licences</source>
        <translation>Licencias</translation>
    </message>
    <message>
        <source>Privileged sandbox</source>
        <translation>Entorno aislado con privilegios</translation>
    </message>
    <message>
        <source>Requires agent (mixins)</source>
        <translation>Requiere el agente (mixins)</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>Entorno aislado</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>Imagen</translation>
    </message>
    <message>
        <source>Entrypoint (program, then its arguments)</source>
        <translation>Punto de entrada (el programa y, después, sus argumentos)</translation>
    </message>
    <message>
        <source>Command (arguments after the entrypoint)</source>
        <translation>Orden (argumentos tras el punto de entrada)</translation>
    </message>
    <message>
        <source>Command when not interactive</source>
        <translation>Orden en modo no interactivo</translation>
    </message>
    <message>
        <source>Command on a terminal</source>
        <translation>Orden en un terminal</translation>
    </message>
    <message>
        <source>CPUs</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Memoria</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Build context</source>
        <translation>Contexto de compilación</translation>
    </message>
    <message>
        <source>Dockerfile</source>
        <translation>Dockerfile</translation>
    </message>
    <message>
        <source>Build target</source>
        <translation>Destino de compilación</translation>
    </message>
    <message>
        <source>Extends (another kit)</source>
        <translation>Extiende (otro kit)</translation>
    </message>
    <message>
        <source>Mixins</source>
        <translation>Mixins</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>Red</translation>
    </message>
    <message>
        <source>Patterns such as github.com, *.example.com or host:8080. Deny wins over allow.</source>
        <translation>Patrones como github.com, *.example.com o host:8080. Denegar prevalece sobre permitir.</translation>
    </message>
    <message>
        <source>Allowed</source>
        <translation>Permitidos</translation>
    </message>
    <message>
        <source>Denied</source>
        <translation>Denegados</translation>
    </message>
    <message>
        <source>Environment variables</source>
        <translation>Variables de entorno</translation>
    </message>
    <message>
        <source>Value of %1</source>
        <translation>Valor de %1</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Quitar</translation>
    </message>
    <message>
        <source>Remove the variable %1</source>
        <translation>Quitar la variable %1</translation>
    </message>
    <message>
        <source>NAME</source>
        <translation>NOMBRE</translation>
    </message>
    <message>
        <source>New variable name</source>
        <translation>Nombre de la nueva variable</translation>
    </message>
    <message>
        <source>value</source>
        <translation>valor</translation>
    </message>
    <message>
        <source>New variable value</source>
        <translation>Valor de la nueva variable</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Añadir</translation>
    </message>
    <message>
        <source>Add the variable</source>
        <translation>Añadir la variable</translation>
    </message>
    <message>
        <source>Credentials</source>
        <translation>Credenciales</translation>
    </message>
    <message>
        <source>Keys the proxy adds to requests; the sandbox only sees a placeholder. OAuth settings are edited in the YAML text.</source>
        <translation>Claves que el proxy añade a las peticiones; el entorno aislado solo ve un marcador de posición. Los ajustes de OAuth se editan en el texto YAML.</translation>
    </message>
    <message>
        <source>Credential</source>
        <translation>Credencial</translation>
    </message>
    <message>
        <source>Add a credential</source>
        <translation>Añadir una credencial</translation>
    </message>
    <message>
        <source>Service</source>
        <translation>Servicio</translation>
    </message>
    <message>
        <source>Required</source>
        <translation>Obligatoria</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Proveedor</translation>
    </message>
    <message>
        <source>Variable set in the sandbox</source>
        <translation>Variable definida en el entorno aislado</translation>
    </message>
    <message>
        <source>Managed by the proxy</source>
        <translation>Gestionada por el proxy</translation>
    </message>
    <message>
        <source>Injection</source>
        <translation>Inyección</translation>
    </message>
    <message>
        <source>Add an injection rule</source>
        <translation>Añadir una regla de inyección</translation>
    </message>
    <message>
        <source>Domain</source>
        <translation>Dominio</translation>
    </message>
    <message>
        <source>Header</source>
        <translation>Cabecera</translation>
    </message>
    <message>
        <source>Format (one %s for the key)</source>
        <translation>Formato (un %s para la clave)</translation>
    </message>
    <message>
        <source>Scheme (bearer or basic)</source>
        <translation>Esquema (bearer o basic)</translation>
    </message>
    <message>
        <source>User name (basic)</source>
        <translation>Nombre de usuario (basic)</translation>
    </message>
    <message>
        <source>Setup</source>
        <translation>Preparación</translation>
    </message>
    <message>
        <source>Install command</source>
        <translation>Orden de instalación</translation>
    </message>
    <message>
        <source>Add an install command</source>
        <translation>Añadir una orden de instalación</translation>
    </message>
    <message>
        <source>Shell command, run once at creation</source>
        <translation>Orden del shell; se ejecuta una vez, al crearlo</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Usuario</translation>
    </message>
    <message>
        <source>Startup command</source>
        <translation>Orden de inicio</translation>
    </message>
    <message>
        <source>Add a startup command</source>
        <translation>Añadir una orden de inicio</translation>
    </message>
    <message>
        <source>Program and arguments, run at every start</source>
        <translation>Programa y argumentos; se ejecuta en cada inicio</translation>
    </message>
    <message>
        <source>In the background</source>
        <translation>En segundo plano</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Archivo</translation>
    </message>
    <message>
        <source>Add a file</source>
        <translation>Añadir un archivo</translation>
    </message>
    <message>
        <source>Path in the sandbox</source>
        <translation>Ruta en el entorno aislado</translation>
    </message>
    <message>
        <source>Content</source>
        <translation>Contenido</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>Modo</translation>
    </message>
    <message>
        <source>Only if missing</source>
        <translation>Solo si no existe</translation>
    </message>
    <message>
        <source>Volumes and ports</source>
        <translation>Volúmenes y puertos</translation>
    </message>
    <message>
        <source>Volume</source>
        <translation>Volumen</translation>
    </message>
    <message>
        <source>Add a volume</source>
        <translation>Añadir un volumen</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>Ruta</translation>
    </message>
    <message>
        <source>Type (empty or tmpfs)</source>
        <translation>Tipo (vacío o tmpfs)</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Tamaño</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>Puerto</translation>
    </message>
    <message>
        <source>Add a port</source>
        <translation>Añadir un puerto</translation>
    </message>
    <message>
        <source>Port in the sandbox</source>
        <translation>Puerto en el entorno aislado</translation>
    </message>
    <message>
        <source>Protocol (tcp or udp)</source>
        <translation>Protocolo (tcp o udp)</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nombre</translation>
    </message>
    <message>
        <source>Agent instructions</source>
        <translation>Instrucciones para el agente</translation>
    </message>
    <message>
        <source>File name</source>
        <translation>Nombre del archivo</translation>
    </message>
    <message>
        <source>Content (Markdown)</source>
        <translation>Contenido (Markdown)</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>Argumentos</translation>
    </message>
    <message>
        <source>Values supplied when the kit is used, referenced as ${{ kit.args.NAME }}.</source>
        <translation>Valores que se indican al usar el kit, referenciados como ${{ kit.args.NAME }}.</translation>
    </message>
    <message>
        <source>Argument</source>
        <translation>Argumento</translation>
    </message>
    <message>
        <source>Add an argument</source>
        <translation>Añadir un argumento</translation>
    </message>
    <message>
        <source>Default value</source>
        <translation>Valor predeterminado</translation>
    </message>
    <message>
        <source>Pattern (regular expression)</source>
        <translation>Patrón (expresión regular)</translation>
    </message>
    <message>
        <source>Accepted values</source>
        <translation>Valores aceptados</translation>
    </message>
    <message>
        <source>spec.yaml (read-only)</source>
        <translation>spec.yaml (solo lectura)</translation>
    </message>
    <message>
        <source>spec.yaml</source>
        <translation>spec.yaml</translation>
    </message>
    <message>
        <source>spec.yaml text</source>
        <translation>Texto de spec.yaml</translation>
    </message>
    <message>
        <source>Leave without saving?</source>
        <translation>¿Salir sin guardar?</translation>
    </message>
    <message>
        <source>Your changes to spec.yaml have not been saved. Leaving drops them.</source>
        <translation>Los cambios en spec.yaml no se han guardado. Si sale, se perderán.</translation>
    </message>
    <message>
        <source>Keep editing</source>
        <translation>Seguir editando</translation>
    </message>
    <message>
        <source>Save spec.yaml</source>
        <translation>Guardar spec.yaml</translation>
    </message>
    <message>
        <source>These lines change; everything else in the file stays as it is.</source>
        <translation>Estas líneas cambian; el resto del archivo se queda como está.</translation>
    </message>
    <message>
        <source>The kit has errors: it cannot be saved until they are fixed.</source>
        <translation>El kit tiene errores: no se puede guardar hasta que se corrijan.</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Guardar</translation>
    </message>
    <message>
        <source>Save the changes</source>
        <translation>Guardar los cambios</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Agent permissions</source>
        <translation>Permisos del agente</translation>
    </message>
    <message>
        <source>Save %1</source>
        <translation>Guardar %1</translation>
    </message>
    <message>
        <source>Your changes to %1 have not been saved. Leaving drops them.</source>
        <translation>Los cambios en %1 no se han guardado. Si sale, se perderán.</translation>
    </message>
</context>
<context>
    <name>KitDescriptorForm</name>
    <message>
        <source>About the kit</source>
        <translation>Acerca del kit</translation>
    </message>
    <message>
        <source>Name: %1 (the descriptor&apos;s file name)</source>
        <translation>Nombre: %1 (el nombre del archivo del descriptor)</translation>
    </message>
    <message>
        <source>Kind: %1</source>
        <translation>Tipo: %1</translation>
    </message>
    <message>
        <source>Display name</source>
        <translation>Nombre visible</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Descripción</translation>
    </message>
    <message>
        <source>Credentials</source>
        <translation>Credenciales</translation>
    </message>
    <message>
        <source>%1 (%2), injected for %3</source>
        <translation>%1 (%2), inyectado para %3</translation>
    </message>
    <message>
        <source>no domain</source>
        <translation>ningún dominio</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>Red</translation>
    </message>
    <message>
        <source>network-policy@1: hosts such as github.com, api.example.com:443 or *.example.com. Deny wins over allow. The first host added adds the request.</source>
        <translation>network-policy@1: hosts como github.com, api.example.com:443 o *.example.com. La denegación prevalece sobre la autorización. El primer host añadido añade la solicitud.</translation>
    </message>
    <message>
        <source>Network of the group %1</source>
        <translation>Red del grupo %1</translation>
    </message>
    <message>
        <source>Network of a group</source>
        <translation>Red de un grupo</translation>
    </message>
    <message>
        <source>In force only when the group, which is optional, is chosen.</source>
        <translation>En vigor solo cuando se elige el grupo, que es opcional.</translation>
    </message>
    <message>
        <source>In force with the rest of the group.</source>
        <translation>En vigor con el resto del grupo.</translation>
    </message>
    <message>
        <source>Read-only here: credentials and the other capabilities are edited in the descriptor&apos;s text.</source>
        <translation>Solo lectura aquí: las credenciales y las demás capacidades se editan en el texto del descriptor.</translation>
    </message>
</context>
<context>
    <name>KitFolderDialog</name>
    <message>
        <source>Add a kit folder</source>
        <translation>Añadir una carpeta de kit</translation>
    </message>
    <message>
        <source>New kit</source>
        <translation>Nuevo kit</translation>
    </message>
    <message>
        <source>Copy the sample kit</source>
        <translation>Copiar el kit de ejemplo</translation>
    </message>
    <message>
        <source>A folder holding a spec.yaml. Paddock remembers it; the files stay where they are.</source>
        <translation>Una carpeta que contiene un spec.yaml. Paddock la recuerda; los archivos se quedan donde están.</translation>
    </message>
    <message>
        <source>Paddock writes spec.yaml from the template into this folder and adds it to your kits.</source>
        <translation>Paddock escribe spec.yaml a partir de la plantilla en esta carpeta y la añade a sus kits.</translation>
    </message>
    <message>
        <source>The sample is copied into this folder, where you can change it.</source>
        <translation>El ejemplo se copia en esta carpeta, donde puede modificarlo.</translation>
    </message>
    <message>
        <source>Template</source>
        <translation>Plantilla</translation>
    </message>
    <message>
        <source>/home/you/kits/my-agent</source>
        <translation>/home/usuario/kits/mi-agente</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Carpeta</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Examinar…</translation>
    </message>
    <message>
        <source>Choose the folder</source>
        <translation>Elegir la carpeta</translation>
    </message>
    <message>
        <source>Kit name (default: from the folder name)</source>
        <translation>Nombre del kit (predeterminado: el nombre de la carpeta)</translation>
    </message>
    <message>
        <source>Kit name</source>
        <translation>Nombre del kit</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Añadir</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>Crear</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copiar</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
</context>
<context>
    <name>KitImportDialog</name>
    <message>
        <source>Import a kit image</source>
        <translation>Importar una imagen de kit</translation>
    </message>
    <message>
        <source>A kit published as an image (schemaVersion 3), saved as an OCI layout or with docker save. Paddock reads its descriptor, puts its layers in its own image store, so that it runs without Docker, and lists what each of its capabilities becomes here.</source>
        <translation>Un kit publicado como imagen (schemaVersion 3), guardado en formato OCI layout o con docker save. Paddock lee su descriptor, coloca sus capas en su propio almacén de imágenes, para que se ejecute sin Docker, e indica en qué se convierte aquí cada una de sus capacidades.</translation>
    </message>
    <message>
        <source>/home/you/Downloads/kit.tar</source>
        <translation>/home/you/Downloads/kit.tar</translation>
    </message>
    <message>
        <source>Archive file</source>
        <translation>Archivo de imagen</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Examinar…</translation>
    </message>
    <message>
        <source>Choose the archive file</source>
        <translation>Elegir el archivo de imagen</translation>
    </message>
    <message>
        <source>Kit name (default: from the image reference)</source>
        <translation>Nombre del kit (por defecto: a partir de la referencia de la imagen)</translation>
    </message>
    <message>
        <source>Kit name</source>
        <translation>Nombre del kit</translation>
    </message>
    <message>
        <source>The same import from a terminal.</source>
        <translation>La misma importación desde un terminal.</translation>
    </message>
    <message>
        <source>Reading the archive…</source>
        <translation>Leyendo el archivo…</translation>
    </message>
    <message>
        <source>+ %1</source>
        <translation>+ %1</translation>
    </message>
    <message>
        <source>Accept what this update adds</source>
        <translation>Aceptar lo que añade esta actualización</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Importar</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Image archives (*.tar)</source>
        <translation>Archivos de imagen (*.tar)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Todos los archivos (*)</translation>
    </message>
</context>
<context>
    <name>KitItemList</name>
    <message>
        <source>Add</source>
        <translation>Añadir</translation>
    </message>
    <message>
        <source>%1 %2: %3</source>
        <translation>%1 %2: %3</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Quitar</translation>
    </message>
    <message>
        <source>Remove %1 %2</source>
        <translation>Quitar %1 %2</translation>
    </message>
</context>
<context>
    <name>KitStringList</name>
    <message>
        <source>%1, item %2</source>
        <translation>%1, elemento %2</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Quitar</translation>
    </message>
    <message>
        <source>Remove %1 from %2</source>
        <translation>Quitar %1 de %2</translation>
    </message>
    <message>
        <source>New item of %1</source>
        <translation>Nuevo elemento de %1</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Añadir</translation>
    </message>
    <message>
        <source>Add to %1</source>
        <translation>Añadir a %1</translation>
    </message>
</context>
<context>
    <name>KitsPage</name>
    <message>
        <source>Kits</source>
        <translation>Kits</translation>
    </message>
    <message>
        <source>Recipes that say which agent runs in a sandbox, what it may reach and which keys it needs.</source>
        <translation>Recetas que indican qué agente se ejecuta en un entorno aislado, a qué puede acceder y qué claves necesita.</translation>
    </message>
    <message>
        <source>Check the kit in folder DIR and report each error with its file, line and column.</source>
        <translation>Comprobar el kit de la carpeta DIR e indicar cada error con su archivo, línea y columna.</translation>
    </message>
    <message>
        <source>Show what the kit in folder DIR contains: its agent, allowed domains and credentials.</source>
        <translation>Mostrar el contenido del kit de la carpeta DIR: su agente, sus dominios permitidos y sus credenciales.</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>Añadir carpeta…</translation>
    </message>
    <message>
        <source>Add a kit folder</source>
        <translation>Añadir una carpeta de kit</translation>
    </message>
    <message>
        <source>New kit…</source>
        <translation>Nuevo kit…</translation>
    </message>
    <message>
        <source>New kit from a template</source>
        <translation>Nuevo kit a partir de una plantilla</translation>
    </message>
    <message>
        <source>Check again</source>
        <translation>Volver a comprobar</translation>
    </message>
    <message>
        <source>Read every kit again</source>
        <translation>Volver a leer todos los kits</translation>
    </message>
    <message>
        <source>Your added kits cannot be listed: %1</source>
        <translation>No se pueden listar los kits que ha añadido: %1</translation>
    </message>
    <message>
        <source>No kits yet: add a folder that holds a spec.yaml, or make a new kit from a template.</source>
        <translation>Aún no hay kits: añada una carpeta que contenga un spec.yaml o cree un kit nuevo a partir de una plantilla.</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>sample</source>
        <translation>ejemplo</translation>
    </message>
    <message>
        <source>your folder</source>
        <translation>su carpeta</translation>
    </message>
    <message numerus="yes">
        <source>%n error(s)</source>
        <translation>
            <numerusform>%n error</numerusform>
            <numerusform>%n errores</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Valid, %n warning(s)</source>
        <translation>
            <numerusform>Válido, %n advertencia</numerusform>
            <numerusform>Válido, %n advertencias</numerusform>
        </translation>
    </message>
    <message>
        <source>Valid</source>
        <translation>Válido</translation>
    </message>
    <message>
        <source>View</source>
        <translation>Ver</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>Editar</translation>
    </message>
    <message>
        <source>View %1</source>
        <translation>Ver %1</translation>
    </message>
    <message>
        <source>Edit %1</source>
        <translation>Editar %1</translation>
    </message>
    <message>
        <source>Copy to…</source>
        <translation>Copiar en…</translation>
    </message>
    <message>
        <source>Copy %1 to a folder of yours</source>
        <translation>Copiar %1 en una carpeta propia</translation>
    </message>
    <message>
        <source>Forget</source>
        <translation>Olvidar</translation>
    </message>
    <message>
        <source>Forget %1 (its files stay)</source>
        <translation>Olvidar %1 (sus archivos se conservan)</translation>
    </message>
    <message>
        <source>From a terminal</source>
        <translation>Desde un terminal</translation>
    </message>
    <message>
        <source>imported</source>
        <translation>importado</translation>
    </message>
    <message>
        <source>Export bundle…</source>
        <translation>Exportar un paquete…</translation>
    </message>
    <message>
        <source>Export %1 as a bundle for a class</source>
        <translation>Exportar %1 como paquete para una clase</translation>
    </message>
    <message>
        <source>Import kit image…</source>
        <translation>Importar una imagen de kit…</translation>
    </message>
    <message>
        <source>Import a kit image from an archive</source>
        <translation>Importar una imagen de kit desde un archivo</translation>
    </message>
    <message>
        <source>Kit image (schemaVersion 3) from %1</source>
        <translation>Imagen de kit (schemaVersion 3) procedente de %1</translation>
    </message>
    <message>
        <source>an archive</source>
        <translation>un archivo</translation>
    </message>
    <message>
        <source>Provides %1</source>
        <translation>Proporciona %1</translation>
    </message>
    <message>
        <source>• %1</source>
        <translation>• %1</translation>
    </message>
    <message>
        <source>• Not here: %1</source>
        <translation>• No disponible aquí: %1</translation>
    </message>
    <message>
        <source>Load a kit image (schemaVersion 3) from an OCI layout or docker save archive.</source>
        <translation>Cargar una imagen de kit (schemaVersion 3) desde un OCI layout o un archivo de docker save.</translation>
    </message>
    <message>
        <source>A kit&apos;s descriptor and recipe (schemaVersion 3): paddock kit build %1 makes the kit a sandbox runs.</source>
        <translation>El descriptor y la receta de un kit (schemaVersion 3): paddock kit build %1 crea el kit que ejecuta un sandbox.</translation>
    </message>
</context>
<context>
    <name>LearningSection</name>
    <message>
        <source>Learning mode</source>
        <translation>Modo de aprendizaje</translation>
    </message>
    <message>
        <source>While learning, a sandbox&apos;s connections are let through and recorded. Run the agent on a typical task, then allow what it needed.</source>
        <translation>Durante el aprendizaje, las conexiones de un entorno aislado se dejan pasar y se registran. Ejecute el agente en una tarea habitual y, después, permita lo que haya necesitado.</translation>
    </message>
    <message>
        <source>This daemon does not offer learning mode.</source>
        <translation>Este servicio no ofrece el modo de aprendizaje.</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>Entorno aislado</translation>
    </message>
    <message>
        <source>No sandbox</source>
        <translation>Ningún entorno aislado</translation>
    </message>
    <message>
        <source>Sandbox to learn from</source>
        <translation>Entorno aislado del que aprender</translation>
    </message>
    <message>
        <source>Learning</source>
        <translation>Aprendizaje</translation>
    </message>
    <message>
        <source>Learning mode for %1</source>
        <translation>Modo de aprendizaje para %1</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Actualizar</translation>
    </message>
    <message>
        <source>Nothing recorded yet.</source>
        <translation>Aún no se ha registrado nada.</translation>
    </message>
    <message>
        <source>No proposal: turn learning on for this sandbox first.</source>
        <translation>No hay ninguna propuesta: active primero el aprendizaje para este entorno aislado.</translation>
    </message>
    <message>
        <source>Allow %1</source>
        <translation>Permitir %1</translation>
    </message>
    <message>
        <source>For this sandbox</source>
        <translation>Para este entorno aislado</translation>
    </message>
    <message>
        <source>For every sandbox</source>
        <translation>Para todos los entornos aislados</translation>
    </message>
    <message>
        <source>Where to allow the patterns</source>
        <translation>Dónde permitir los patrones</translation>
    </message>
    <message>
        <source>Allow selected (%1)</source>
        <translation>Permitir los seleccionados (%1)</translation>
    </message>
    <message>
        <source>Allow all</source>
        <translation>Permitir todos</translation>
    </message>
    <message>
        <source>Refresh the proposed allowlist</source>
        <translation>Actualizar la lista de permitidos propuesta</translation>
    </message>
    <message>
        <source>Ask before connecting</source>
        <translation>Preguntar antes de conectar</translation>
    </message>
    <message>
        <source>Ask mode for %1</source>
        <translation>Preguntar antes de conectar en %1</translation>
    </message>
    <message>
        <source>A connection no rule covers waits while you answer, instead of being refused.</source>
        <translation>Una conexión que ninguna regla cubre espera su respuesta en lugar de rechazarse.</translation>
    </message>
</context>
<context>
    <name>Main</name>
    <message>
        <source>Sandboxes</source>
        <translation>Entornos aislados</translation>
    </message>
    <message>
        <source>Kits</source>
        <translation>Kits</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>Red</translation>
    </message>
    <message>
        <source>Secrets</source>
        <translation>Secretos</translation>
    </message>
    <message>
        <source>Classroom</source>
        <translation>Aula</translation>
    </message>
</context>
<context>
    <name>MixinChoices</name>
    <message>
        <source>Mixins</source>
        <translation>Mixins</translation>
    </message>
    <message>
        <source>A mixin adds its tools, rules and credentials to the kit, and its files over the kit&apos;s image.</source>
        <translation>Un mixin añade sus herramientas, reglas y credenciales al kit, y sus archivos sobre la imagen del kit.</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Compose with %1</source>
        <translation>Componer con %1</translation>
    </message>
</context>
<context>
    <name>NavigationButton</name>
    <message>
        <source>Shortcut: %1</source>
        <translation>Atajo: %1</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
</context>
<context>
    <name>NavigationRail</name>
    <message>
        <source>Pages</source>
        <translation>Páginas</translation>
    </message>
    <message>
        <source>Paddock</source>
        <translation>Paddock</translation>
    </message>
    <message>
        <source>About</source>
        <translation>Acerca de</translation>
    </message>
    <message>
        <source>About Paddock</source>
        <translation>Acerca de Paddock</translation>
    </message>
</context>
<context>
    <name>NetworkPage</name>
    <message>
        <source>Network</source>
        <translation>Red</translation>
    </message>
    <message>
        <source>Which domains sandboxes may reach, and the connections that were refused.</source>
        <translation>Los dominios a los que pueden acceder los entornos aislados y las conexiones que se rechazaron.</translation>
    </message>
    <message>
        <source>The daemon is not connected: rules and refused connections appear once it is.</source>
        <translation>El servicio no está conectado: las reglas y las conexiones rechazadas aparecerán en cuanto lo esté.</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>Preajuste</translation>
    </message>
    <message>
        <source>Global preset</source>
        <translation>Preajuste global</translation>
    </message>
    <message>
        <source>Notify me of refused connections while the window is in the background</source>
        <translation>Avisarme de las conexiones rechazadas mientras la ventana esté en segundo plano</translation>
    </message>
    <message>
        <source>Refused connections</source>
        <translation>Conexiones rechazadas</translation>
    </message>
    <message>
        <source>Live, one row per host and sandbox. Keys: A allows the selected row, D or Delete dismisses it.</source>
        <translation>En directo, una fila por host y entorno aislado. Teclas: A permite la fila seleccionada; D o Supr la descarta.</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>Cargando…</translation>
    </message>
    <message>
        <source>Nothing has been refused.</source>
        <translation>No se ha rechazado nada.</translation>
    </message>
    <message>
        <source>Rules</source>
        <translation>Reglas</translation>
    </message>
    <message>
        <source>Filter rules</source>
        <translation>Filtrar las reglas</translation>
    </message>
    <message>
        <source>Add rule…</source>
        <translation>Añadir regla…</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Ámbito</translation>
    </message>
    <message>
        <source>Pattern</source>
        <translation>Patrón</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>Decisión</translation>
    </message>
    <message>
        <source>Origin</source>
        <translation>Origen</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Creada</translation>
    </message>
    <message>
        <source>No rule matches the filter.</source>
        <translation>Ninguna regla coincide con el filtro.</translation>
    </message>
    <message>
        <source>No rules yet: with the %1 preset, only what you allow gets through.</source>
        <translation>Aún no hay reglas: con el preajuste %1, solo pasa lo que usted permita.</translation>
    </message>
    <message>
        <source>Changed %1</source>
        <translation>%1 modificado</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>Mostrar:</translation>
    </message>
    <message>
        <source>All</source>
        <translation>Todo</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>Agente</translation>
    </message>
    <message>
        <source>Show refusals: %1</source>
        <translation>Mostrar rechazos: %1</translation>
    </message>
    <message>
        <source>The agents were refused nothing.</source>
        <translation>No se ha rechazado nada a los agentes.</translation>
    </message>
    <message>
        <source>Refused agent actions</source>
        <translation>Acciones rechazadas a los agentes</translation>
    </message>
</context>
<context>
    <name>OpenEnvironmentButton</name>
    <message>
        <source>Open environment…</source>
        <translation>Abrir un entorno…</translation>
    </message>
    <message>
        <source>Open an environment file (sbxenv.yaml)</source>
        <translation>Abrir un archivo de entorno (sbxenv.yaml)</translation>
    </message>
</context>
<context>
    <name>ProjectFolderStep</name>
    <message>
        <source>The agent works on this folder. With a direct workspace it can change every file in it; with a clone it works on a copy of the repository.</source>
        <translation>El agente trabaja sobre esta carpeta. Con un espacio de trabajo directo puede modificar todos sus archivos; con un clon, trabaja sobre una copia del repositorio.</translation>
    </message>
    <message>
        <source>Choose the project folder</source>
        <translation>Elegir la carpeta del proyecto</translation>
    </message>
    <message>
        <source>/home/you/projects/app</source>
        <translation>/home/usuario/proyectos/app</translation>
    </message>
    <message>
        <source>Project folder</source>
        <translation>Carpeta del proyecto</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Elegir…</translation>
    </message>
    <message>
        <source>This is not an existing folder.</source>
        <translation>No es una carpeta existente.</translation>
    </message>
</context>
<context>
    <name>RequestRow</name>
    <message>
        <source>%1 B</source>
        <translation>%1 B</translation>
    </message>
    <message>
        <source>%1 KiB</source>
        <translation>%1 KiB</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <source>%1 %2, status %3, sandbox %4</source>
        <translation>%1 %2, estado %3, entorno aislado %4</translation>
    </message>
    <message>
        <source>Sandbox %1</source>
        <translation>Entorno aislado %1</translation>
    </message>
    <message>
        <source>%1 up, %2 down</source>
        <translation>%1 enviados, %2 recibidos</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Refused by Paddock, status %1</source>
        <translation>Rechazada por Paddock, estado %1</translation>
    </message>
    <message>
        <source>Status %1</source>
        <translation>Estado %1</translation>
    </message>
    <message>
        <source>%1 (written inside the sandbox: %2)</source>
        <translation>%1 (escrito dentro del entorno aislado: %2)</translation>
    </message>
</context>
<context>
    <name>RequestsSection</name>
    <message>
        <source>Requests</source>
        <translation>Solicitudes</translation>
    </message>
    <message>
        <source>What each request did, live: plain HTTP, and HTTPS to hosts whose TLS Paddock terminates (those with a bound credential). Queries and header values are never kept.</source>
        <translation>Lo que hizo cada solicitud, en directo: HTTP sin cifrar, y HTTPS a los hosts cuyo TLS termina Paddock (los que tienen una credencial vinculada). Nunca se guardan los parámetros de consulta ni los valores de las cabeceras.</translation>
    </message>
    <message>
        <source>All sandboxes</source>
        <translation>Todos los entornos aislados</translation>
    </message>
    <message>
        <source>Requests of sandbox</source>
        <translation>Solicitudes del entorno aislado</translation>
    </message>
    <message>
        <source>Filter by method, URL, status or program</source>
        <translation>Filtrar por método, URL, estado o programa</translation>
    </message>
    <message>
        <source>Filter requests</source>
        <translation>Filtrar solicitudes</translation>
    </message>
    <message numerus="yes">
        <source>%n request(s)</source>
        <translation>
            <numerusform>%n solicitud</numerusform>
            <numerusform>%n solicitudes</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 de %2</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>Cargando…</translation>
    </message>
    <message>
        <source>No request matches the filter.</source>
        <translation>Ninguna solicitud coincide con el filtro.</translation>
    </message>
    <message>
        <source>No requests recorded yet.</source>
        <translation>Aún no se ha registrado ninguna solicitud.</translation>
    </message>
    <message>
        <source>from %1 to %2</source>
        <translation>de %1 a %2</translation>
    </message>
    <message>
        <source>Only %1, %2</source>
        <translation>Solo %1, %2</translation>
    </message>
    <message>
        <source>Only %1</source>
        <translation>Solo %1</translation>
    </message>
    <message>
        <source>Only requests %1</source>
        <translation>Solo las solicitudes %1</translation>
    </message>
    <message>
        <source>Show all</source>
        <translation>Mostrar todo</translation>
    </message>
</context>
<context>
    <name>RuleDialog</name>
    <message>
        <source>Edit rule</source>
        <translation>Editar la regla</translation>
    </message>
    <message>
        <source>Add rule</source>
        <translation>Añadir una regla</translation>
    </message>
    <message>
        <source>Pattern</source>
        <translation>Patrón</translation>
    </message>
    <message>
        <source>example.com, *.example.com, host:8080</source>
        <translation>example.com, *.example.com, host:8080</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>Decisión</translation>
    </message>
    <message>
        <source>allow</source>
        <translation>permitir</translation>
    </message>
    <message>
        <source>deny</source>
        <translation>denegar</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Ámbito</translation>
    </message>
    <message>
        <source>Every sandbox</source>
        <translation>Todos los entornos aislados</translation>
    </message>
    <message>
        <source>One sandbox</source>
        <translation>Un entorno aislado</translation>
    </message>
    <message>
        <source>One kit</source>
        <translation>Un kit</translation>
    </message>
    <message>
        <source>sandbox name</source>
        <translation>nombre del entorno aislado</translation>
    </message>
    <message>
        <source>kit name</source>
        <translation>nombre del kit</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Guardar</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Añadir</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
</context>
<context>
    <name>RuleRow</name>
    <message>
        <source>%1 %2, %3, from %4</source>
        <translation>%1 %2, %3, origen: %4</translation>
    </message>
    <message>
        <source>deny</source>
        <translation>denegar</translation>
    </message>
    <message>
        <source>allow</source>
        <translation>permitir</translation>
    </message>
    <message>
        <source>in the kit</source>
        <translation>en el kit</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>Editar</translation>
    </message>
    <message>
        <source>Edit the rule %1</source>
        <translation>Editar la regla %1</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Eliminar</translation>
    </message>
    <message>
        <source>Remove the rule %1</source>
        <translation>Eliminar la regla %1</translation>
    </message>
</context>
<context>
    <name>SandboxLogDialog</name>
    <message>
        <source>Output of %1</source>
        <translation>Salida de %1</translation>
    </message>
    <message>
        <source>Search the output</source>
        <translation>Buscar en la salida</translation>
    </message>
    <message>
        <source>1 match</source>
        <translation>1 coincidencia</translation>
    </message>
    <message>
        <source>%1 matches</source>
        <translation>%1 coincidencias</translation>
    </message>
    <message>
        <source>Previous</source>
        <translation>Anterior</translation>
    </message>
    <message>
        <source>Previous match</source>
        <translation>Coincidencia anterior</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>Siguiente</translation>
    </message>
    <message>
        <source>Next match</source>
        <translation>Coincidencia siguiente</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Cerrar</translation>
    </message>
</context>
<context>
    <name>SandboxPermissionsDialog</name>
    <message>
        <source>Permissions of %1</source>
        <translation>Permisos de %1</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Proyecto</translation>
    </message>
    <message>
        <source>The rules of this sandbox&apos;s project</source>
        <translation>Las reglas del proyecto de este sandbox</translation>
    </message>
    <message>
        <source>Kit</source>
        <translation>Kit</translation>
    </message>
    <message>
        <source>The rules of its kit</source>
        <translation>Las reglas de su kit</translation>
    </message>
</context>
<context>
    <name>SandboxRecreateDialog</name>
    <message>
        <source>Recreate %1?</source>
        <translation>¿Recrear %1?</translation>
    </message>
    <message>
        <source>The sandbox is made again from its kit as loaded now: its system and home folder are new and the kit&apos;s setup runs again. Its volumes and your project folder are kept; a running sandbox is started again.</source>
        <translation>El entorno aislado se vuelve a crear a partir de su kit tal como está cargado ahora: su sistema y su carpeta personal son nuevos y la instalación del kit se ejecuta de nuevo. Se conservan sus volúmenes y la carpeta de su proyecto; un entorno aislado en ejecución se vuelve a iniciar.</translation>
    </message>
    <message>
        <source>Recreate</source>
        <translation>Recrear</translation>
    </message>
    <message>
        <source>Recreate %1</source>
        <translation>Recrear %1</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
</context>
<context>
    <name>SandboxRemoveDialog</name>
    <message>
        <source>Remove %1?</source>
        <translation>¿Eliminar %1?</translation>
    </message>
    <message>
        <source>%1 is running: it will be stopped first.</source>
        <translation>%1 está en ejecución: primero se detendrá.</translation>
    </message>
    <message>
        <source>The sandbox and its home folder are deleted. Your project folder is kept.</source>
        <translation>Se eliminan el entorno aislado y su carpeta personal. Su carpeta de proyecto se conserva.</translation>
    </message>
    <message>
        <source>Stop and remove</source>
        <translation>Detener y eliminar</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Eliminar</translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation>Eliminar %1</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
</context>
<context>
    <name>SandboxReviewDialog</name>
    <message>
        <source>What %1 changed that your tools run</source>
        <translation>Lo que %1 cambió y tus herramientas ejecutan</translation>
    </message>
    <message>
        <source>Files in the workspace that git, make, your editor or CI run or trust. Read each change before you run anything in this folder on your computer.</source>
        <translation>Archivos del espacio de trabajo que git, make, tu editor o la CI ejecutan o en los que confían. Lee cada cambio antes de ejecutar nada en esta carpeta en tu equipo.</translation>
    </message>
    <message>
        <source>Nothing your tools run or trust changed since the sandbox started.</source>
        <translation>Nada de lo que tus herramientas ejecutan o en lo que confían ha cambiado desde que arrancó el sandbox.</translation>
    </message>
    <message>
        <source>%1 (%2): %3</source>
        <translation>%1 (%2): %3</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>Revertir</translation>
    </message>
    <message>
        <source>Put %1 back as it was when the sandbox started</source>
        <translation>Devolver %1 a como estaba al arrancar el sandbox</translation>
    </message>
</context>
<context>
    <name>SandboxRow</name>
    <message>
        <source>Sandbox %1, %2</source>
        <translation>Entorno aislado %1, %2</translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>Procesando…</translation>
    </message>
    <message>
        <source>Kit %1 · %2</source>
        <translation>Kit %1 · %2</translation>
    </message>
    <message>
        <source>up %1</source>
        <translation>activo desde hace %1</translation>
    </message>
    <message>
        <source>agent open in a terminal</source>
        <translation>agente abierto en un terminal</translation>
    </message>
    <message>
        <source>No refused connections since it started</source>
        <translation>Ninguna conexión rechazada desde que se inició</translation>
    </message>
    <message>
        <source>1 refused connection since it started</source>
        <translation>1 conexión rechazada desde que se inició</translation>
    </message>
    <message>
        <source>%1 refused connections since it started</source>
        <translation>%1 conexiones rechazadas desde que se inició</translation>
    </message>
    <message>
        <source>Install a terminal (xterm, GNOME Terminal or Konsole) to open the agent here, or run this in one:</source>
        <translation>Instale un terminal (xterm, GNOME Terminal o Konsole) para abrir el agente desde aquí, o ejecute esto en uno:</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>Copiado</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copiar</translation>
    </message>
    <message>
        <source>Copy the command %1</source>
        <translation>Copiar la orden %1</translation>
    </message>
    <message>
        <source>No agent action refused since it started</source>
        <translation>Ninguna acción del agente rechazada desde que arrancó</translation>
    </message>
    <message>
        <source>1 agent action refused or asked since it started</source>
        <translation>1 acción del agente rechazada o consultada desde que arrancó</translation>
    </message>
    <message>
        <source>%1 agent actions refused or asked since it started</source>
        <translation>%1 acciones del agente rechazadas o consultadas desde que arrancó</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Detener</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Iniciar</translation>
    </message>
    <message>
        <source>Stop %1</source>
        <translation>Detener %1</translation>
    </message>
    <message>
        <source>Start %1</source>
        <translation>Iniciar %1</translation>
    </message>
    <message>
        <source>Open agent</source>
        <translation>Abrir el agente</translation>
    </message>
    <message>
        <source>Open the agent of %1 in a terminal</source>
        <translation>Abrir el agente de %1 en un terminal</translation>
    </message>
    <message>
        <source>Start %1 and open its agent in a terminal</source>
        <translation>Iniciar %1 y abrir su agente en un terminal</translation>
    </message>
    <message>
        <source>Open shell</source>
        <translation>Abrir un shell</translation>
    </message>
    <message>
        <source>Open a shell in %1 in a terminal</source>
        <translation>Abrir un shell en %1, en un terminal</translation>
    </message>
    <message>
        <source>Logs</source>
        <translation>Registros</translation>
    </message>
    <message>
        <source>Show the output of %1</source>
        <translation>Mostrar la salida de %1</translation>
    </message>
    <message>
        <source>Permissions…</source>
        <translation>Permisos…</translation>
    </message>
    <message>
        <source>The agent&apos;s permissions in %1</source>
        <translation>Los permisos del agente en %1</translation>
    </message>
    <message>
        <source>Remove…</source>
        <translation>Eliminar…</translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation>Eliminar %1</translation>
    </message>
    <message>
        <source>Review…</source>
        <translation>Revisar…</translation>
    </message>
    <message>
        <source>What %1 changed in the workspace that your tools run</source>
        <translation>Lo que %1 cambió en el espacio de trabajo y tus herramientas ejecutan</translation>
    </message>
    <message>
        <source>Connections in the last hour: %1</source>
        <translation>Conexiones en la última hora: %1</translation>
    </message>
    <message>
        <source>Services…</source>
        <translation>Servicios…</translation>
    </message>
    <message>
        <source>The companion services of %1</source>
        <translation>Los servicios asociados de %1</translation>
    </message>
    <message>
        <source>Resume session…</source>
        <translation>Reanudar una sesión…</translation>
    </message>
    <message>
        <source>Resume a session of the agent of %1 in a terminal</source>
        <translation>Reanudar una sesión del agente de %1 en un terminal</translation>
    </message>
    <message>
        <source>Recreate…</source>
        <translation>Recrear…</translation>
    </message>
    <message>
        <source>Make %1 again from its kit, keeping its volumes</source>
        <translation>Volver a crear %1 a partir de su kit, conservando sus volúmenes</translation>
    </message>
</context>
<context>
    <name>SandboxServicesDialog</name>
    <message>
        <source>Services of %1</source>
        <translation>Servicios de %1</translation>
    </message>
    <message>
        <source>Containers on the Docker engine beside the sandbox, started and stopped with it. Inside, the sandbox reaches each by its name and port.</source>
        <translation>Contenedores en el motor de Docker junto al entorno aislado, que se inician y se detienen con él. Dentro, el entorno aislado accede a cada uno por su nombre y su puerto.</translation>
    </message>
    <message>
        <source>No services.</source>
        <translation>No hay servicios.</translation>
    </message>
    <message>
        <source>%1 · %2 · port %3</source>
        <translation>%1 · %2 · puerto %3</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Eliminar</translation>
    </message>
    <message>
        <source>Remove service %1 and its volumes</source>
        <translation>Eliminar el servicio %1 y sus volúmenes</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nombre</translation>
    </message>
    <message>
        <source>Service name</source>
        <translation>Nombre del servicio</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>Imagen</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>Puerto</translation>
    </message>
    <message>
        <source>Variables</source>
        <translation>Variables</translation>
    </message>
    <message>
        <source>NAME=VALUE, one a line</source>
        <translation>NAME=VALUE, una por línea</translation>
    </message>
    <message>
        <source>Variables, one NAME=VALUE a line</source>
        <translation>Variables, una NAME=VALUE por línea</translation>
    </message>
    <message>
        <source>Add service</source>
        <translation>Añadir servicio</translation>
    </message>
    <message>
        <source>Add the service to %1</source>
        <translation>Añadir el servicio a %1</translation>
    </message>
</context>
<context>
    <name>SandboxesPage</name>
    <message>
        <source>Sandboxes</source>
        <translation>Entornos aislados</translation>
    </message>
    <message>
        <source>Coding agents running in sandboxes on your project folders.</source>
        <translation>Agentes de programación que trabajan en entornos aislados sobre sus carpetas de proyecto.</translation>
    </message>
    <message>
        <source>New sandbox…</source>
        <translation>Nuevo entorno aislado…</translation>
    </message>
    <message>
        <source>Create a new sandbox</source>
        <translation>Crear un entorno aislado nuevo</translation>
    </message>
    <message>
        <source>Sandboxes are run by the daemon</source>
        <translation>Los entornos aislados los ejecuta el servicio</translation>
    </message>
    <message>
        <source>paddockd, Paddock&apos;s background service, runs the sandboxes. Once it is connected (see the status line below), this page lists every sandbox with its status, and creates new ones on your project folders.</source>
        <translation>paddockd, el servicio en segundo plano de Paddock, ejecuta los entornos aislados. Cuando esté conectado (consulte la línea de estado de abajo), esta página mostrará todos los entornos aislados con su estado y permitirá crear otros nuevos sobre sus carpetas de proyecto.</translation>
    </message>
    <message>
        <source>Check whether paddockd, the background service that runs the sandboxes, is running.</source>
        <translation>Comprobar si paddockd, el servicio en segundo plano que ejecuta los entornos aislados, está en marcha.</translation>
    </message>
    <message>
        <source>No sandboxes yet</source>
        <translation>Aún no hay entornos aislados</translation>
    </message>
    <message>
        <source>Create one with New sandbox: choose a project folder and a kit, review what the kit asks for, and Paddock starts the agent in a sandbox whose only way out is its proxy.</source>
        <translation>Cree uno con «Nuevo entorno aislado»: elija una carpeta de proyecto y un kit, revise lo que pide el kit y Paddock iniciará el agente en un entorno aislado cuya única salida es su proxy.</translation>
    </message>
    <message>
        <source>A terminal opens on a shell in %1.</source>
        <translation>Se abre un terminal con un shell en %1.</translation>
    </message>
    <message>
        <source>The agent of %1 opens in a terminal.</source>
        <translation>El agente de %1 se abre en un terminal.</translation>
    </message>
    <message>
        <source>The same from a terminal, in the current folder: the agent runs on that terminal, and the sandbox keeps running when you leave it.</source>
        <translation>Lo mismo desde un terminal, en la carpeta actual: el agente se ejecuta en ese terminal, y el entorno aislado sigue en marcha cuando lo deja.</translation>
    </message>
    <message>
        <source>%1 is running; its agent opens in a terminal.</source>
        <translation>%1 está en ejecución; su agente se abre en un terminal.</translation>
    </message>
    <message>
        <source>%1 is running. No terminal emulator was found: its row shows the command that opens its agent.</source>
        <translation>%1 está en ejecución. No se ha encontrado ningún emulador de terminal: su fila muestra la orden que abre su agente.</translation>
    </message>
    <message>
        <source>%1 was not started: its kit&apos;s keys were not approved, and nothing was recorded. To approve later, press Start again, or run: %2</source>
        <translation>%1 no se ha iniciado: las claves de su kit no se han aprobado y no se ha guardado nada. Para aprobarlas más tarde, pulse de nuevo Iniciar o ejecute: %2</translation>
    </message>
    <message>
        <source>Continue the most recent session</source>
        <translation>Continuar la sesión más reciente</translation>
    </message>
    <message>
        <source>No session to resume</source>
        <translation>No hay ninguna sesión que reanudar</translation>
    </message>
</context>
<context>
    <name>SecretRemoveDialog</name>
    <message>
        <source>Remove the key of %1?</source>
        <translation>¿Eliminar la clave de %1?</translation>
    </message>
    <message>
        <source>The key is deleted from the keychain. Sandboxes whose kit needs it will not start until you set it again; approvals are kept.</source>
        <translation>La clave se elimina del llavero. Los entornos aislados cuyo kit la necesite no se iniciarán hasta que la vuelva a definir; las aprobaciones se conservan.</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Eliminar</translation>
    </message>
    <message>
        <source>Remove the key</source>
        <translation>Eliminar la clave</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
</context>
<context>
    <name>SecretRow</name>
    <message>
        <source>Key of %1</source>
        <translation>Clave de %1</translation>
    </message>
    <message>
        <source>Only for the sandbox %1</source>
        <translation>Solo para el entorno aislado %1</translation>
    </message>
    <message>
        <source>For every sandbox</source>
        <translation>Para todos los entornos aislados</translation>
    </message>
    <message>
        <source>missing from the keychain</source>
        <translation>no está en el llavero</translation>
    </message>
    <message>
        <source>Set %1</source>
        <translation>Definir %1</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Replace…</source>
        <translation>Sustituir…</translation>
    </message>
    <message>
        <source>Cancel replacing the key of %1</source>
        <translation>Cancelar la sustitución de la clave de %1</translation>
    </message>
    <message>
        <source>Replace the key of %1</source>
        <translation>Sustituir la clave de %1</translation>
    </message>
    <message>
        <source>Remove…</source>
        <translation>Eliminar…</translation>
    </message>
    <message>
        <source>Remove the key of %1</source>
        <translation>Eliminar la clave de %1</translation>
    </message>
    <message>
        <source>New key for %1</source>
        <translation>Nueva clave para %1</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Guardar</translation>
    </message>
    <message>
        <source>Save the new key of %1</source>
        <translation>Guardar la nueva clave de %1</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Falló</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>Probar</translation>
    </message>
    <message>
        <source>Test the key of %1 with its provider</source>
        <translation>Probar la clave de %1 con su proveedor</translation>
    </message>
    <message>
        <source>Remove the custom secret %1</source>
        <translation>Eliminar el secreto personalizado %1</translation>
    </message>
</context>
<context>
    <name>SecretsPage</name>
    <message>
        <source>Secrets</source>
        <translation>Secretos</translation>
    </message>
    <message>
        <source>Provider API keys, kept in the system keychain and never copied into a sandbox.</source>
        <translation>Claves de API de los proveedores, guardadas en el llavero del sistema y nunca copiadas a un entorno aislado.</translation>
    </message>
    <message>
        <source>Keys are kept by the daemon</source>
        <translation>Las claves las guarda el servicio</translation>
    </message>
    <message>
        <source>Paddock&apos;s daemon holds the keychain for every sandbox. When it is connected (see the status line below), this page lists your provider keys, masked, and lets you add, replace and remove them.</source>
        <translation>El servicio de Paddock gestiona el llavero para todos los entornos aislados. Cuando esté conectado (consulte la línea de estado de abajo), esta página mostrará sus claves de proveedor, enmascaradas, y le permitirá añadirlas, sustituirlas y eliminarlas.</translation>
    </message>
    <message>
        <source>Use Check again in the status line to start the daemon.</source>
        <translation>Use «Volver a comprobar» en la línea de estado para iniciar el servicio.</translation>
    </message>
    <message>
        <source>No keychain is reachable, so no key can be stored.</source>
        <translation>No hay ningún llavero accesible, así que no se puede guardar ninguna clave.</translation>
    </message>
    <message>
        <source>Install and start %1, then check again. Paddock never keeps keys in a plain file.</source>
        <translation>Instale e inicie %1 y vuelva a comprobarlo. Paddock nunca guarda claves en un archivo de texto sin cifrar.</translation>
    </message>
    <message>
        <source>Check again</source>
        <translation>Volver a comprobar</translation>
    </message>
    <message>
        <source>Check the keychain again</source>
        <translation>Volver a comprobar el llavero</translation>
    </message>
    <message>
        <source>Add a key</source>
        <translation>Añadir una clave</translation>
    </message>
    <message>
        <source>Service</source>
        <translation>Servicio</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>Entorno aislado</translation>
    </message>
    <message>
        <source>optional: only for this sandbox</source>
        <translation>opcional: solo para este entorno aislado</translation>
    </message>
    <message>
        <source>Sandbox (optional)</source>
        <translation>Entorno aislado (opcional)</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Clave</translation>
    </message>
    <message>
        <source>pasted here, never shown</source>
        <translation>se pega aquí y nunca se muestra</translation>
    </message>
    <message>
        <source>Save in the keychain</source>
        <translation>Guardar en el llavero</translation>
    </message>
    <message>
        <source>Save the key in the keychain</source>
        <translation>Guardar la clave en el llavero</translation>
    </message>
    <message>
        <source>Stored keys</source>
        <translation>Claves guardadas</translation>
    </message>
    <message>
        <source>No keys yet. A kit names the services it needs; add their keys above.</source>
        <translation>Aún no hay claves. Cada kit indica los servicios que necesita; añada sus claves arriba.</translation>
    </message>
    <message>
        <source>as the kit names it, e.g. %1</source>
        <translation>como lo nombra el kit, p. ej. %1</translation>
    </message>
    <message>
        <source>as the kit names it</source>
        <translation>como lo nombra el kit</translation>
    </message>
</context>
<context>
    <name>SharedFoldersStep</name>
    <message>
        <source>Choose a folder to share</source>
        <translation>Elegir una carpeta para compartir</translation>
    </message>
    <message>
        <source>Optional. Share a package cache or a settings file, or set variables such as PGHOST. Your home folder, ~/.ssh, keyrings and Paddock&apos;s own folders are never shared, and keys belong in Secrets, not in variables.</source>
        <translation>Opcional. Comparta una caché de paquetes o un archivo de ajustes, o defina variables como PGHOST. Su carpeta personal, ~/.ssh, los llaveros y las carpetas propias de Paddock nunca se comparten, y las claves van en Secretos, no en variables.</translation>
    </message>
    <message>
        <source>Shared folders</source>
        <translation>Carpetas compartidas</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Quitar</translation>
    </message>
    <message>
        <source>Stop sharing %1</source>
        <translation>Dejar de compartir %1</translation>
    </message>
    <message>
        <source>~/.nuget</source>
        <translation>~/.nuget</translation>
    </message>
    <message>
        <source>Folder on this computer</source>
        <translation>Carpeta en este equipo</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Elegir…</translation>
    </message>
    <message>
        <source>where it appears inside: the same path if empty, e.g. /home/agent/.nuget</source>
        <translation>dónde aparece dentro: la misma ruta si se deja vacío, p. ej. /home/agent/.nuget</translation>
    </message>
    <message>
        <source>Path inside the sandbox</source>
        <translation>Ruta dentro del entorno aislado</translation>
    </message>
    <message>
        <source>Read-only</source>
        <translation>Solo lectura</translation>
    </message>
    <message>
        <source>Add folder</source>
        <translation>Añadir carpeta</translation>
    </message>
    <message>
        <source>Variables</source>
        <translation>Variables</translation>
    </message>
    <message>
        <source>Remove variable %1</source>
        <translation>Quitar la variable %1</translation>
    </message>
    <message>
        <source>NAME=VALUE, e.g. PGHOST=postgres</source>
        <translation>NAME=VALUE, p. ej. PGHOST=postgres</translation>
    </message>
    <message>
        <source>Variable</source>
        <translation>Variable</translation>
    </message>
    <message>
        <source>Add variable</source>
        <translation>Añadir variable</translation>
    </message>
    <message>
        <source>Use these for every new sandbox of this kit</source>
        <translation>Usar estos ajustes para cada nuevo entorno aislado de este kit</translation>
    </message>
</context>
<context>
    <name>StatusFooter</name>
    <message>
        <source>Daemon connected, version %1</source>
        <translation>Servicio conectado, versión %1</translation>
    </message>
    <message>
        <source>Daemon connected</source>
        <translation>Servicio conectado</translation>
    </message>
    <message>
        <source>Looking for the daemon…</source>
        <translation>Buscando el servicio…</translation>
    </message>
    <message>
        <source>Daemon not connected</source>
        <translation>Servicio no conectado</translation>
    </message>
    <message>
        <source>Check again</source>
        <translation>Volver a comprobar</translation>
    </message>
    <message>
        <source>Check the daemon connection again</source>
        <translation>Volver a comprobar la conexión con el servicio</translation>
    </message>
    <message>
        <source>Paddock %1</source>
        <translation>Paddock %1</translation>
    </message>
</context>
<context>
    <name>UpstreamProxySection</name>
    <message>
        <source>Upstream proxy</source>
        <translation>Proxy ascendente</translation>
    </message>
    <message>
        <source>Behind a company&apos;s proxy, set it here. Without a setting, Paddock uses HTTPS_PROXY, ALL_PROXY or http_proxy from the environment it started in, then the desktop&apos;s proxy settings. The rules still decide first: a refused connection never reaches the proxy.</source>
        <translation>Si está detrás del proxy de una empresa, configúrelo aquí. Sin ningún ajuste, Paddock usa HTTPS_PROXY, ALL_PROXY o http_proxy del entorno en el que se inició y, después, los ajustes de proxy del escritorio. Las reglas siguen decidiendo primero: una conexión rechazada nunca llega al proxy.</translation>
    </message>
    <message>
        <source>Proxy URL</source>
        <translation>URL del proxy</translation>
    </message>
    <message>
        <source>http://user@proxy.example.com:3128 or socks5h://host:1080</source>
        <translation>http://user@proxy.example.com:3128 o socks5h://host:1080</translation>
    </message>
    <message>
        <source>Upstream proxy URL</source>
        <translation>URL del proxy ascendente</translation>
    </message>
    <message>
        <source>Not for</source>
        <translation>Excepto para</translation>
    </message>
    <message>
        <source>intranet.example.com, 10.0.0.0/8</source>
        <translation>intranet.example.com, 10.0.0.0/8</translation>
    </message>
    <message>
        <source>Hosts reached without the upstream proxy</source>
        <translation>Hosts a los que se accede sin el proxy ascendente</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>Contraseña</translation>
    </message>
    <message>
        <source>kept in the keychain; type to replace it</source>
        <translation>guardada en el llavero; escriba otra para sustituirla</translation>
    </message>
    <message>
        <source>none</source>
        <translation>ninguna</translation>
    </message>
    <message>
        <source>Upstream proxy password</source>
        <translation>Contraseña del proxy ascendente</translation>
    </message>
    <message>
        <source>Forget</source>
        <translation>Olvidar</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Guardar</translation>
    </message>
</context>
<context>
    <name>WizardDialog</name>
    <message>
        <source>New sandbox</source>
        <translation>Nuevo entorno aislado</translation>
    </message>
    <message>
        <source>Choose a kit folder (it holds spec.yaml)</source>
        <translation>Elegir una carpeta de kit (contiene spec.yaml)</translation>
    </message>
    <message>
        <source>1. Project folder</source>
        <translation>1. Carpeta del proyecto</translation>
    </message>
    <message>
        <source>2. Kit</source>
        <translation>2. Kit</translation>
    </message>
    <message>
        <source>3. Backend and workspace</source>
        <translation>3. Motor y espacio de trabajo</translation>
    </message>
    <message>
        <source>6. Create and start</source>
        <translation>6. Crear e iniciar</translation>
    </message>
    <message>
        <source>Choose the kit that describes the agent, or a kit folder of your own.</source>
        <translation>Elija el kit que describe el agente, o una carpeta de kit propia.</translation>
    </message>
    <message>
        <source>Choose a kit folder (it holds spec.yaml).</source>
        <translation>Elija una carpeta de kit (contiene spec.yaml).</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Kit folder</source>
        <translation>Carpeta del kit</translation>
    </message>
    <message>
        <source>Choose a folder…</source>
        <translation>Elegir una carpeta…</translation>
    </message>
    <message>
        <source>Choose a kit folder</source>
        <translation>Elegir una carpeta de kit</translation>
    </message>
    <message>
        <source>Workspace</source>
        <translation>Espacio de trabajo</translation>
    </message>
    <message>
        <source>Direct: the agent edits the folder itself</source>
        <translation>Directo: el agente edita la propia carpeta</translation>
    </message>
    <message>
        <source>Direct workspace</source>
        <translation>Espacio de trabajo directo</translation>
    </message>
    <message>
        <source>Clone: the agent works on a clone of the folder&apos;s git repository</source>
        <translation>Clon: el agente trabaja sobre un clon del repositorio git de la carpeta</translation>
    </message>
    <message>
        <source>Clone workspace</source>
        <translation>Espacio de trabajo clonado</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nombre</translation>
    </message>
    <message>
        <source>optional: made from the kit and the folder</source>
        <translation>opcional: se forma a partir del kit y de la carpeta</translation>
    </message>
    <message>
        <source>Sandbox name</source>
        <translation>Nombre del entorno aislado</translation>
    </message>
    <message>
        <source>Image: %1</source>
        <translation>Imagen: %1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>ninguna</translation>
    </message>
    <message>
        <source>Allowed domains: %1</source>
        <translation>Dominios permitidos: %1</translation>
    </message>
    <message>
        <source>Allowed domains: none of its own (your network policy applies)</source>
        <translation>Dominios permitidos: ninguno propio (se aplica su política de red)</translation>
    </message>
    <message>
        <source>Keys: none</source>
        <translation>Claves: ninguna</translation>
    </message>
    <message>
        <source>Keys: %1</source>
        <translation>Claves: %1</translation>
    </message>
    <message>
        <source>%1 (sent to %2)</source>
        <translation>%1 (se envía a %2)</translation>
    </message>
    <message>
        <source>What it can reach on this computer</source>
        <translation>A qué puede acceder en este equipo</translation>
    </message>
    <message>
        <source>clone</source>
        <translation>clonado</translation>
    </message>
    <message>
        <source>direct</source>
        <translation>directo</translation>
    </message>
    <message>
        <source>Creating the sandbox (the kit&apos;s setup runs now)…</source>
        <translation>Creando el entorno aislado (ahora se ejecuta la preparación del kit)…</translation>
    </message>
    <message>
        <source>Starting %1…</source>
        <translation>Iniciando %1…</translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>Procesando…</translation>
    </message>
    <message>
        <source>Create a %1 sandbox from the kit %2 on %3 (%4 workspace), start it, and open its agent in a terminal.</source>
        <translation>Crear un entorno aislado %1 a partir del kit %2 sobre %3 (espacio de trabajo %4), iniciarlo y abrir su agente en un terminal.</translation>
    </message>
    <message>
        <source>No terminal emulator was found, so the agent cannot open here: it starts, and its row shows the command that opens it. Install xterm, GNOME Terminal or Konsole to open agents from this window.</source>
        <translation>No se ha encontrado ningún emulador de terminal, así que el agente no puede abrirse aquí: se inicia, y su fila muestra la orden que lo abre. Instale xterm, GNOME Terminal o Konsole para abrir agentes desde esta ventana.</translation>
    </message>
    <message>
        <source>Create a %1 sandbox from the kit %2 on %3 (%4 workspace), then start it.</source>
        <translation>Crear un entorno aislado %1 a partir del kit %2 sobre %3 (espacio de trabajo %4) e iniciarlo.</translation>
    </message>
    <message>
        <source>It asks to reach this computer and the networks it is on</source>
        <translation>Pide alcanzar este equipo y las redes en las que está</translation>
    </message>
    <message>
        <source>%1 reaches %2</source>
        <translation>%1 alcanza %2</translation>
    </message>
    <message>
        <source>Services that trust this computer, such as databases, your router or the cloud metadata service, will answer the sandbox.</source>
        <translation>Los servicios que confían en este equipo, como bases de datos, tu router o el servicio de metadatos de la nube, responderán al sandbox.</translation>
    </message>
    <message>
        <source>Allow this kit to reach them</source>
        <translation>Permitir que este kit los alcance</translation>
    </message>
    <message>
        <source>Allow this kit to reach this computer and its networks</source>
        <translation>Permitir que este kit alcance este equipo y sus redes</translation>
    </message>
    <message>
        <source>4. Shared folders and variables</source>
        <translation>4. Carpetas compartidas y variables</translation>
    </message>
    <message>
        <source>5. Review</source>
        <translation>5. Revisión</translation>
    </message>
    <message>
        <source>6. Keys and approvals</source>
        <translation>6. Claves y aprobaciones</translation>
    </message>
    <message>
        <source>7. Create and start</source>
        <translation>7. Crear e iniciar</translation>
    </message>
    <message>
        <source>%1 reaches %2 (approved for this kit)</source>
        <translation>%1 alcanza %2 (aprobado para este kit)</translation>
    </message>
    <message>
        <source>Docker (engine %1)</source>
        <translation>Docker (motor %1)</translation>
    </message>
    <message>
        <source>Composed of: %1</source>
        <translation>Compuesto por: %1</translation>
    </message>
</context>
<context>
    <name>WizardFrame</name>
    <message>
        <source>Back</source>
        <translation>Atrás</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>Siguiente</translation>
    </message>
    <message>
        <source>Create and start</source>
        <translation>Crear e iniciar</translation>
    </message>
    <message>
        <source>Create and start the sandbox</source>
        <translation>Crear e iniciar el entorno aislado</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
</context>
<context>
    <name>paddock::gui::ActivityModel</name>
    <message>
        <source>%1 up · %2 down</source>
        <translation>%1 enviados · %2 recibidos</translation>
    </message>
</context>
<context>
    <name>paddock::gui::AgentPerms</name>
    <message>
        <source>Line %1: %2</source>
        <translation>Línea %1: %2</translation>
    </message>
    <message>
        <source>Changed %1</source>
        <translation>%1 modificado</translation>
    </message>
    <message>
        <source>No change: the file already says so.</source>
        <translation>Sin cambios: el archivo ya lo dice.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::AskNotifier</name>
    <message>
        <source>Sandbox %1 waits to reach %2</source>
        <translation>El entorno aislado %1 espera para conectar con %2</translation>
    </message>
    <message numerus="yes">
        <source>No rule covers it. Answer within %n second(s), or it is refused.</source>
        <translation>
            <numerusform>Ninguna regla la cubre. Responda en %n segundo o se rechazará.</numerusform>
            <numerusform>Ninguna regla la cubre. Responda en %n segundos o se rechazará.</numerusform>
        </translation>
    </message>
    <message>
        <source>Allow once</source>
        <translation>Permitir una vez</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>Denegar</translation>
    </message>
</context>
<context>
    <name>paddock::gui::BundleExporter</name>
    <message>
        <source>%1 B</source>
        <translation>%1 B</translation>
    </message>
    <message>
        <source>%1 KiB</source>
        <translation>%1 KiB</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <source>Choose where to write the bundle (a full path).</source>
        <translation>Elija dónde escribir el paquete (una ruta completa).</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>No se puede leer %1: %2</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>No se puede escribir %1: %2</translation>
    </message>
    <message>
        <source>Wrote %1: kit %2, %3 files (%4).</source>
        <translation>Se ha escrito %1: kit %2, %3 archivos (%4).</translation>
    </message>
    <message numerus="yes">
        <source>Policy: preset %1, %n rule(s).</source>
        <translation>
            <numerusform>Política: preajuste %1, %n regla.</numerusform>
            <numerusform>Política: preajuste %1, %n reglas.</numerusform>
        </translation>
    </message>
    <message>
        <source>Students provide no key.</source>
        <translation>Los estudiantes no aportan ninguna clave.</translation>
    </message>
    <message>
        <source>Students provide their own keys for: %1 (the bundle holds no value).</source>
        <translation>Los estudiantes aportan sus propias claves para: %1 (el paquete no contiene ningún valor).</translation>
    </message>
</context>
<context>
    <name>paddock::gui::ChecklistModel</name>
    <message>
        <source>The credential variable inside is the sentinel</source>
        <translation>La variable de credencial dentro es el centinela</translation>
    </message>
    <message>
        <source>A domain on no list is refused and logged</source>
        <translation>Un dominio que no está en ninguna lista se rechaza y se registra</translation>
    </message>
    <message>
        <source>A file edited inside appears on the host</source>
        <translation>Un archivo modificado dentro aparece en el anfitrión</translation>
    </message>
    <message>
        <source>The policy log shows no refusal the policy did not choose</source>
        <translation>El registro de la política no muestra ningún rechazo que la política no eligiera</translation>
    </message>
    <message>
        <source>The key reaches its provider</source>
        <translation>La clave llega a su proveedor</translation>
    </message>
</context>
<context>
    <name>paddock::gui::ClassroomModel</name>
    <message>
        <source>Kit %1 %2</source>
        <translation>Kit %1 %2</translation>
    </message>
    <message>
        <source>Notes from the bundle&apos;s author:</source>
        <translation>Notas del autor del paquete:</translation>
    </message>
    <message>
        <source>Importing it will:</source>
        <translation>La importación hará lo siguiente:</translation>
    </message>
    <message>
        <source>• replace the kit folder %1 (%2 files)</source>
        <translation>• sustituir la carpeta de kit %1 (%2 archivos)</translation>
    </message>
    <message>
        <source>• write the kit folder %1 (%2 files)</source>
        <translation>• escribir la carpeta de kit %1 (%2 archivos)</translation>
    </message>
    <message>
        <source>• set the network policy preset: %1 → %2</source>
        <translation>• establecer el preajuste de la política de red: %1 → %2</translation>
    </message>
    <message>
        <source>• keep the rule %1 (already present)</source>
        <translation>• conservar la regla %1 (ya existe)</translation>
    </message>
    <message>
        <source>• add the rule %1</source>
        <translation>• añadir la regla %1</translation>
    </message>
    <message>
        <source>• leave the network policy as it is</source>
        <translation>• dejar la política de red como está</translation>
    </message>
    <message>
        <source>Secrets you will enter afterwards (never in the bundle):</source>
        <translation>Secretos que introducirá después (nunca van en el paquete):</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>Advertencia: %1</translation>
    </message>
    <message>
        <source>%1 was refused: %2</source>
        <translation>%1 se rechazó: %2</translation>
    </message>
    <message>
        <source>Kit %1 imported into %2.</source>
        <translation>Kit %1 importado en %2.</translation>
    </message>
    <message>
        <source>No check failed: this sandbox is ready.</source>
        <translation>No ha fallado ninguna comprobación: este entorno aislado está listo.</translation>
    </message>
    <message>
        <source>Some checks failed: read each sentence for what to fix.</source>
        <translation>Algunas comprobaciones han fallado: lea cada frase para saber qué corregir.</translation>
    </message>
    <message>
        <source>Next: create your sandbox (the keys it needs are asked for there), then run the checklist.</source>
        <translation>A continuación: cree su entorno aislado (allí se le piden las claves que necesita) y ejecute después la lista de comprobación.</translation>
    </message>
    <message>
        <source>Starting the checks…</source>
        <translation>Iniciando las comprobaciones…</translation>
    </message>
    <message>
        <source>Checked %1 of %2…</source>
        <translation>%1 de %2 comprobaciones hechas…</translation>
    </message>
    <message>
        <source>The agent&apos;s own rules it brings (pi-permission-system):</source>
        <translation>Las reglas propias del agente que trae (pi-permission-system):</translation>
    </message>
    <message>
        <source>, a host grant: reaches %1</source>
        <translation>, un acceso al anfitrión: alcanza %1</translation>
    </message>
    <message>
        <source>The kit reaches this computer or its networks (asked before its first sandbox):</source>
        <translation>El kit alcanza este equipo o sus redes (se pregunta antes de su primer sandbox):</translation>
    </message>
    <message>
        <source>• %1 reaches %2</source>
        <translation>• %1 alcanza %2</translation>
    </message>
    <message>
        <source>Warning: allow-all lets every sandbox reach every public host</source>
        <translation>Atención: permitir todo deja que cada sandbox alcance todos los hosts públicos</translation>
    </message>
    <message>
        <source>Its sandboxes run on the container engine %1, whose address your teacher gives.</source>
        <translation>Sus entornos aislados se ejecutan en el motor de contenedores %1, cuya dirección da su profesor.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::DaemonBound</name>
    <message>
        <source>The daemon is not connected.</source>
        <translation>El servicio no está conectado.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::DaemonStatus</name>
    <message>
        <source>The connection to paddockd closed.</source>
        <translation>La conexión con paddockd se cerró.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::EngineSettings</name>
    <message>
        <source>this computer&apos;s engine</source>
        <translation>el motor de este equipo</translation>
    </message>
    <message>
        <source>a docker context</source>
        <translation>un contexto de docker</translation>
    </message>
    <message>
        <source>added in Paddock</source>
        <translation>añadido en Paddock</translation>
    </message>
    <message>
        <source>on this computer</source>
        <translation>en este equipo</translation>
    </message>
    <message>
        <source>on another computer: sandboxes get a clone of the workspace</source>
        <translation>en otro ordenador: los entornos aislados reciben un clon del espacio de trabajo</translation>
    </message>
</context>
<context>
    <name>paddock::gui::EnvironmentPlan</name>
    <message>
        <source>Refused: %1</source>
        <translation>Rechazado: %1</translation>
    </message>
    <message>
        <source>The file changed since it was shown: read its host commands again.</source>
        <translation>El archivo ha cambiado desde que se mostró: vuelva a leer las órdenes que ejecuta en este equipo.</translation>
    </message>
    <message>
        <source>Tick each command that runs on this computer to approve it, once you have read it.</source>
        <translation>Marque cada orden que se ejecuta en este equipo para aprobarla, una vez que la haya leído.</translation>
    </message>
    <message>
        <source>Environment %1 is up.</source>
        <translation>El entorno %1 está en marcha.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::ImagePreparation</name>
    <message>
        <source>The kit names no image (sandbox.image).</source>
        <translation>El kit no nombra ninguna imagen (sandbox.image).</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>Iniciando…</translation>
    </message>
    <message>
        <source>Step %1 of %2: %3</source>
        <translation>Paso %1 de %2: %3</translation>
    </message>
</context>
<context>
    <name>paddock::gui::KitEditorModel</name>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>No se puede leer %1: %2</translation>
    </message>
    <message>
        <source>A sample kit shipped with Paddock: copy it to a folder of yours to change it.</source>
        <translation>Un kit de ejemplo incluido con Paddock: cópielo en una carpeta propia para modificarlo.</translation>
    </message>
    <message>
        <source>Open a kit first.</source>
        <translation>Abra primero un kit.</translation>
    </message>
    <message>
        <source>Sample kits are read-only: use “Copy to…” to make a copy you can edit.</source>
        <translation>Los kits de ejemplo son de solo lectura: use «Copiar en…» para crear una copia que pueda editar.</translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation>Se ha guardado %1.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::KitImporter</name>
    <message>
        <source>This update is granted more than the kit loaded before. Nothing was loaded; tick the box below to accept it.</source>
        <translation>Esta actualización recibe más permisos que el kit cargado antes. No se ha cargado nada; marque la casilla de abajo para aceptarla.</translation>
    </message>
    <message>
        <source>%1 was not loaded:
%2</source>
        <translation>%1 no se ha cargado:
%2</translation>
    </message>
    <message>
        <source>Loaded %1 (%2) from %3.</source>
        <translation>Se ha cargado %1 (%2) desde %3.</translation>
    </message>
    <message>
        <source>workload</source>
        <translation>carga de trabajo</translation>
    </message>
    <message>
        <source>mixin</source>
        <translation>mixin</translation>
    </message>
    <message numerus="yes">
        <source>%n optional capability(s) skipped: Paddock does not implement them.</source>
        <translation>
            <numerusform>%n capacidad opcional omitida: Paddock no la implementa.</numerusform>
            <numerusform>%n capacidades opcionales omitidas: Paddock no las implementa.</numerusform>
        </translation>
    </message>
    <message>
        <source>Choose the archive to import first (an OCI layout or docker save .tar).</source>
        <translation>Elija primero el archivo que importar (un OCI layout o un .tar de docker save).</translation>
    </message>
    <message>
        <source>%1 is not a file.</source>
        <translation>%1 no es un archivo.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::KitListModel</name>
    <message>
        <source>line %1: %2</source>
        <translation>línea %1: %2</translation>
    </message>
    <message>
        <source>Choose a kit folder first.</source>
        <translation>Elija primero una carpeta de kit.</translation>
    </message>
    <message>
        <source>Choose a folder for the new kit first.</source>
        <translation>Elija primero una carpeta para el kit nuevo.</translation>
    </message>
    <message>
        <source>Choose a folder for the copy first.</source>
        <translation>Elija primero una carpeta para la copia.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::LearningModel</name>
    <message numerus="yes">
        <source>Allowed %n pattern(s).</source>
        <translation>
            <numerusform>Se ha permitido %n patrón.</numerusform>
            <numerusform>Se han permitido %n patrones.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>paddock::gui::NetworkNotifier</name>
    <message>
        <source>Paddock refused %1</source>
        <translation>Paddock ha rechazado %1</translation>
    </message>
    <message>
        <source>A connection to %1 was refused.</source>
        <translation>Se ha rechazado una conexión a %1.</translation>
    </message>
    <message>
        <source>Sandbox %1 tried to reach %2.</source>
        <translation>El entorno aislado %1 intentó acceder a %2.</translation>
    </message>
    <message>
        <source>Allow</source>
        <translation>Permitir</translation>
    </message>
    <message>
        <source>The %1 key was not sent</source>
        <translation>La clave de %1 no se ha enviado</translation>
    </message>
    <message>
        <source>Sandbox %1&apos;s request went without its %2 key and was refused.</source>
        <translation>La solicitud del entorno aislado %1 salió sin su clave de %2 y se rechazó.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::NetworkPolicy</name>
    <message>
        <source>The preset is now %1.</source>
        <translation>El preajuste es ahora %1.</translation>
    </message>
    <message>
        <source>%1 was already there.</source>
        <translation>%1 ya existía.</translation>
    </message>
    <message>
        <source>Added %1.</source>
        <translation>Se ha añadido %1.</translation>
    </message>
    <message>
        <source>Changed the rule to %1.</source>
        <translation>Se ha cambiado la regla a %1.</translation>
    </message>
    <message>
        <source>Removed the rule.</source>
        <translation>Se ha eliminado la regla.</translation>
    </message>
    <message>
        <source>Allowed %1 in %2.</source>
        <translation>Se ha permitido %1 en %2.</translation>
    </message>
    <message>
        <source>Allowed %1 for every sandbox.</source>
        <translation>Se ha permitido %1 para todos los entornos aislados.</translation>
    </message>
    <message>
        <source>Allowed %1 for sandbox %2.</source>
        <translation>Se ha permitido %1 para el entorno aislado %2.</translation>
    </message>
    <message>
        <source>Dismissed %1; it shows again if it is refused again.</source>
        <translation>Se ha descartado %1; volverá a aparecer si se rechaza de nuevo.</translation>
    </message>
    <message>
        <source>Sandbox %1 may now send the value of %2 from %3.</source>
        <translation>El entorno aislado %1 ya puede enviar el valor de %2 de %3.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::RulesModel</name>
    <message>
        <source>for %1</source>
        <translation>para %1</translation>
    </message>
</context>
<context>
    <name>paddock::gui::SandboxListModel</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 d %2 h</translation>
    </message>
    <message>
        <source>%1 cannot start: the key of %2 is not set. Add it on the Secrets page.</source>
        <translation>%1 no puede iniciarse: no se ha definido la clave de %2. Añádala en la página Secretos.</translation>
    </message>
    <message>
        <source>%1 started.</source>
        <translation>%1 se ha iniciado.</translation>
    </message>
    <message>
        <source>%1 stopped.</source>
        <translation>%1 se ha detenido.</translation>
    </message>
    <message>
        <source>%1 removed.</source>
        <translation>%1 se ha eliminado.</translation>
    </message>
    <message>
        <source>Running · agent running</source>
        <translation>En ejecución · agente en marcha</translation>
    </message>
    <message>
        <source>Running · agent exited (status %1)</source>
        <translation>En ejecución · agente terminado (código %1)</translation>
    </message>
    <message>
        <source>Running · agent exited</source>
        <translation>En ejecución · agente terminado</translation>
    </message>
    <message>
        <source>Running · agent not started</source>
        <translation>En ejecución · agente sin iniciar</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>En ejecución</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>Detenido</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Creado</translation>
    </message>
    <message>
        <source>size unknown</source>
        <translation>tamaño desconocido</translation>
    </message>
    <message>
        <source>root %1 over image %2</source>
        <translation>raíz %1 sobre la imagen %2</translation>
    </message>
    <message>
        <source>root %1 over the host&apos;s system</source>
        <translation>raíz %1 sobre el sistema del anfitrión</translation>
    </message>
    <message>
        <source>root %1 over the host&apos;s system (%2)</source>
        <translation>raíz %1 sobre el sistema del anfitrión (%2)</translation>
    </message>
    <message>
        <source>Running · the agent exited: %1 (exit %2)</source>
        <translation>En ejecución · el agente terminó: %1 (código %2)</translation>
    </message>
    <message>
        <source>Running · the agent did not start: %1</source>
        <translation>En ejecución · el agente no se inició: %1</translation>
    </message>
    <message>
        <source>%1 → %2 (%3)</source>
        <translation>%1 → %2 (%3)</translation>
    </message>
    <message>
        <source>read-only</source>
        <translation>solo lectura</translation>
    </message>
    <message>
        <source>read-write</source>
        <translation>lectura y escritura</translation>
    </message>
    <message>
        <source>variables %1</source>
        <translation>variables %1</translation>
    </message>
    <message>
        <source>services %1</source>
        <translation>servicios %1</translation>
    </message>
    <message>
        <source>Shares %1</source>
        <translation>Comparte %1</translation>
    </message>
    <message>
        <source>%1 on engine %2</source>
        <translation>%1 en el motor %2</translation>
    </message>
    <message>
        <source>%1 recreated.</source>
        <translation>%1 recreado.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::SandboxReview</name>
    <message>
        <source>%1 is back as it was when the sandbox started.</source>
        <translation>%1 volvió a como estaba al arrancar el sandbox.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::SandboxServices</name>
    <message>
        <source>The port is a number from 1 to 65535.</source>
        <translation>El puerto es un número de 1 a 65535.</translation>
    </message>
    <message>
        <source>At most %1 variables.</source>
        <translation>Como máximo %1 variables.</translation>
    </message>
    <message>
        <source>Each variable is a line NAME=VALUE, not &quot;%1&quot;.</source>
        <translation>Cada variable es una línea NAME=VALUE, no «%1».</translation>
    </message>
</context>
<context>
    <name>paddock::gui::SandboxWizard</name>
    <message>
        <source>Choose a kit.</source>
        <translation>Elija un kit.</translation>
    </message>
    <message>
        <source>There is no spec.yaml in %1.</source>
        <translation>No hay ningún spec.yaml en %1.</translation>
    </message>
    <message>
        <source>This kit cannot be used: %1</source>
        <translation>Este kit no se puede usar: %1</translation>
    </message>
    <message>
        <source>%1 is a mixin, not a sandbox kit: choose a kit of kind sandbox.</source>
        <translation>%1 es un mixin, no un kit de entorno aislado: elija un kit de tipo sandbox.</translation>
    </message>
    <message>
        <source>Your %1 key would be sent to every host matching %2.</source>
        <translation>Su clave de %1 se enviaría a todos los hosts que coinciden con %2.</translation>
    </message>
    <message>
        <source>The kit asks for a privileged sandbox (security.privileged).</source>
        <translation>El kit pide un entorno aislado con privilegios (security.privileged).</translation>
    </message>
    <message>
        <source>The kit allows connections to every host matching %1.</source>
        <translation>El kit permite conexiones a todos los hosts que coinciden con %1.</translation>
    </message>
    <message>
        <source>The kit publishes ports %1 of the sandbox on this computer.</source>
        <translation>El kit publica los puertos %1 del entorno aislado en este equipo.</translation>
    </message>
    <message>
        <source>The kit writes a file into your project folder.</source>
        <translation>El kit escribe un archivo en su carpeta de proyecto.</translation>
    </message>
    <message>
        <source>The kit writes %1 files into your project folder.</source>
        <translation>El kit escribe %1 archivos en su carpeta de proyecto.</translation>
    </message>
    <message>
        <source>The agent works on a clone of the repository in %1; your folder changes only when you fetch from the clone.</source>
        <translation>El agente trabaja sobre un clon del repositorio de %1; su carpeta solo cambia cuando usted trae cambios desde el clon.</translation>
    </message>
    <message>
        <source>The agent can read, change and delete every file in %1.</source>
        <translation>El agente puede leer, modificar y eliminar todos los archivos de %1.</translation>
    </message>
    <message>
        <source>The key is empty: nothing was stored.</source>
        <translation>La clave está vacía: no se ha guardado nada.</translation>
    </message>
    <message>
        <source>Choose an existing project folder.</source>
        <translation>Elija una carpeta de proyecto existente.</translation>
    </message>
    <message>
        <source>%1 was created but did not start: %2</source>
        <translation>%1 se ha creado, pero no se ha iniciado: %2</translation>
    </message>
    <message>
        <source>The sandbox&apos;s root is the image %1, under a layer of its own.</source>
        <translation>La raíz del sandbox es la imagen %1, bajo una capa propia.</translation>
    </message>
    <message>
        <source>The sandbox&apos;s root is your system, under a layer of its own.</source>
        <translation>La raíz del sandbox es tu sistema, bajo una capa propia.</translation>
    </message>
    <message>
        <source>The image %1 is not loaded: it is pulled from its registry when the sandbox is made; if that fails, the sandbox&apos;s root is your system, under a layer of its own.</source>
        <translation>La imagen %1 no está cargada: se descarga de su registro al crear el sandbox; si falla, la raíz del sandbox es tu sistema, bajo una capa propia.</translation>
    </message>
    <message>
        <source>The sandbox&apos;s root is your system, read-only: %1</source>
        <translation>La raíz del sandbox es tu sistema, de solo lectura: %1</translation>
    </message>
    <message>
        <source>Allow the kit to reach this computer and its networks in the review, or choose another kit.</source>
        <translation>Permite que el kit alcance este equipo y sus redes en la revisión, o elige otro kit.</translation>
    </message>
    <message>
        <source> The kit starts %1, which this computer does not have: the agent starts only if the kit&apos;s setup installs it, or once the kit&apos;s image is loaded.</source>
        <translation> El kit inicia %1, que este equipo no tiene: el agente solo se inicia si la preparación del kit lo instala o una vez cargada la imagen del kit.</translation>
    </message>
    <message>
        <source> The kit starts %1, which this computer does not have: the agent cannot start until the kit&apos;s image is loaded (paddock template load FILE) or %1 is installed.</source>
        <translation> El kit inicia %1, que este equipo no tiene: el agente no puede iniciarse hasta que se cargue la imagen del kit (paddock template load FILE) o se instale %1.</translation>
    </message>
    <message>
        <source>The kit&apos;s shared folders were not kept: %1</source>
        <translation>No se han conservado las carpetas compartidas del kit: %1</translation>
    </message>
    <message>
        <source>These kits do not go together: %1</source>
        <translation>Estos kits no son compatibles: %1</translation>
    </message>
</context>
<context>
    <name>paddock::gui::SecretListModel</name>
    <message>
        <source>Names may use letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos; only.</source>
        <translation>Los nombres solo pueden contener letras, cifras, «.», «_» y «-».</translation>
    </message>
    <message>
        <source>The key is empty: nothing was stored.</source>
        <translation>La clave está vacía: no se ha guardado nada.</translation>
    </message>
    <message>
        <source>The key of %1 is stored in the keychain.</source>
        <translation>La clave de %1 se ha guardado en el llavero.</translation>
    </message>
    <message>
        <source>The key of %1 was removed from the keychain.</source>
        <translation>La clave de %1 se ha eliminado del llavero.</translation>
    </message>
    <message>
        <source>run for every request</source>
        <translation>se ejecuta en cada solicitud</translation>
    </message>
    <message>
        <source>every %1</source>
        <translation>cada %1</translation>
    </message>
    <message>
        <source>Command: %1 (%2)</source>
        <translation>Orden: %1 (%2)</translation>
    </message>
    <message>
        <source>1Password: %1 (%2)</source>
        <translation>1Password: %1 (%2)</translation>
    </message>
    <message>
        <source>Placeholder in %1, replaced for %2</source>
        <translation>Marcador de posición en %1, sustituido para %2</translation>
    </message>
    <message>
        <source>Failed %1: %2</source>
        <translation>Falló %1: %2</translation>
    </message>
    <message>
        <source>Resolved %1</source>
        <translation>Resuelta %1</translation>
    </message>
    <message>
        <source>Not resolved yet</source>
        <translation>Aún sin resolver</translation>
    </message>
    <message>
        <source>Needed by %1: %2 — stored</source>
        <translation>Necesaria para %1: %2 — guardada</translation>
    </message>
    <message>
        <source>Needed by %1: %2 — not stored</source>
        <translation>Necesaria para %1: %2 — sin guardar</translation>
    </message>
    <message>
        <source>The provider accepted the %1 key: %2 answered %3</source>
        <translation>El proveedor aceptó la clave de %1: %2 respondió %3</translation>
    </message>
    <message>
        <source>The %1 key was not accepted: %2 answered %3</source>
        <translation>La clave de %1 no se aceptó: %2 respondió %3</translation>
    </message>
    <message>
        <source>The custom secret %1 was removed: its placeholder is no longer replaced.</source>
        <translation>El secreto personalizado %1 se ha eliminado: su marcador ya no se sustituye.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::TerminalLauncher</name>
    <message>
        <source>No terminal emulator was found: install xterm, GNOME Terminal or Konsole, or set TERMINAL. The command is: %1</source>
        <translation>No se ha encontrado ningún emulador de terminal: instale xterm, GNOME Terminal o Konsole, o defina TERMINAL. La orden es: %1</translation>
    </message>
    <message>
        <source>The terminal %1 could not be started.</source>
        <translation>No se ha podido iniciar el terminal %1.</translation>
    </message>
    <message>
        <source>[ended with status %1: press Enter to close this window]</source>
        <translation>[terminó con el código %1: pulse Intro para cerrar esta ventana]</translation>
    </message>
    <message>
        <source>%1: agent</source>
        <translation>%1: agente</translation>
    </message>
    <message>
        <source>%1: shell</source>
        <translation>%1: shell</translation>
    </message>
    <message>
        <source>Listing the sessions of %1 took too long.</source>
        <translation>Listar las sesiones de %1 tardó demasiado.</translation>
    </message>
    <message>
        <source>%1 could not be started.</source>
        <translation>No se pudo iniciar %1.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::UpstreamProxySettings</name>
    <message>
        <source>Reading the settings…</source>
        <translation>Leyendo los ajustes…</translation>
    </message>
    <message>
        <source>None: connections that are allowed go straight out.</source>
        <translation>Ninguno: las conexiones permitidas salen directamente.</translation>
    </message>
    <message>
        <source>, with a password from the keychain</source>
        <translation>, con una contraseña del llavero</translation>
    </message>
    <message>
        <source>Allowed connections go out through %1 (from %2%3).</source>
        <translation>Las conexiones permitidas salen a través de %1 (según %2%3).</translation>
    </message>
    <message>
        <source>Saved: in force for every connection from now on.</source>
        <translation>Guardado: en vigor para cada conexión a partir de ahora.</translation>
    </message>
    <message>
        <source>The password is removed from the keychain.</source>
        <translation>La contraseña se ha eliminado del llavero.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::WizardShares</name>
    <message>
        <source>%1 → %2 (%3)</source>
        <translation>%1 → %2 (%3)</translation>
    </message>
    <message>
        <source>read-write</source>
        <translation>lectura y escritura</translation>
    </message>
    <message>
        <source>read-only</source>
        <translation>solo lectura</translation>
    </message>
    <message>
        <source>Shares: %1</source>
        <translation>Compartido: %1</translation>
    </message>
    <message>
        <source>give a value: NAME=VALUE</source>
        <translation>indique un valor: NAME=VALUE</translation>
    </message>
</context>
<context>
    <name>KitNetworkPolicyLists</name>
    <message>
        <source>%1, group %2</source>
        <translation>%1, grupo %2</translation>
    </message>
    <message>
        <source>%1, group</source>
        <translation>%1, grupo</translation>
    </message>
    <message>
        <source>While the agent runs</source>
        <translation>Mientras el agente se ejecuta</translation>
    </message>
    <message>
        <source>Allowed</source>
        <translation>Permitidos</translation>
    </message>
    <message>
        <source>Denied</source>
        <translation>Denegados</translation>
    </message>
    <message>
        <source>While the kit installs</source>
        <translation>Mientras se instala el kit</translation>
    </message>
    <message>
        <source>Only while the kit installs: its install commands reach these hosts when a sandbox is made. The agent never gets them.</source>
        <translation>Solo mientras se instala el kit: sus comandos de instalación llegan a estos hosts cuando se crea un sandbox. El agente nunca los obtiene.</translation>
    </message>
    <message>
        <source>Allowed while installing</source>
        <translation>Permitidos durante la instalación</translation>
    </message>
    <message>
        <source>Denied while installing</source>
        <translation>Denegados durante la instalación</translation>
    </message>
</context>
</TS>
