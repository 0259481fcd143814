<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr_FR">
<context>
    <name>AboutDialog</name>
    <message>
        <source>About Paddock</source>
        <translation>À propos de Paddock</translation>
    </message>
    <message>
        <source>Paddock %1</source>
        <translation>Paddock %1</translation>
    </message>
    <message>
        <source>Runs coding agents in sandboxes whose only way out is a proxy that lets through the domains you allow.</source>
        <translation>Exécute des agents de programmation dans des bacs à sable dont la seule sortie est un proxy qui ne laisse passer que les domaines que vous autorisez.</translation>
    </message>
    <message>
        <source>Free software under the GNU General Public License, version 3 or later.</source>
        <translation>Logiciel libre sous licence publique générale GNU, version 3 ou ultérieure.</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fermer</translation>
    </message>
</context>
<context>
    <name>ClassroomPage</name>
    <message>
        <source>Classroom</source>
        <translation>Classe</translation>
    </message>
    <message>
        <source>One kit and one network policy, shared with a whole class.</source>
        <translation>Un kit et une politique réseau, partagés avec toute une classe.</translation>
    </message>
    <message>
        <source>Classroom tools are not available yet</source>
        <translation>Les outils pour la classe ne sont pas encore disponibles</translation>
    </message>
    <message>
        <source>This page will bundle a kit and its network policy for students to import, then run a checklist that proves each sandbox works.</source>
        <translation>Cette page regroupera un kit et sa politique réseau pour que les élèves les importent, puis vérifiera point par point que chaque bac à sable fonctionne.</translation>
    </message>
    <message>
        <source>Check the kit in folder DIR before you share it with students.</source>
        <translation>Vérifier le kit du dossier DIR avant de le partager avec les élèves.</translation>
    </message>
</context>
<context>
    <name>CommandHint</name>
    <message>
        <source>Copied</source>
        <translation>Copié</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copier</translation>
    </message>
    <message>
        <source>Copy the command %1</source>
        <translation>Copier la commande %1</translation>
    </message>
    <message>
        <source>Copy to the clipboard</source>
        <translation>Copier dans le presse-papiers</translation>
    </message>
</context>
<context>
    <name>EmptyState</name>
    <message>
        <source>Available today from a terminal:</source>
        <translation>Disponible dès aujourd’hui dans un terminal :</translation>
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
        <translation>Les recettes qui disent quel agent s’exécute dans un bac à sable, ce qu’il peut joindre et de quelles clés il a besoin.</translation>
    </message>
    <message>
        <source>The kit library is not available yet</source>
        <translation>La bibliothèque de kits n’est pas encore disponible</translation>
    </message>
    <message>
        <source>This page will list your kits, show what each one allows and check them for mistakes before you use them.</source>
        <translation>Cette page listera vos kits, montrera ce que chacun autorise et les vérifiera avant que vous ne les utilisiez.</translation>
    </message>
    <message>
        <source>Check the kit in folder DIR and report each error with its file, line and column.</source>
        <translation>Vérifier le kit du dossier DIR et signaler chaque erreur avec son fichier, sa ligne et sa colonne.</translation>
    </message>
    <message>
        <source>Show what the kit in folder DIR contains: its agent, allowed domains and credentials.</source>
        <translation>Afficher le contenu du kit du dossier DIR : son agent, ses domaines autorisés et ses identifiants.</translation>
    </message>
</context>
<context>
    <name>Main</name>
    <message>
        <source>Sandboxes</source>
        <translation>Bacs à sable</translation>
    </message>
    <message>
        <source>Kits</source>
        <translation>Kits</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>Réseau</translation>
    </message>
    <message>
        <source>Secrets</source>
        <translation>Secrets</translation>
    </message>
    <message>
        <source>Classroom</source>
        <translation>Classe</translation>
    </message>
</context>
<context>
    <name>NavigationButton</name>
    <message>
        <source>Shortcut: %1</source>
        <translation>Raccourci : %1</translation>
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
        <translation>Pages</translation>
    </message>
    <message>
        <source>Paddock</source>
        <translation>Paddock</translation>
    </message>
    <message>
        <source>About</source>
        <translation>À propos</translation>
    </message>
    <message>
        <source>About Paddock</source>
        <translation>À propos de Paddock</translation>
    </message>
</context>
<context>
    <name>NetworkPage</name>
    <message>
        <source>Network</source>
        <translation>Réseau</translation>
    </message>
    <message>
        <source>Which domains sandboxes may reach, and the connections that were refused.</source>
        <translation>Les domaines que les bacs à sable peuvent joindre, et les connexions qui ont été refusées.</translation>
    </message>
    <message>
        <source>Network rules are not available yet</source>
        <translation>Les règles réseau ne sont pas encore disponibles</translation>
    </message>
    <message>
        <source>This page will show the allowlist and every refused connection as it happens, and allow a blocked domain in one click.</source>
        <translation>Cette page affichera la liste des domaines autorisés et chaque connexion refusée en direct, et autorisera un domaine bloqué en un clic.</translation>
    </message>
    <message>
        <source>Allow a domain such as api.example.com or *.example.com in the kit in folder DIR.</source>
        <translation>Autoriser un domaine comme api.example.com ou *.example.com dans le kit du dossier DIR.</translation>
    </message>
</context>
<context>
    <name>SandboxesPage</name>
    <message>
        <source>Sandboxes</source>
        <translation>Bacs à sable</translation>
    </message>
    <message>
        <source>Coding agents running in sandboxes on your project folders.</source>
        <translation>Les agents de programmation qui travaillent dans des bacs à sable sur vos dossiers de projet.</translation>
    </message>
    <message>
        <source>Sandboxes are not available yet</source>
        <translation>Les bacs à sable ne sont pas encore disponibles</translation>
    </message>
    <message>
        <source>This page will start a coding agent in a sandbox on a project folder and list the running sandboxes, so you can open, stop or remove them.</source>
        <translation>Cette page lancera un agent de programmation dans un bac à sable sur un dossier de projet et listera les bacs à sable en cours, pour que vous puissiez les ouvrir, les arrêter ou les supprimer.</translation>
    </message>
    <message>
        <source>Check whether paddockd, the background service that will run the sandboxes, is running.</source>
        <translation>Vérifier si paddockd, le service d’arrière-plan qui fera tourner les bacs à sable, est lancé.</translation>
    </message>
</context>
<context>
    <name>SecretsPage</name>
    <message>
        <source>Secrets</source>
        <translation>Secrets</translation>
    </message>
    <message>
        <source>Provider API keys, kept in the system keychain and never copied into a sandbox.</source>
        <translation>Les clés d’API des fournisseurs, gardées dans le trousseau du système et jamais copiées dans un bac à sable.</translation>
    </message>
    <message>
        <source>Secrets are not available yet</source>
        <translation>Les secrets ne sont pas encore disponibles</translation>
    </message>
    <message>
        <source>This page will store provider API keys in the system keychain and let you choose which kits may use each one.</source>
        <translation>Cette page enregistrera les clés d’API des fournisseurs dans le trousseau du système et vous laissera choisir quels kits peuvent utiliser chacune.</translation>
    </message>
    <message>
        <source>There is no command for this yet.</source>
        <translation>Il n’existe pas encore de commande pour cela.</translation>
    </message>
</context>
<context>
    <name>StatusFooter</name>
    <message>
        <source>Daemon connected, version %1</source>
        <translation>Service connecté, version %1</translation>
    </message>
    <message>
        <source>Daemon connected</source>
        <translation>Service connecté</translation>
    </message>
    <message>
        <source>Looking for the daemon…</source>
        <translation>Recherche du service…</translation>
    </message>
    <message>
        <source>Daemon not connected</source>
        <translation>Service non connecté</translation>
    </message>
    <message>
        <source>Check again</source>
        <translation>Vérifier à nouveau</translation>
    </message>
    <message>
        <source>Check the daemon connection again</source>
        <translation>Vérifier à nouveau la connexion au service</translation>
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
        <translation>La connexion à paddockd s’est fermée.</translation>
    </message>
</context>
</TS>
