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
    <name>ClassroomPage</name>
    <message>
        <source>Classroom</source>
        <translation>Aula</translation>
    </message>
    <message>
        <source>One kit and one network policy, shared with a whole class.</source>
        <translation>Un kit y una política de red, compartidos con toda una clase.</translation>
    </message>
    <message>
        <source>Classroom tools are not available yet</source>
        <translation>Las herramientas para el aula aún no están disponibles</translation>
    </message>
    <message>
        <source>This page will bundle a kit and its network policy for students to import, then run a checklist that proves each sandbox works.</source>
        <translation>Esta página empaquetará un kit y su política de red para que los estudiantes los importen, y luego comprobará punto por punto que cada entorno aislado funciona.</translation>
    </message>
    <message>
        <source>Check the kit in folder DIR before you share it with students.</source>
        <translation>Comprobar el kit de la carpeta DIR antes de compartirlo con los estudiantes.</translation>
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
    <name>EmptyState</name>
    <message>
        <source>Available today from a terminal:</source>
        <translation>Disponible hoy desde un terminal:</translation>
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
        <source>The kit library is not available yet</source>
        <translation>La biblioteca de kits aún no está disponible</translation>
    </message>
    <message>
        <source>This page will list your kits, show what each one allows and check them for mistakes before you use them.</source>
        <translation>Esta página mostrará sus kits, lo que permite cada uno, y los revisará en busca de errores antes de que los use.</translation>
    </message>
    <message>
        <source>Check the kit in folder DIR and report each error with its file, line and column.</source>
        <translation>Comprobar el kit de la carpeta DIR e indicar cada error con su archivo, línea y columna.</translation>
    </message>
    <message>
        <source>Show what the kit in folder DIR contains: its agent, allowed domains and credentials.</source>
        <translation>Mostrar el contenido del kit de la carpeta DIR: su agente, sus dominios permitidos y sus credenciales.</translation>
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
        <source>Network rules are not available yet</source>
        <translation>Las reglas de red aún no están disponibles</translation>
    </message>
    <message>
        <source>This page will show the allowlist and every refused connection as it happens, and allow a blocked domain in one click.</source>
        <translation>Esta página mostrará la lista de dominios permitidos y cada conexión rechazada en el momento en que ocurra, y permitirá un dominio bloqueado con un clic.</translation>
    </message>
    <message>
        <source>Allow a domain such as api.example.com or *.example.com in the kit in folder DIR.</source>
        <translation>Permitir un dominio como api.example.com o *.example.com en el kit de la carpeta DIR.</translation>
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
        <source>Sandboxes are not available yet</source>
        <translation>Los entornos aislados aún no están disponibles</translation>
    </message>
    <message>
        <source>This page will start a coding agent in a sandbox on a project folder and list the running sandboxes, so you can open, stop or remove them.</source>
        <translation>Esta página iniciará un agente de programación en un entorno aislado sobre una carpeta de proyecto y mostrará los entornos en ejecución para que pueda abrirlos, detenerlos o eliminarlos.</translation>
    </message>
    <message>
        <source>Check whether paddockd, the background service that will run the sandboxes, is running.</source>
        <translation>Comprobar si paddockd, el servicio en segundo plano que ejecutará los entornos aislados, está en marcha.</translation>
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
        <source>Secrets are not available yet</source>
        <translation>Los secretos aún no están disponibles</translation>
    </message>
    <message>
        <source>This page will store provider API keys in the system keychain and let you choose which kits may use each one.</source>
        <translation>Esta página guardará las claves de API de los proveedores en el llavero del sistema y le permitirá elegir qué kits pueden usar cada una.</translation>
    </message>
    <message>
        <source>There is no command for this yet.</source>
        <translation>Todavía no hay ninguna orden para esto.</translation>
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
    <name>paddock::gui::DaemonStatus</name>
    <message>
        <source>The connection to paddockd closed.</source>
        <translation>La conexión con paddockd se cerró.</translation>
    </message>
</context>
</TS>
