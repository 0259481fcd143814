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
    <name>ActivityBar</name>
    <message>
        <source>%1: %2 allowed, %3 refused</source>
        <translation>%1 : %2 autorisées, %3 refusées</translation>
    </message>
</context>
<context>
    <name>ActivityHostRow</name>
    <message>
        <source>%1: %2 allowed, %3 refused</source>
        <translation>%1 : %2 autorisées, %3 refusées</translation>
    </message>
    <message>
        <source>%1 allowed · %2 refused</source>
        <translation>%1 autorisées · %2 refusées</translation>
    </message>
    <message>
        <source>Allow…</source>
        <translation>Autoriser…</translation>
    </message>
    <message>
        <source>Allow %1</source>
        <translation>Autoriser %1</translation>
    </message>
</context>
<context>
    <name>ActivitySection</name>
    <message>
        <source>Activity</source>
        <translation>Activité</translation>
    </message>
    <message>
        <source>All sandboxes</source>
        <translation>Tous les bacs à sable</translation>
    </message>
    <message>
        <source>Activity of sandbox</source>
        <translation>Activité du bac à sable</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>Dernière heure</translation>
    </message>
    <message>
        <source>Last day</source>
        <translation>Dernier jour</translation>
    </message>
    <message>
        <source>%1 allowed · %2 refused</source>
        <translation>%1 autorisées · %2 refusées</translation>
    </message>
    <message>
        <source>Connections over time: %1 allowed, %2 refused</source>
        <translation>Connexions dans le temps : %1 autorisées, %2 refusées</translation>
    </message>
    <message>
        <source>No connections in the last hour.</source>
        <translation>Aucune connexion dans la dernière heure.</translation>
    </message>
    <message>
        <source>No connections in the last day.</source>
        <translation>Aucune connexion dans le dernier jour.</translation>
    </message>
    <message>
        <source>allowed</source>
        <translation>autorisées</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>refusées</translation>
    </message>
    <message>
        <source>now</source>
        <translation>maintenant</translation>
    </message>
    <message>
        <source>Top destinations</source>
        <translation>Principales destinations</translation>
    </message>
    <message numerus="yes">
        <source>%n more destination(s) not shown. </source>
        <translation>
            <numerusform>%n autre destination non affichée. </numerusform>
            <numerusform>%n autres destinations non affichées. </numerusform>
        </translation>
    </message>
    <message>
        <source>Bytes are counted for allowed connections; a refused one carries none.</source>
        <translation>Les octets sont comptés pour les connexions autorisées ; une connexion refusée n’en transporte aucun.</translation>
    </message>
</context>
<context>
    <name>AgentAllowDialog</name>
    <message>
        <source>Allow %1</source>
        <translation>Autoriser %1</translation>
    </message>
    <message>
        <source>In this sandbox&apos;s project file (its workspace)</source>
        <translation>Dans le fichier du projet de ce bac à sable (son espace de travail)</translation>
    </message>
    <message>
        <source>In the kit (and its running sandboxes)</source>
        <translation>Dans le kit (et ses bacs à sable en cours)</translation>
    </message>
    <message>
        <source>Rule: %1</source>
        <translation>Règle : %1</translation>
    </message>
    <message>
        <source>Working out the change…</source>
        <translation>Calcul de la modification…</translation>
    </message>
    <message>
        <source>From a terminal: paddock agent-perms allow %1 --where %2</source>
        <translation>Dans un terminal : paddock agent-perms allow %1 --where %2</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>Write these lines</source>
        <translation>Écrire ces lignes</translation>
    </message>
</context>
<context>
    <name>AgentPermissionsPane</name>
    <message>
        <source>%1 (no file yet: a rule added creates it)</source>
        <translation>%1 (pas encore de fichier : ajouter une règle le crée)</translation>
    </message>
    <message>
        <source>Checked against the schema of pi-permission-system %1. Within a surface the last matching pattern wins; across surfaces the most restrictive answer does.</source>
        <translation>Vérifié selon le schéma de pi-permission-system %1. Dans une surface, le dernier motif qui correspond l’emporte ; entre surfaces, la réponse la plus restrictive l’emporte.</translation>
    </message>
    <message>
        <source>No rules in this file.</source>
        <translation>Aucune règle dans ce fichier.</translation>
    </message>
    <message>
        <source>Surface</source>
        <translation>Surface</translation>
    </message>
    <message>
        <source>Pattern, e.g. rm -rf * or *.env (empty: the whole surface)</source>
        <translation>Motif, par ex. rm -rf * ou *.env (vide : toute la surface)</translation>
    </message>
    <message>
        <source>Pattern</source>
        <translation>Motif</translation>
    </message>
    <message>
        <source>State</source>
        <translation>État</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Ajouter</translation>
    </message>
    <message>
        <source>What happens for… bash: rm -rf game · read: .env · external_directory: ~/.ssh/id_rsa</source>
        <translation>Que se passe-t-il pour… bash: rm -rf game · read: .env · external_directory: ~/.ssh/id_rsa</translation>
    </message>
    <message>
        <source>Call to test</source>
        <translation>Appel à tester</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>Tester</translation>
    </message>
    <message>
        <source> by the %1 rule %2</source>
        <translation> par la règle %1 %2</translation>
    </message>
    <message>
        <source>%1: %2%3</source>
        <translation>%1 : %2%3</translation>
    </message>
</context>
<context>
    <name>AgentRefusalRow</name>
    <message>
        <source>Agent %1: %2 %3 in sandbox %4</source>
        <translation>Agent %1 : %2 %3 dans le bac à sable %4</translation>
    </message>
    <message>
        <source>denied</source>
        <translation>refusé</translation>
    </message>
    <message>
        <source>asked</source>
        <translation>demandé</translation>
    </message>
    <message>
        <source>Agent · sandbox %1 · %2</source>
        <translation>Agent · bac à sable %1 · %2</translation>
    </message>
    <message>
        <source>rule unknown</source>
        <translation>règle inconnue</translation>
    </message>
    <message>
        <source>× %1</source>
        <translation>× %1</translation>
    </message>
    <message>
        <source>Allow…</source>
        <translation>Autoriser…</translation>
    </message>
    <message>
        <source>Allow %1: %2</source>
        <translation>Autoriser %1 : %2</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Ignorer</translation>
    </message>
    <message>
        <source>Dismiss %1: %2</source>
        <translation>Ignorer %1 : %2</translation>
    </message>
</context>
<context>
    <name>AgentRuleRow</name>
    <message>
        <source>* (every tool without its own rule)</source>
        <translation>* (tout outil sans règle propre)</translation>
    </message>
    <message>
        <source>Drag to move %1</source>
        <translation>Glisser pour déplacer %1</translation>
    </message>
    <message>
        <source>(every value)</source>
        <translation>(toute valeur)</translation>
    </message>
    <message>
        <source>State of %1</source>
        <translation>État de %1</translation>
    </message>
    <message>
        <source>Move %1 up</source>
        <translation>Monter %1</translation>
    </message>
    <message>
        <source>Move %1 down</source>
        <translation>Descendre %1</translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation>Supprimer %1</translation>
    </message>
    <message>
        <source>Line %1: %2</source>
        <translation>Ligne %1 : %2</translation>
    </message>
</context>
<context>
    <name>AllowChoices</name>
    <message>
        <source>Where</source>
        <translation>Où</translation>
    </message>
    <message>
        <source>This sandbox (%1)</source>
        <translation>Ce bac à sable (%1)</translation>
    </message>
    <message>
        <source>The kit&apos;s spec.yaml (%1)</source>
        <translation>Le spec.yaml du kit (%1)</translation>
    </message>
    <message>
        <source>Every sandbox</source>
        <translation>Tous les bacs à sable</translation>
    </message>
    <message>
        <source>What</source>
        <translation>Quoi</translation>
    </message>
    <message>
        <source>This host on this port: %1</source>
        <translation>Cet hôte sur ce port : %1</translation>
    </message>
    <message>
        <source>This host on any port: %1</source>
        <translation>Cet hôte sur n’importe quel port : %1</translation>
    </message>
    <message>
        <source>Every name one level under the domain: %1</source>
        <translation>Tous les noms un niveau sous le domaine : %1</translation>
    </message>
    <message>
        <source>Every name one level under the domain (not possible for this host)</source>
        <translation>Tous les noms un niveau sous le domaine (impossible pour cet hôte)</translation>
    </message>
    <message>
        <source>The whole domain, at any depth: %1</source>
        <translation>Le domaine entier, à toute profondeur : %1</translation>
    </message>
    <message>
        <source>The whole domain, at any depth (not possible for this host)</source>
        <translation>Le domaine entier, à toute profondeur (impossible pour cet hôte)</translation>
    </message>
</context>
<context>
    <name>AskPrompt</name>
    <message>
        <source>A connection waits for your answer</source>
        <translation>Une connexion attend votre réponse</translation>
    </message>
    <message>
        <source>Destination %1</source>
        <translation>Destination %1</translation>
    </message>
    <message>
        <source>Sandbox %1 is in ask mode and no rule covers this destination.</source>
        <translation>Le bac à sable %1 demande avant de se connecter, et aucune règle ne couvre cette destination.</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>Bac à sable</translation>
    </message>
    <message>
        <source>Kit</source>
        <translation>Kit</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucun</translation>
    </message>
    <message>
        <source>Protocol</source>
        <translation>Protocole</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>En attente</translation>
    </message>
    <message numerus="yes">
        <source>%n connection(s)</source>
        <translation>
            <numerusform>%n connexion</numerusform>
            <numerusform>%n connexions</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Refused in %n second(s) unless you answer.</source>
        <translation>
            <numerusform>Refusée dans %n seconde sans votre réponse.</numerusform>
            <numerusform>Refusée dans %n secondes sans votre réponse.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n more waiting after this one.</source>
        <translation>
            <numerusform>%n autre en attente après celle-ci.</numerusform>
            <numerusform>%n autres en attente après celle-ci.</numerusform>
        </translation>
    </message>
    <message>
        <source>The same from a terminal:</source>
        <translation>La même chose dans un terminal :</translation>
    </message>
    <message>
        <source>Allow once</source>
        <translation>Autoriser une fois</translation>
    </message>
    <message>
        <source>Allow %1 this time only</source>
        <translation>Autoriser %1 cette fois seulement</translation>
    </message>
    <message>
        <source>Allow…</source>
        <translation>Autoriser…</translation>
    </message>
    <message>
        <source>Allow %1 with a rule</source>
        <translation>Autoriser %1 par une règle</translation>
    </message>
    <message>
        <source>Allow</source>
        <translation>Autoriser</translation>
    </message>
    <message>
        <source>Allow %1 as chosen</source>
        <translation>Autoriser %1 comme choisi</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>Retour</translation>
    </message>
    <message>
        <source>Deny once</source>
        <translation>Refuser une fois</translation>
    </message>
    <message>
        <source>Deny %1 this time only</source>
        <translation>Refuser %1 cette fois seulement</translation>
    </message>
    <message>
        <source>Deny always</source>
        <translation>Toujours refuser</translation>
    </message>
    <message>
        <source>Deny %1 for sandbox %2 from now on</source>
        <translation>Refuser désormais %1 pour le bac à sable %2</translation>
    </message>
    <message>
        <source>Program</source>
        <translation>Programme</translation>
    </message>
    <message>
        <source>not known</source>
        <translation>inconnu</translation>
    </message>
    <message>
        <source>Written inside the sandbox (%1): not the sandbox&apos;s own %2, whatever its name says</source>
        <translation>Écrit dans le bac à sable (%1) : ce n’est pas le %2 propre au bac à sable, quoi que dise son nom</translation>
    </message>
</context>
<context>
    <name>BackendChoice</name>
    <message>
        <source>Backend</source>
        <translation>Moteur</translation>
    </message>
    <message>
        <source>bubblewrap: starts in a moment, nothing else to install</source>
        <translation>bubblewrap : démarre en un instant, rien d’autre à installer</translation>
    </message>
    <message>
        <source>bubblewrap backend</source>
        <translation>Moteur bubblewrap</translation>
    </message>
    <message>
        <source>Docker: runs the kit&apos;s image in a container</source>
        <translation>Docker : exécute l’image du kit dans un conteneur</translation>
    </message>
    <message>
        <source>Docker backend</source>
        <translation>Moteur Docker</translation>
    </message>
    <message>
        <source>Docker + gVisor: the image in a container with a kernel of its own, slower to start</source>
        <translation>Docker + gVisor : l’image dans un conteneur avec son propre noyau, plus lent à démarrer</translation>
    </message>
    <message>
        <source>Docker backend with gVisor isolation</source>
        <translation>Moteur Docker avec l’isolation gVisor</translation>
    </message>
    <message>
        <source>Not available: %1</source>
        <translation>Indisponible : %1</translation>
    </message>
    <message>
        <source>What does each level protect?</source>
        <translation>Que protège chaque niveau ?</translation>
    </message>
    <message>
        <source>What each isolation level protects</source>
        <translation>Ce que protège chaque niveau d’isolation</translation>
    </message>
    <message>
        <source>this computer</source>
        <translation>cet ordinateur</translation>
    </message>
    <message>
        <source>another computer</source>
        <translation>un autre ordinateur</translation>
    </message>
    <message>
        <source>%1 (in use) — %2, %3</source>
        <translation>%1 (utilisé) — %2, %3</translation>
    </message>
    <message>
        <source>%1 — %2, %3</source>
        <translation>%1 — %2, %3</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>Moteur</translation>
    </message>
    <message>
        <source>Container engine</source>
        <translation>Moteur de conteneurs</translation>
    </message>
    <message>
        <source>%1 is on another computer: the sandbox gets a clone of the workspace (its committed files), not the folder itself. Its commits come back as branches paddock/NAME/… of your repository; files not committed stay here. It cannot share folders of this computer.</source>
        <translation>%1 est sur un autre ordinateur : le bac à sable reçoit un clone de l&apos;espace de travail (ses fichiers validés), pas le dossier lui-même. Ses commits reviennent comme branches paddock/NOM/… de votre dépôt ; les fichiers non validés restent ici. Il ne peut partager aucun dossier de cet ordinateur.</translation>
    </message>
    <message>
        <source>The kit is composed with mixins: the Docker engine builds their layers over the kit&apos;s image, once for these kits.</source>
        <translation>Le kit est composé avec des mixins : le moteur Docker construit leurs couches par-dessus l’image du kit, une seule fois pour ces kits.</translation>
    </message>
</context>
<context>
    <name>BindingDialog</name>
    <message>
        <source>Allow this kit to use your keys?</source>
        <translation>Autoriser ce kit à utiliser vos clés ?</translation>
    </message>
    <message>
        <source>The kit %1 asks Paddock to add your keys to its requests to these domains. The keys stay on this computer; the proxy adds them on the way out.</source>
        <translation>Le kit %1 demande à Paddock d’ajouter vos clés à ses requêtes vers ces domaines. Les clés restent sur cet ordinateur ; le proxy les ajoute au passage.</translation>
    </message>
    <message>
        <source>Credential %1 of %2 in the kit %3.</source>
        <translation>Identifiant %1 sur %2 du kit %3.</translation>
    </message>
    <message>
        <source>%1 (required)</source>
        <translation>%1 (obligatoire)</translation>
    </message>
    <message>
        <source>%1 (optional)</source>
        <translation>%1 (facultatif)</translation>
    </message>
    <message>
        <source>Sent to: %1</source>
        <translation>Envoyé à : %1</translation>
    </message>
    <message>
        <source>Warning: a wildcard domain sends this key to every host it matches, not to one server.</source>
        <translation>Attention : un domaine générique envoie cette clé à tous les hôtes qu’il couvre, et non à un seul serveur.</translation>
    </message>
    <message>
        <source>Approve all</source>
        <translation>Tout approuver</translation>
    </message>
    <message>
        <source>Approve all credentials</source>
        <translation>Approuver tous les identifiants</translation>
    </message>
    <message>
        <source>Review each</source>
        <translation>Examiner un par un</translation>
    </message>
    <message>
        <source>Review each credential</source>
        <translation>Examiner chaque identifiant</translation>
    </message>
    <message>
        <source>Approve</source>
        <translation>Approuver</translation>
    </message>
    <message>
        <source>Approve this credential</source>
        <translation>Approuver cet identifiant</translation>
    </message>
    <message>
        <source>Skip</source>
        <translation>Passer</translation>
    </message>
    <message>
        <source>Do not approve this credential</source>
        <translation>Ne pas approuver cet identifiant</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>Refuser</translation>
    </message>
    <message>
        <source>Deny: approve nothing</source>
        <translation>Refuser : ne rien approuver</translation>
    </message>
</context>
<context>
    <name>BundleExportDialog</name>
    <message>
        <source>Export a bundle of %1</source>
        <translation>Exporter un paquet de %1</translation>
    </message>
    <message>
        <source>Choose the notes shown to students</source>
        <translation>Choisir les notes montrées aux étudiants</translation>
    </message>
    <message>
        <source>Text files (*.txt *.md)</source>
        <translation>Fichiers texte (*.txt *.md)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>Save the bundle as</source>
        <translation>Enregistrer le paquet sous</translation>
    </message>
    <message>
        <source>Paddock bundles (*.paddock)</source>
        <translation>Paquets Paddock (*.paddock)</translation>
    </message>
    <message>
        <source>A bundle holds the kit and the list of keys students provide (names only, never a value). Students import it on their Classroom page.</source>
        <translation>Un paquet contient le kit et la liste des clés que les étudiants fournissent (les noms seulement, jamais une valeur). Les étudiants l’importent sur leur page Classe.</translation>
    </message>
    <message>
        <source>Include the network policy: its preset and your global rules</source>
        <translation>Inclure la politique réseau : son préréglage et vos règles globales</translation>
    </message>
    <message>
        <source>Include the network policy</source>
        <translation>Inclure la politique réseau</translation>
    </message>
    <message>
        <source>Notes for students (optional)</source>
        <translation>Notes pour les étudiants (facultatif)</translation>
    </message>
    <message>
        <source>A text file shown on import</source>
        <translation>Un fichier texte montré à l’importation</translation>
    </message>
    <message>
        <source>Notes file</source>
        <translation>Fichier de notes</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Choisir…</translation>
    </message>
    <message>
        <source>Choose the notes file</source>
        <translation>Choisir le fichier de notes</translation>
    </message>
    <message>
        <source>Bundle file</source>
        <translation>Fichier du paquet</translation>
    </message>
    <message>
        <source>Choose where to save the bundle</source>
        <translation>Choisir où enregistrer le paquet</translation>
    </message>
    <message>
        <source>The same from a terminal.</source>
        <translation>La même chose dans un terminal.</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exporter</translation>
    </message>
    <message>
        <source>Write the bundle</source>
        <translation>Écrire le paquet</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fermer</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>ClassroomPage</name>
    <message>
        <source>Classroom</source>
        <translation>Classe</translation>
    </message>
    <message>
        <source>Choose a Paddock bundle</source>
        <translation>Choisir un paquet Paddock</translation>
    </message>
    <message>
        <source>Paddock bundles (*.paddock)</source>
        <translation>Paquets Paddock (*.paddock)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>1. Import a bundle</source>
        <translation>1. Importer un paquet</translation>
    </message>
    <message>
        <source>A bundle (.paddock file) holds a kit, the network rules of the course and the list of keys you will need. Nothing is written before you press Import.</source>
        <translation>Un paquet (fichier .paddock) contient un kit, les règles réseau du cours et la liste des clés dont vous aurez besoin. Rien n’est écrit avant que vous n’appuyiez sur Importer.</translation>
    </message>
    <message>
        <source>No bundle opened yet</source>
        <translation>Aucun paquet ouvert pour l’instant</translation>
    </message>
    <message>
        <source>Your teacher gives you one .paddock file. Choose it below: Paddock shows everything the import would change before anything is written.</source>
        <translation>Votre enseignant vous donne un fichier .paddock. Choisissez-le ci-dessous : Paddock affiche tout ce que l’import modifierait avant d’écrire quoi que ce soit.</translation>
    </message>
    <message>
        <source>Preview a bundle from a terminal.</source>
        <translation>Prévisualiser un paquet dans un terminal.</translation>
    </message>
    <message>
        <source>Choose a bundle…</source>
        <translation>Choisir un paquet…</translation>
    </message>
    <message>
        <source>Choose a bundle file</source>
        <translation>Choisir un fichier de paquet</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Importer</translation>
    </message>
    <message>
        <source>Import the bundle</source>
        <translation>Importer le paquet</translation>
    </message>
    <message>
        <source>What the import will change</source>
        <translation>Ce que l’import va modifier</translation>
    </message>
    <message>
        <source>2. Check a sandbox</source>
        <translation>2. Vérifier un bac à sable</translation>
    </message>
    <message>
        <source>With the sandbox running, the checklist proves that the key stays outside, that an unlisted domain is refused and logged, that your edits reach your project, and that no refusal surprised the policy.</source>
        <translation>Pendant que le bac à sable tourne, la liste de vérification prouve que la clé reste à l’extérieur, qu’un domaine non listé est refusé et journalisé, que vos modifications atteignent votre projet et qu’aucun refus n’a pris la politique au dépourvu.</translation>
    </message>
    <message>
        <source>Sandbox to check</source>
        <translation>Bac à sable à vérifier</translation>
    </message>
    <message>
        <source>Run the checks</source>
        <translation>Lancer les vérifications</translation>
    </message>
    <message>
        <source>Run the checks on the sandbox</source>
        <translation>Lancer les vérifications sur le bac à sable</translation>
    </message>
    <message>
        <source>The same from a terminal.</source>
        <translation>La même chose dans un terminal.</translation>
    </message>
    <message>
        <source>Import the bundle your teacher shared, create your sandbox, then check that it works.</source>
        <translation>Importez le paquet que votre enseignant a partagé, créez votre bac à sable, puis vérifiez qu’il fonctionne.</translation>
    </message>
    <message>
        <source>%1 is running; its agent opens in a terminal (&apos;%2&apos; joins it again).</source>
        <translation>%1 est en cours d’exécution ; son agent s’ouvre dans un terminal (« %2 » le rejoint plus tard).</translation>
    </message>
    <message>
        <source>%1 is running. No terminal emulator was found: &apos;%2&apos; in a terminal opens its agent.</source>
        <translation>%1 est en cours d’exécution. Aucun émulateur de terminal n’a été trouvé : « %2 » dans un terminal ouvre son agent.</translation>
    </message>
    <message>
        <source>2. Create your sandbox</source>
        <translation>2. Créer votre bac à sable</translation>
    </message>
    <message>
        <source>The kit %1 runs the course&apos;s agent on a project folder of yours. Paddock asks for the keys it needs, then starts it and opens the agent in a terminal.</source>
        <translation>Le kit %1 fait tourner l’agent du cours sur un dossier de projet à vous. Paddock demande les clés dont il a besoin, puis le démarre et ouvre l’agent dans un terminal.</translation>
    </message>
    <message>
        <source>Create my sandbox…</source>
        <translation>Créer mon bac à sable…</translation>
    </message>
    <message>
        <source>Create a sandbox of the kit %1</source>
        <translation>Créer un bac à sable du kit %1</translation>
    </message>
    <message>
        <source>Sandboxes are made by the daemon, which is not connected.</source>
        <translation>Les bacs à sable sont créés par le service, qui n’est pas connecté.</translation>
    </message>
    <message>
        <source>3. Check your sandbox</source>
        <translation>3. Vérifier votre bac à sable</translation>
    </message>
    <message>
        <source>No sandbox of the kit %1 is running</source>
        <translation>Aucun bac à sable du kit %1 n’est en cours d’exécution</translation>
    </message>
    <message>
        <source>No sandbox is running</source>
        <translation>Aucun bac à sable n’est en cours d’exécution</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>réussie</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>échouée</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>ignorée</translation>
    </message>
</context>
<context>
    <name>ClassroomSandboxDialog</name>
    <message>
        <source>Create my sandbox</source>
        <translation>Créer mon bac à sable</translation>
    </message>
    <message>
        <source>Create my sandbox: %1</source>
        <translation>Créer mon bac à sable : %1</translation>
    </message>
    <message>
        <source>1. Your project folder</source>
        <translation>1. Votre dossier de projet</translation>
    </message>
    <message>
        <source>2. Keys and approvals</source>
        <translation>2. Clés et approbations</translation>
    </message>
    <message>
        <source>3. The image</source>
        <translation>3. L’image</translation>
    </message>
    <message>
        <source>4. Create and start</source>
        <translation>4. Créer et démarrer</translation>
    </message>
    <message>
        <source>The folder of your project: the agent reads and changes the files in it, and nothing else of yours.</source>
        <translation>Le dossier de votre projet : l’agent lit et modifie les fichiers qu’il contient, et rien d’autre de ce qui est à vous.</translation>
    </message>
    <message>
        <source>Create a sandbox of the kit %1 on %2, start it, and open its agent in a terminal.</source>
        <translation>Créer un bac à sable du kit %1 sur %2, le démarrer et ouvrir son agent dans un terminal.</translation>
    </message>
    <message>
        <source>Create a sandbox of the kit %1 on %2, then start it.</source>
        <translation>Créer un bac à sable du kit %1 sur %2, puis le démarrer.</translation>
    </message>
    <message>
        <source>No terminal emulator was found, so the agent cannot open here: it starts, and the page shows the command that opens it. Install xterm, GNOME Terminal or Konsole to open agents from this window.</source>
        <translation>Aucun émulateur de terminal n’a été trouvé, l’agent ne peut donc pas s’ouvrir ici : il démarre, et la page indique la commande qui l’ouvre. Installez xterm, GNOME Terminal ou Konsole pour ouvrir les agents depuis cette fenêtre.</translation>
    </message>
    <message>
        <source>bubblewrap runs the agent on this computer&apos;s own system: there is no image to build or load.</source>
        <translation>bubblewrap fait tourner l’agent sur le système de cet ordinateur : il n’y a pas d’image à construire ni à charger.</translation>
    </message>
    <message>
        <source>Creating the sandbox (the kit&apos;s setup runs now)…</source>
        <translation>Création du bac à sable (la préparation du kit s’exécute maintenant)…</translation>
    </message>
    <message>
        <source>Starting %1…</source>
        <translation>Démarrage de %1…</translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>Traitement en cours…</translation>
    </message>
    <message>
        <source>Your class&apos;s sandboxes run on the container engine %1: Docker on %1 is chosen.</source>
        <translation>Les bacs à sable de votre classe tournent sur le moteur de conteneurs %1 : Docker sur %1 est choisi.</translation>
    </message>
    <message>
        <source>Your class&apos;s sandboxes run on the container engine %1, which this computer does not have yet: add it on the Sandboxes page (Container engines, Add engine…) with the address and files your teacher gives, or create this sandbox with bubblewrap here.</source>
        <translation>Les bacs à sable de votre classe tournent sur le moteur de conteneurs %1, que cet ordinateur n’a pas encore : ajoutez-le sur la page Bacs à sable (Moteurs de conteneurs, Ajouter un moteur…) avec l’adresse et les fichiers que donne votre enseignant, ou créez ce bac à sable avec bubblewrap ici.</translation>
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
    <name>CredentialsStep</name>
    <message>
        <source>No keychain is reachable: keys cannot be stored. Install GNOME Keyring or KWallet and try again.</source>
        <translation>Aucun trousseau n’est accessible : les clés ne peuvent pas être enregistrées. Installez GNOME Keyring ou KWallet et réessayez.</translation>
    </message>
    <message>
        <source>The key of %1 (required)</source>
        <translation>La clé de %1 (obligatoire)</translation>
    </message>
    <message>
        <source>The key of %1 (optional)</source>
        <translation>La clé de %1 (facultative)</translation>
    </message>
    <message>
        <source>Paste the key; it goes to the keychain</source>
        <translation>Collez la clé ; elle sera placée dans le trousseau</translation>
    </message>
    <message>
        <source>Key of %1</source>
        <translation>Clé de %1</translation>
    </message>
    <message>
        <source>Save key</source>
        <translation>Enregistrer la clé</translation>
    </message>
    <message>
        <source>Save the key of %1</source>
        <translation>Enregistrer la clé de %1</translation>
    </message>
    <message>
        <source>The kit sends keys to domains you have not approved: %1.</source>
        <translation>Le kit envoie des clés à des domaines que vous n’avez pas approuvés : %1.</translation>
    </message>
    <message>
        <source>Review and approve…</source>
        <translation>Examiner et approuver…</translation>
    </message>
    <message>
        <source>Review and approve the kit&apos;s use of your keys</source>
        <translation>Examiner et approuver l’utilisation de vos clés par le kit</translation>
    </message>
    <message>
        <source>Every required key is stored and approved.</source>
        <translation>Toutes les clés obligatoires sont enregistrées et approuvées.</translation>
    </message>
    <message>
        <source>Nothing was approved: the kit may not send your keys, so its sandbox cannot use them. To approve later, press &quot;Review and approve…&quot; again, or run: %1</source>
        <translation>Rien n’a été approuvé : le kit ne peut pas envoyer vos clés, son bac à sable ne peut donc pas les utiliser. Pour approuver plus tard, appuyez à nouveau sur « Examiner et approuver… », ou lancez : %1</translation>
    </message>
</context>
<context>
    <name>CustomSecretRemoveDialog</name>
    <message>
        <source>Remove the custom secret %1?</source>
        <translation>Supprimer le secret personnalisé %1 ?</translation>
    </message>
    <message>
        <source>Sandboxes hold a placeholder in %1. From now on it is no longer replaced with the value in requests to %2, and its value is deleted from the keychain (or its command no longer runs). Sandboxes created afterwards no longer get %1.</source>
        <translation>Les bacs à sable ont un substitut dans %1. Désormais, il n&apos;est plus remplacé par la valeur dans les requêtes vers %2, et sa valeur est supprimée du trousseau (ou sa commande ne s&apos;exécute plus). Les bacs à sable créés ensuite n&apos;ont plus %1.</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Supprimer</translation>
    </message>
    <message>
        <source>Remove the custom secret %1</source>
        <translation>Supprimer le secret personnalisé %1</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>DenialAllowDialog</name>
    <message>
        <source>Allow %1</source>
        <translation>Autoriser %1</translation>
    </message>
    <message>
        <source>The same from a terminal:</source>
        <translation>La même chose dans un terminal :</translation>
    </message>
    <message>
        <source>Allow</source>
        <translation>Autoriser</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>DenialRow</name>
    <message numerus="yes">
        <source>%1 refused for sandbox %2, %n time(s), last at %3</source>
        <translation>
            <numerusform>%1 refusé pour le bac à sable %2, %n fois, la dernière à %3</numerusform>
            <numerusform>%1 refusé pour le bac à sable %2, %n fois, la dernière à %3</numerusform>
        </translation>
    </message>
    <message>
        <source>Sandbox %1 · %2</source>
        <translation>Bac à sable %1 · %2</translation>
    </message>
    <message>
        <source>× %1</source>
        <translation>× %1</translation>
    </message>
    <message numerus="yes">
        <source>%n refusal(s)</source>
        <translation>
            <numerusform>%n refus</numerusform>
            <numerusform>%n refus</numerusform>
        </translation>
    </message>
    <message>
        <source>Allow…</source>
        <translation>Autoriser…</translation>
    </message>
    <message>
        <source>Allow %1</source>
        <translation>Autoriser %1</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Ignorer</translation>
    </message>
    <message>
        <source>Dismiss %1</source>
        <translation>Ignorer %1</translation>
    </message>
    <message>
        <source>Sandbox %1 · %2 · %3</source>
        <translation>Bac à sable %1 · %2 · %3</translation>
    </message>
    <message>
        <source>%1 (written inside the sandbox: %2)</source>
        <translation>%1 (écrit dans le bac à sable : %2)</translation>
    </message>
    <message>
        <source>Only TCP leaves a sandbox; UDP has no rule to allow it</source>
        <translation>Seul le TCP sort d’un bac à sable ; aucune règle ne peut autoriser l’UDP</translation>
    </message>
    <message>
        <source>A secret of Paddock&apos;s keychain: Paddock adds it where it is bound, the sandbox never needs to send it</source>
        <translation>Un secret du trousseau de Paddock : Paddock l&apos;ajoute là où il est lié, le bac à sable n&apos;a jamais besoin de l&apos;envoyer</translation>
    </message>
    <message>
        <source>Allow this value for %1…</source>
        <translation>Autoriser cette valeur pour %1…</translation>
    </message>
    <message>
        <source>Allow the value of %1 from %2 for %3</source>
        <translation>Autoriser la valeur de %1 de %2 pour %3</translation>
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
    <name>EngineAddDialog</name>
    <message>
        <source>Add a container engine</source>
        <translation>Ajouter un moteur de conteneurs</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Choisir…</translation>
    </message>
    <message>
        <source>Choose: %1</source>
        <translation>Choisir : %1</translation>
    </message>
    <message>
        <source>Docker sandboxes can run on another Docker engine: one reached over TCP with TLS, through ssh, or at another socket. Paddock adds it once it has answered.</source>
        <translation>Les bacs à sable Docker peuvent tourner sur un autre moteur Docker : joint en TCP avec TLS, par ssh ou à une autre socket. Paddock l&apos;ajoute une fois qu&apos;il a répondu.</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nom</translation>
    </message>
    <message>
        <source>letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;</source>
        <translation>lettres, chiffres, &apos;.&apos;, &apos;_&apos; et &apos;-&apos;</translation>
    </message>
    <message>
        <source>Engine name</source>
        <translation>Nom du moteur</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Adresse</translation>
    </message>
    <message>
        <source>Engine address</source>
        <translation>Adresse du moteur</translation>
    </message>
    <message>
        <source>TLS: the CA that signs the engine&apos;s certificate, and the client certificate with its key that the engine asks for.</source>
        <translation>TLS : l&apos;autorité qui signe le certificat du moteur, et le certificat client avec sa clé que le moteur demande.</translation>
    </message>
    <message>
        <source>CA certificate file</source>
        <translation>Fichier du certificat de l&apos;autorité</translation>
    </message>
    <message>
        <source>Client certificate file</source>
        <translation>Fichier du certificat client</translation>
    </message>
    <message>
        <source>Client key file</source>
        <translation>Fichier de la clé client</translation>
    </message>
    <message>
        <source>It shares no folder with this computer (a virtual machine or a tunnel on a loopback address)</source>
        <translation>Il ne partage aucun dossier avec cet ordinateur (une machine virtuelle ou un tunnel sur une adresse locale)</translation>
    </message>
    <message>
        <source>The engine shares no folder with this computer</source>
        <translation>Le moteur ne partage aucun dossier avec cet ordinateur</translation>
    </message>
    <message>
        <source>Asking the engine…</source>
        <translation>Interrogation du moteur…</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Ajouter</translation>
    </message>
    <message>
        <source>Add the engine</source>
        <translation>Ajouter le moteur</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>EngineRemoveDialog</name>
    <message>
        <source>Remove the engine %1?</source>
        <translation>Supprimer le moteur %1 ?</translation>
    </message>
    <message>
        <source>Paddock forgets the engine at %1: Docker sandboxes no longer run there, and if it was in use, they run on this computer&apos;s engine again. The engine itself is not touched. Sandboxes still on it must be removed first.</source>
        <translation>Paddock oublie le moteur à %1 : les bacs à sable Docker n&apos;y tournent plus et, s&apos;il était utilisé, ils tournent de nouveau sur le moteur de cet ordinateur. Le moteur lui-même n&apos;est pas touché. Les bacs à sable qui y sont encore doivent d&apos;abord être supprimés.</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Supprimer</translation>
    </message>
    <message>
        <source>Remove the engine %1</source>
        <translation>Supprimer le moteur %1</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>EnginesSection</name>
    <message>
        <source>Container engines</source>
        <translation>Moteurs de conteneurs</translation>
    </message>
    <message>
        <source>%1 (in use): %2, %3, %4</source>
        <translation>%1 (utilisé) : %2, %3, %4</translation>
    </message>
    <message>
        <source>%1: %2, %3, %4</source>
        <translation>%1 : %2, %3, %4</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>Utiliser</translation>
    </message>
    <message>
        <source>Use engine %1</source>
        <translation>Utiliser le moteur %1</translation>
    </message>
    <message>
        <source>Add engine…</source>
        <translation>Ajouter un moteur…</translation>
    </message>
    <message>
        <source>Add a container engine</source>
        <translation>Ajouter un moteur de conteneurs</translation>
    </message>
    <message>
        <source>Docker sandboxes run on the engine in use unless the New sandbox wizard or --engine names another. An engine on another computer gets a clone of the workspace (its committed files), not the folder itself.</source>
        <translation>Les bacs à sable Docker tournent sur le moteur utilisé, sauf si l&apos;assistant Nouveau bac à sable ou --engine en nomme un autre. Un moteur sur un autre ordinateur reçoit un clone de l&apos;espace de travail (ses fichiers validés), pas le dossier lui-même.</translation>
    </message>
    <message>
        <source>Remove…</source>
        <translation>Supprimer…</translation>
    </message>
    <message>
        <source>Remove engine %1</source>
        <translation>Supprimer le moteur %1</translation>
    </message>
</context>
<context>
    <name>EnvironmentDialog</name>
    <message>
        <source>Open an environment file</source>
        <translation>Ouvrir un fichier d’environnement</translation>
    </message>
    <message>
        <source>Environment files (sbxenv.yaml *.yaml)</source>
        <translation>Fichiers d’environnement (sbxenv.yaml *.yaml)</translation>
    </message>
    <message>
        <source>Environment %1</source>
        <translation>Environnement %1</translation>
    </message>
    <message>
        <source>Commands run on this computer, outside the sandbox. Read each one; tick it to approve exactly this text.</source>
        <translation>Des commandes exécutées sur cet ordinateur, hors du bac à sable. Lisez chacune d’elles ; cochez-la pour approuver exactement ce texte.</translation>
    </message>
    <message>
        <source>%1 %2 (approved before)</source>
        <translation>%1 %2 (déjà approuvée)</translation>
    </message>
    <message>
        <source>Run %1 %2 on this computer</source>
        <translation>Exécuter %1 %2 sur cet ordinateur</translation>
    </message>
    <message>
        <source>Approve the %1 command %2</source>
        <translation>Approuver la commande %1 %2</translation>
    </message>
    <message>
        <source>Bringing up…</source>
        <translation>Démarrage…</translation>
    </message>
    <message>
        <source>Bring up</source>
        <translation>Démarrer</translation>
    </message>
    <message>
        <source>Bring up the environment</source>
        <translation>Démarrer l’environnement</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>GuardValueAllowDialog</name>
    <message>
        <source>Allow this value for %1?</source>
        <translation>Autoriser cette valeur pour %1 ?</translation>
    </message>
    <message>
        <source>Sandbox %1 may then send the value of %2 from %3 in its requests, to %4 and every other domain its keys go to. The value may then reach the model provider, and whoever reads what the provider keeps.</source>
        <translation>Le bac à sable %1 pourra alors envoyer la valeur de %2 de %3 dans ses requêtes, vers %4 et tout autre domaine où vont ses clés. La valeur pourra alors atteindre le fournisseur du modèle, et quiconque lit ce que le fournisseur conserve.</translation>
    </message>
    <message>
        <source>The same from a terminal:</source>
        <translation>La même chose dans un terminal :</translation>
    </message>
    <message>
        <source>Allow this value</source>
        <translation>Autoriser cette valeur</translation>
    </message>
    <message>
        <source>Allow the value of %1 from %2 for %3</source>
        <translation>Autoriser la valeur de %1 de %2 pour %3</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>ImageStep</name>
    <message>
        <source>Choose an image file (docker save)</source>
        <translation>Choisir un fichier d’image (docker save)</translation>
    </message>
    <message>
        <source>Image archives (*.tar *.tar.gz)</source>
        <translation>Archives d’image (*.tar *.tar.gz)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>The sandbox runs in the Docker image %1.</source>
        <translation>Le bac à sable tourne dans l’image Docker %1.</translation>
    </message>
    <message>
        <source>Looking for the image on this computer…</source>
        <translation>Recherche de l’image sur cet ordinateur…</translation>
    </message>
    <message>
        <source>The image is on this computer: the sandbox can be created.</source>
        <translation>L’image est sur cet ordinateur : le bac à sable peut être créé.</translation>
    </message>
    <message>
        <source>The image is not on this computer yet: build it from the kit, or load the image file you were given.</source>
        <translation>L’image n’est pas encore sur cet ordinateur : construisez-la à partir du kit, ou chargez le fichier d’image qui vous a été remis.</translation>
    </message>
    <message>
        <source>The image is not on this computer yet: load the image file you were given.</source>
        <translation>L’image n’est pas encore sur cet ordinateur : chargez le fichier d’image qui vous a été remis.</translation>
    </message>
    <message>
        <source>Image progress</source>
        <translation>Progression de l’image</translation>
    </message>
    <message>
        <source>Build the image</source>
        <translation>Construire l’image</translation>
    </message>
    <message>
        <source>Build the kit&apos;s image</source>
        <translation>Construire l’image du kit</translation>
    </message>
    <message>
        <source>Load an image file…</source>
        <translation>Charger un fichier d’image…</translation>
    </message>
    <message>
        <source>Load the image from a file</source>
        <translation>Charger l’image depuis un fichier</translation>
    </message>
    <message>
        <source>Check again</source>
        <translation>Vérifier à nouveau</translation>
    </message>
    <message>
        <source>Look for the image again</source>
        <translation>Chercher l’image à nouveau</translation>
    </message>
</context>
<context>
    <name>IsolationTable</name>
    <message>
        <source>The working tree</source>
        <translation>L’arbre de travail</translation>
    </message>
    <message>
        <source>Shared read-write (or a disposable clone)</source>
        <translation>Partagé en lecture-écriture (ou un clone jetable)</translation>
    </message>
    <message>
        <source>Shared read-write</source>
        <translation>Partagé en lecture-écriture</translation>
    </message>
    <message>
        <source>Shared read-write, through gVisor&apos;s file proxy</source>
        <translation>Partagé en lecture-écriture, par le mandataire de fichiers de gVisor</translation>
    </message>
    <message>
        <source>Synced into the VM</source>
        <translation>Synchronisé dans la VM</translation>
    </message>
    <message>
        <source>Your home folder</source>
        <translation>Votre dossier personnel</translation>
    </message>
    <message>
        <source>Hidden: a private home</source>
        <translation>Caché : un dossier personnel privé</translation>
    </message>
    <message>
        <source>Hidden: the VM&apos;s own disk</source>
        <translation>Caché : le disque propre de la VM</translation>
    </message>
    <message>
        <source>Outbound network</source>
        <translation>Réseau sortant</translation>
    </message>
    <message>
        <source>Only through Paddock&apos;s proxy</source>
        <translation>Seulement par le proxy de Paddock</translation>
    </message>
    <message>
        <source>Only through its proxy</source>
        <translation>Seulement par son proxy</translation>
    </message>
    <message>
        <source>Your API keys</source>
        <translation>Vos clés d’API</translation>
    </message>
    <message>
        <source>Stay on this computer: the proxy adds them</source>
        <translation>Restent sur cet ordinateur : le proxy les ajoute</translation>
    </message>
    <message>
        <source>Stay on the host: its proxy adds them</source>
        <translation>Restent sur l’hôte : son proxy les ajoute</translation>
    </message>
    <message>
        <source>The host kernel</source>
        <translation>Le noyau de l’hôte</translation>
    </message>
    <message>
        <source>Shared: a kernel flaw is a way out</source>
        <translation>Partagé : une faille du noyau est une sortie</translation>
    </message>
    <message>
        <source>Not reached directly: gVisor answers system calls in user space</source>
        <translation>Pas atteint directement : gVisor répond aux appels système en espace utilisateur</translation>
    </message>
    <message>
        <source>Separate: a kernel of its own</source>
        <translation>Séparé : un noyau à lui</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Démarrage</translation>
    </message>
    <message>
        <source>Tens of milliseconds</source>
        <translation>Quelques dizaines de millisecondes</translation>
    </message>
    <message>
        <source>Under a second</source>
        <translation>Moins d’une seconde</translation>
    </message>
    <message>
        <source>Under a second, a tenth more than Docker</source>
        <translation>Moins d’une seconde, un dixième de plus que Docker</translation>
    </message>
    <message>
        <source>Seconds</source>
        <translation>Quelques secondes</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Mémoire</translation>
    </message>
    <message>
        <source>Nothing beyond the agent</source>
        <translation>Rien de plus que l’agent</translation>
    </message>
    <message>
        <source>About 13 MB for the engine&apos;s shim</source>
        <translation>Environ 13 Mo pour le shim du moteur</translation>
    </message>
    <message>
        <source>About 45 MB more for its kernel and file proxy</source>
        <translation>Environ 45 Mo de plus pour son noyau et son mandataire de fichiers</translation>
    </message>
    <message>
        <source>The VM&apos;s whole memory</source>
        <translation>Toute la mémoire de la VM</translation>
    </message>
    <message>
        <source>Compatibility</source>
        <translation>Compatibilité</translation>
    </message>
    <message>
        <source>Every program</source>
        <translation>Tous les programmes</translation>
    </message>
    <message>
        <source>Most programs, but file-heavy work is far slower (git status on 10,000 files: 40 times) and a few system calls are missing</source>
        <translation>La plupart des programmes, mais le travail sur beaucoup de fichiers est bien plus lent (git status sur 10 000 fichiers : 40 fois) et quelques appels système manquent</translation>
    </message>
    <message>
        <source>Every program; needs KVM</source>
        <translation>Tous les programmes ; demande KVM</translation>
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
        <translation>Retour aux kits</translation>
    </message>
    <message numerus="yes">
        <source>%n error(s)</source>
        <translation>
            <numerusform>%n erreur</numerusform>
            <numerusform>%n erreurs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Valid, %n warning(s)</source>
        <translation>
            <numerusform>Valide, %n avertissement</numerusform>
            <numerusform>Valide, %n avertissements</numerusform>
        </translation>
    </message>
    <message>
        <source>Valid</source>
        <translation>Valide</translation>
    </message>
    <message>
        <source>Copy to…</source>
        <translation>Copier vers…</translation>
    </message>
    <message>
        <source>Copy this sample kit to a folder of yours</source>
        <translation>Copier ce kit d’exemple dans l’un de vos dossiers</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>Rétablir</translation>
    </message>
    <message>
        <source>Drop the changes</source>
        <translation>Abandonner les modifications</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>Enregistrer…</translation>
    </message>
    <message>
        <source>Review the changes and save</source>
        <translation>Examiner les modifications et enregistrer</translation>
    </message>
    <message>
        <source>Line %1: %2</source>
        <translation>Ligne %1 : %2</translation>
    </message>
    <message>
        <source>About the kit</source>
        <translation>À propos du kit</translation>
    </message>
    <message>
        <source>Name (lower-case letters, digits and dashes)</source>
        <translation>Nom (lettres minuscules, chiffres et tirets)</translation>
    </message>
    <message>
        <source>Kind (sandbox or mixin)</source>
        <translation>Type (sandbox ou mixin)</translation>
    </message>
    <message>
        <source>Display name</source>
        <translation>Nom affiché</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Description</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>Source URL</source>
        <translation>URL de la source</translation>
    </message>
    <message>
        <source>Licences</source>
        <translation>Licences</translation>
    </message>
    <message>
        <source>Privileged sandbox</source>
        <translation>Bac à sable privilégié</translation>
    </message>
    <message>
        <source>Requires agent (mixins)</source>
        <translation>Agent requis (mixins)</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>Bac à sable</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>Image</translation>
    </message>
    <message>
        <source>Entrypoint (program, then its arguments)</source>
        <translation>Point d’entrée (programme, puis ses arguments)</translation>
    </message>
    <message>
        <source>Command (arguments after the entrypoint)</source>
        <translation>Commande (arguments après le point d’entrée)</translation>
    </message>
    <message>
        <source>Command when not interactive</source>
        <translation>Commande hors mode interactif</translation>
    </message>
    <message>
        <source>Command on a terminal</source>
        <translation>Commande dans un terminal</translation>
    </message>
    <message>
        <source>CPUs</source>
        <translation>Processeurs</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Mémoire</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Build context</source>
        <translation>Contexte de construction</translation>
    </message>
    <message>
        <source>Dockerfile</source>
        <translation>Dockerfile</translation>
    </message>
    <message>
        <source>Build target</source>
        <translation>Cible de construction</translation>
    </message>
    <message>
        <source>Extends (another kit)</source>
        <translation>Étend (un autre kit)</translation>
    </message>
    <message>
        <source>Mixins</source>
        <translation>Mixins</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>Réseau</translation>
    </message>
    <message>
        <source>Patterns such as github.com, *.example.com or host:8080. Deny wins over allow.</source>
        <translation>Des motifs comme github.com, *.example.com ou host:8080. Le refus l’emporte sur l’autorisation.</translation>
    </message>
    <message>
        <source>Allowed</source>
        <translation>Autorisés</translation>
    </message>
    <message>
        <source>Denied</source>
        <translation>Refusés</translation>
    </message>
    <message>
        <source>Environment variables</source>
        <translation>Variables d’environnement</translation>
    </message>
    <message>
        <source>Value of %1</source>
        <translation>Valeur de %1</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Supprimer</translation>
    </message>
    <message>
        <source>Remove the variable %1</source>
        <translation>Supprimer la variable %1</translation>
    </message>
    <message>
        <source>NAME</source>
        <translation>NOM</translation>
    </message>
    <message>
        <source>New variable name</source>
        <translation>Nom de la nouvelle variable</translation>
    </message>
    <message>
        <source>value</source>
        <translation>valeur</translation>
    </message>
    <message>
        <source>New variable value</source>
        <translation>Valeur de la nouvelle variable</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Ajouter</translation>
    </message>
    <message>
        <source>Add the variable</source>
        <translation>Ajouter la variable</translation>
    </message>
    <message>
        <source>Credentials</source>
        <translation>Identifiants</translation>
    </message>
    <message>
        <source>Keys the proxy adds to requests; the sandbox only sees a placeholder. OAuth settings are edited in the YAML text.</source>
        <translation>Les clés que le proxy ajoute aux requêtes ; le bac à sable ne voit qu’une valeur de substitution. Les réglages OAuth se modifient dans le texte YAML.</translation>
    </message>
    <message>
        <source>Credential</source>
        <translation>Identifiant</translation>
    </message>
    <message>
        <source>Add a credential</source>
        <translation>Ajouter un identifiant</translation>
    </message>
    <message>
        <source>Service</source>
        <translation>Service</translation>
    </message>
    <message>
        <source>Required</source>
        <translation>Obligatoire</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Fournisseur</translation>
    </message>
    <message>
        <source>Variable set in the sandbox</source>
        <translation>Variable définie dans le bac à sable</translation>
    </message>
    <message>
        <source>Managed by the proxy</source>
        <translation>Géré par le proxy</translation>
    </message>
    <message>
        <source>Injection</source>
        <translation>Injection</translation>
    </message>
    <message>
        <source>Add an injection rule</source>
        <translation>Ajouter une règle d’injection</translation>
    </message>
    <message>
        <source>Domain</source>
        <translation>Domaine</translation>
    </message>
    <message>
        <source>Header</source>
        <translation>En-tête</translation>
    </message>
    <message>
        <source>Format (one %s for the key)</source>
        <translation>Format (un %s pour la clé)</translation>
    </message>
    <message>
        <source>Scheme (bearer or basic)</source>
        <translation>Schéma (bearer ou basic)</translation>
    </message>
    <message>
        <source>User name (basic)</source>
        <translation>Nom d’utilisateur (basic)</translation>
    </message>
    <message>
        <source>Setup</source>
        <translation>Préparation</translation>
    </message>
    <message>
        <source>Install command</source>
        <translation>Commande d’installation</translation>
    </message>
    <message>
        <source>Add an install command</source>
        <translation>Ajouter une commande d’installation</translation>
    </message>
    <message>
        <source>Shell command, run once at creation</source>
        <translation>Commande shell, exécutée une fois à la création</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Utilisateur</translation>
    </message>
    <message>
        <source>Startup command</source>
        <translation>Commande de démarrage</translation>
    </message>
    <message>
        <source>Add a startup command</source>
        <translation>Ajouter une commande de démarrage</translation>
    </message>
    <message>
        <source>Program and arguments, run at every start</source>
        <translation>Programme et arguments, exécutés à chaque démarrage</translation>
    </message>
    <message>
        <source>In the background</source>
        <translation>En arrière-plan</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Fichier</translation>
    </message>
    <message>
        <source>Add a file</source>
        <translation>Ajouter un fichier</translation>
    </message>
    <message>
        <source>Path in the sandbox</source>
        <translation>Chemin dans le bac à sable</translation>
    </message>
    <message>
        <source>Content</source>
        <translation>Contenu</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>Mode</translation>
    </message>
    <message>
        <source>Only if missing</source>
        <translation>Seulement s’il est absent</translation>
    </message>
    <message>
        <source>Volumes and ports</source>
        <translation>Volumes et ports</translation>
    </message>
    <message>
        <source>Volume</source>
        <translation>Volume</translation>
    </message>
    <message>
        <source>Add a volume</source>
        <translation>Ajouter un volume</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>Chemin</translation>
    </message>
    <message>
        <source>Type (empty or tmpfs)</source>
        <translation>Type (vide ou tmpfs)</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Taille</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>Port</translation>
    </message>
    <message>
        <source>Add a port</source>
        <translation>Ajouter un port</translation>
    </message>
    <message>
        <source>Port in the sandbox</source>
        <translation>Port dans le bac à sable</translation>
    </message>
    <message>
        <source>Protocol (tcp or udp)</source>
        <translation>Protocole (tcp ou udp)</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nom</translation>
    </message>
    <message>
        <source>Agent instructions</source>
        <translation>Instructions pour l’agent</translation>
    </message>
    <message>
        <source>File name</source>
        <translation>Nom du fichier</translation>
    </message>
    <message>
        <source>Content (Markdown)</source>
        <translation>Contenu (Markdown)</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>Arguments</translation>
    </message>
    <message>
        <source>Values supplied when the kit is used, referenced as ${{ kit.args.NAME }}.</source>
        <translation>Valeurs fournies à l’utilisation du kit, référencées sous la forme ${{ kit.args.NAME }}.</translation>
    </message>
    <message>
        <source>Argument</source>
        <translation>Argument</translation>
    </message>
    <message>
        <source>Add an argument</source>
        <translation>Ajouter un argument</translation>
    </message>
    <message>
        <source>Default value</source>
        <translation>Valeur par défaut</translation>
    </message>
    <message>
        <source>Pattern (regular expression)</source>
        <translation>Motif (expression régulière)</translation>
    </message>
    <message>
        <source>Accepted values</source>
        <translation>Valeurs acceptées</translation>
    </message>
    <message>
        <source>spec.yaml (read-only)</source>
        <translation>spec.yaml (lecture seule)</translation>
    </message>
    <message>
        <source>spec.yaml</source>
        <translation>spec.yaml</translation>
    </message>
    <message>
        <source>spec.yaml text</source>
        <translation>Texte de spec.yaml</translation>
    </message>
    <message>
        <source>Leave without saving?</source>
        <translation>Quitter sans enregistrer ?</translation>
    </message>
    <message>
        <source>Your changes to spec.yaml have not been saved. Leaving drops them.</source>
        <translation>Vos modifications de spec.yaml n’ont pas été enregistrées. Si vous quittez, elles seront perdues.</translation>
    </message>
    <message>
        <source>Keep editing</source>
        <translation>Continuer la modification</translation>
    </message>
    <message>
        <source>Save spec.yaml</source>
        <translation>Enregistrer spec.yaml</translation>
    </message>
    <message>
        <source>These lines change; everything else in the file stays as it is.</source>
        <translation>Ces lignes changent ; tout le reste du fichier reste tel quel.</translation>
    </message>
    <message>
        <source>The kit has errors: it cannot be saved until they are fixed.</source>
        <translation>Le kit contient des erreurs : il ne pourra pas être enregistré tant qu’elles ne seront pas corrigées.</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Enregistrer</translation>
    </message>
    <message>
        <source>Save the changes</source>
        <translation>Enregistrer les modifications</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>Agent permissions</source>
        <translation>Permissions de l’agent</translation>
    </message>
    <message>
        <source>Save %1</source>
        <translation>Enregistrer %1</translation>
    </message>
    <message>
        <source>Your changes to %1 have not been saved. Leaving drops them.</source>
        <translation>Vos modifications de %1 n’ont pas été enregistrées. Si vous quittez, elles seront perdues.</translation>
    </message>
</context>
<context>
    <name>KitDescriptorForm</name>
    <message>
        <source>About the kit</source>
        <translation>À propos du kit</translation>
    </message>
    <message>
        <source>Name: %1 (the descriptor&apos;s file name)</source>
        <translation>Nom : %1 (le nom du fichier du descripteur)</translation>
    </message>
    <message>
        <source>Kind: %1</source>
        <translation>Type : %1</translation>
    </message>
    <message>
        <source>Display name</source>
        <translation>Nom affiché</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Description</translation>
    </message>
    <message>
        <source>Credentials</source>
        <translation>Identifiants</translation>
    </message>
    <message>
        <source>%1 (%2), injected for %3</source>
        <translation>%1 (%2), injecté pour %3</translation>
    </message>
    <message>
        <source>no domain</source>
        <translation>aucun domaine</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>Réseau</translation>
    </message>
    <message>
        <source>network-policy@1: hosts such as github.com, api.example.com:443 or *.example.com. Deny wins over allow. The first host added adds the request.</source>
        <translation>network-policy@1 : des hôtes comme github.com, api.example.com:443 ou *.example.com. Le refus l’emporte sur l’autorisation. Le premier hôte ajouté ajoute la demande.</translation>
    </message>
    <message>
        <source>Network of the group %1</source>
        <translation>Réseau du groupe %1</translation>
    </message>
    <message>
        <source>Network of a group</source>
        <translation>Réseau d’un groupe</translation>
    </message>
    <message>
        <source>In force only when the group, which is optional, is chosen.</source>
        <translation>En vigueur seulement quand le groupe, facultatif, est retenu.</translation>
    </message>
    <message>
        <source>In force with the rest of the group.</source>
        <translation>En vigueur avec le reste du groupe.</translation>
    </message>
    <message>
        <source>Read-only here: credentials and the other capabilities are edited in the descriptor&apos;s text.</source>
        <translation>En lecture seule ici : les identifiants et les autres capacités se modifient dans le texte du descripteur.</translation>
    </message>
</context>
<context>
    <name>KitFolderDialog</name>
    <message>
        <source>Add a kit folder</source>
        <translation>Ajouter un dossier de kit</translation>
    </message>
    <message>
        <source>New kit</source>
        <translation>Nouveau kit</translation>
    </message>
    <message>
        <source>Copy the sample kit</source>
        <translation>Copier le kit d’exemple</translation>
    </message>
    <message>
        <source>A folder holding a spec.yaml. Paddock remembers it; the files stay where they are.</source>
        <translation>Un dossier contenant un spec.yaml. Paddock s’en souvient ; les fichiers restent où ils sont.</translation>
    </message>
    <message>
        <source>Paddock writes spec.yaml from the template into this folder and adds it to your kits.</source>
        <translation>Paddock écrit dans ce dossier un spec.yaml issu du modèle et l’ajoute à vos kits.</translation>
    </message>
    <message>
        <source>The sample is copied into this folder, where you can change it.</source>
        <translation>L’exemple est copié dans ce dossier, où vous pourrez le modifier.</translation>
    </message>
    <message>
        <source>Template</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <source>/home/you/kits/my-agent</source>
        <translation>/home/vous/kits/mon-agent</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Dossier</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Parcourir…</translation>
    </message>
    <message>
        <source>Choose the folder</source>
        <translation>Choisir le dossier</translation>
    </message>
    <message>
        <source>Kit name (default: from the folder name)</source>
        <translation>Nom du kit (par défaut : d’après le nom du dossier)</translation>
    </message>
    <message>
        <source>Kit name</source>
        <translation>Nom du kit</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Ajouter</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>Créer</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copier</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>KitImportDialog</name>
    <message>
        <source>Import a kit image</source>
        <translation>Importer une image de kit</translation>
    </message>
    <message>
        <source>A kit published as an image (schemaVersion 3), saved as an OCI layout or with docker save. Paddock reads its descriptor, puts its layers in its own image store, so that it runs without Docker, and lists what each of its capabilities becomes here.</source>
        <translation>Un kit publié sous forme d’image (schemaVersion 3), enregistré au format OCI layout ou avec docker save. Paddock lit son descripteur, place ses couches dans son propre magasin d’images, afin qu’il s’exécute sans Docker, et liste ce que devient ici chacune de ses capacités.</translation>
    </message>
    <message>
        <source>/home/you/Downloads/kit.tar</source>
        <translation>/home/you/Downloads/kit.tar</translation>
    </message>
    <message>
        <source>Archive file</source>
        <translation>Fichier d’archive</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Parcourir…</translation>
    </message>
    <message>
        <source>Choose the archive file</source>
        <translation>Choisir le fichier d’archive</translation>
    </message>
    <message>
        <source>Kit name (default: from the image reference)</source>
        <translation>Nom du kit (par défaut : d’après la référence de l’image)</translation>
    </message>
    <message>
        <source>Kit name</source>
        <translation>Nom du kit</translation>
    </message>
    <message>
        <source>The same import from a terminal.</source>
        <translation>La même importation dans un terminal.</translation>
    </message>
    <message>
        <source>Reading the archive…</source>
        <translation>Lecture de l’archive…</translation>
    </message>
    <message>
        <source>+ %1</source>
        <translation>+ %1</translation>
    </message>
    <message>
        <source>Accept what this update adds</source>
        <translation>Accepter ce qu’ajoute cette mise à jour</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Importer</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>Image archives (*.tar)</source>
        <translation>Archives d’image (*.tar)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Tous les fichiers (*)</translation>
    </message>
</context>
<context>
    <name>KitItemList</name>
    <message>
        <source>Add</source>
        <translation>Ajouter</translation>
    </message>
    <message>
        <source>%1 %2: %3</source>
        <translation>%1 %2 : %3</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Supprimer</translation>
    </message>
    <message>
        <source>Remove %1 %2</source>
        <translation>Supprimer %1 %2</translation>
    </message>
</context>
<context>
    <name>KitStringList</name>
    <message>
        <source>%1, item %2</source>
        <translation>%1, élément %2</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Supprimer</translation>
    </message>
    <message>
        <source>Remove %1 from %2</source>
        <translation>Supprimer %1 de %2</translation>
    </message>
    <message>
        <source>New item of %1</source>
        <translation>Nouvel élément de %1</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Ajouter</translation>
    </message>
    <message>
        <source>Add to %1</source>
        <translation>Ajouter à %1</translation>
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
        <source>Check the kit in folder DIR and report each error with its file, line and column.</source>
        <translation>Vérifier le kit du dossier DIR et signaler chaque erreur avec son fichier, sa ligne et sa colonne.</translation>
    </message>
    <message>
        <source>Show what the kit in folder DIR contains: its agent, allowed domains and credentials.</source>
        <translation>Afficher le contenu du kit du dossier DIR : son agent, ses domaines autorisés et ses identifiants.</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>Ajouter un dossier…</translation>
    </message>
    <message>
        <source>Add a kit folder</source>
        <translation>Ajouter un dossier de kit</translation>
    </message>
    <message>
        <source>New kit…</source>
        <translation>Nouveau kit…</translation>
    </message>
    <message>
        <source>New kit from a template</source>
        <translation>Nouveau kit à partir d’un modèle</translation>
    </message>
    <message>
        <source>Check again</source>
        <translation>Vérifier à nouveau</translation>
    </message>
    <message>
        <source>Read every kit again</source>
        <translation>Relire tous les kits</translation>
    </message>
    <message>
        <source>Your added kits cannot be listed: %1</source>
        <translation>Impossible de lister les kits que vous avez ajoutés : %1</translation>
    </message>
    <message>
        <source>No kits yet: add a folder that holds a spec.yaml, or make a new kit from a template.</source>
        <translation>Aucun kit pour l’instant : ajoutez un dossier contenant un spec.yaml, ou créez un kit à partir d’un modèle.</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>sample</source>
        <translation>exemple</translation>
    </message>
    <message>
        <source>your folder</source>
        <translation>votre dossier</translation>
    </message>
    <message numerus="yes">
        <source>%n error(s)</source>
        <translation>
            <numerusform>%n erreur</numerusform>
            <numerusform>%n erreurs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Valid, %n warning(s)</source>
        <translation>
            <numerusform>Valide, %n avertissement</numerusform>
            <numerusform>Valide, %n avertissements</numerusform>
        </translation>
    </message>
    <message>
        <source>Valid</source>
        <translation>Valide</translation>
    </message>
    <message>
        <source>View</source>
        <translation>Afficher</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>Modifier</translation>
    </message>
    <message>
        <source>View %1</source>
        <translation>Afficher %1</translation>
    </message>
    <message>
        <source>Edit %1</source>
        <translation>Modifier %1</translation>
    </message>
    <message>
        <source>Copy to…</source>
        <translation>Copier vers…</translation>
    </message>
    <message>
        <source>Copy %1 to a folder of yours</source>
        <translation>Copier %1 dans l’un de vos dossiers</translation>
    </message>
    <message>
        <source>Forget</source>
        <translation>Oublier</translation>
    </message>
    <message>
        <source>Forget %1 (its files stay)</source>
        <translation>Oublier %1 (ses fichiers sont conservés)</translation>
    </message>
    <message>
        <source>From a terminal</source>
        <translation>Dans un terminal</translation>
    </message>
    <message>
        <source>imported</source>
        <translation>importé</translation>
    </message>
    <message>
        <source>Export bundle…</source>
        <translation>Exporter un paquet…</translation>
    </message>
    <message>
        <source>Export %1 as a bundle for a class</source>
        <translation>Exporter %1 en paquet pour une classe</translation>
    </message>
    <message>
        <source>Import kit image…</source>
        <translation>Importer une image de kit…</translation>
    </message>
    <message>
        <source>Import a kit image from an archive</source>
        <translation>Importer une image de kit depuis une archive</translation>
    </message>
    <message>
        <source>Kit image (schemaVersion 3) from %1</source>
        <translation>Image de kit (schemaVersion 3) provenant de %1</translation>
    </message>
    <message>
        <source>an archive</source>
        <translation>une archive</translation>
    </message>
    <message>
        <source>Provides %1</source>
        <translation>Fournit %1</translation>
    </message>
    <message>
        <source>• %1</source>
        <translation>• %1</translation>
    </message>
    <message>
        <source>• Not here: %1</source>
        <translation>• Absent ici : %1</translation>
    </message>
    <message>
        <source>Load a kit image (schemaVersion 3) from an OCI layout or docker save archive.</source>
        <translation>Charger une image de kit (schemaVersion 3) depuis un OCI layout ou une archive docker save.</translation>
    </message>
    <message>
        <source>A kit&apos;s descriptor and recipe (schemaVersion 3): paddock kit build %1 makes the kit a sandbox runs.</source>
        <translation>Le descripteur et la recette d’un kit (schemaVersion 3) : paddock kit build %1 fabrique le kit qu’exécute un bac à sable.</translation>
    </message>
</context>
<context>
    <name>LearningSection</name>
    <message>
        <source>Learning mode</source>
        <translation>Mode apprentissage</translation>
    </message>
    <message>
        <source>While learning, a sandbox&apos;s connections are let through and recorded. Run the agent on a typical task, then allow what it needed.</source>
        <translation>Pendant l’apprentissage, les connexions d’un bac à sable sont laissées passer et enregistrées. Faites exécuter à l’agent une tâche typique, puis autorisez ce dont il a eu besoin.</translation>
    </message>
    <message>
        <source>This daemon does not offer learning mode.</source>
        <translation>Ce service ne propose pas le mode apprentissage.</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>Bac à sable</translation>
    </message>
    <message>
        <source>No sandbox</source>
        <translation>Aucun bac à sable</translation>
    </message>
    <message>
        <source>Sandbox to learn from</source>
        <translation>Bac à sable à observer</translation>
    </message>
    <message>
        <source>Learning</source>
        <translation>Apprentissage</translation>
    </message>
    <message>
        <source>Learning mode for %1</source>
        <translation>Mode apprentissage pour %1</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Actualiser</translation>
    </message>
    <message>
        <source>Nothing recorded yet.</source>
        <translation>Rien n’a encore été enregistré.</translation>
    </message>
    <message>
        <source>No proposal: turn learning on for this sandbox first.</source>
        <translation>Aucune proposition : activez d’abord l’apprentissage pour ce bac à sable.</translation>
    </message>
    <message>
        <source>Allow %1</source>
        <translation>Autoriser %1</translation>
    </message>
    <message>
        <source>For this sandbox</source>
        <translation>Pour ce bac à sable</translation>
    </message>
    <message>
        <source>For every sandbox</source>
        <translation>Pour tous les bacs à sable</translation>
    </message>
    <message>
        <source>Where to allow the patterns</source>
        <translation>Où autoriser les motifs</translation>
    </message>
    <message>
        <source>Allow selected (%1)</source>
        <translation>Autoriser la sélection (%1)</translation>
    </message>
    <message>
        <source>Allow all</source>
        <translation>Tout autoriser</translation>
    </message>
    <message>
        <source>Refresh the proposed allowlist</source>
        <translation>Actualiser la liste d’autorisation proposée</translation>
    </message>
    <message>
        <source>Ask before connecting</source>
        <translation>Demander avant de se connecter</translation>
    </message>
    <message>
        <source>Ask mode for %1</source>
        <translation>Demande avant connexion pour %1</translation>
    </message>
    <message>
        <source>A connection no rule covers waits while you answer, instead of being refused.</source>
        <translation>Une connexion qu’aucune règle ne couvre attend votre réponse au lieu d’être refusée.</translation>
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
    <name>MixinChoices</name>
    <message>
        <source>Mixins</source>
        <translation>Mixins</translation>
    </message>
    <message>
        <source>A mixin adds its tools, rules and credentials to the kit, and its files over the kit&apos;s image.</source>
        <translation>Un mixin ajoute ses outils, ses règles et ses identifiants au kit, et ses fichiers par-dessus l’image du kit.</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Compose with %1</source>
        <translation>Composer avec %1</translation>
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
        <source>The daemon is not connected: rules and refused connections appear once it is.</source>
        <translation>Le service n’est pas connecté : les règles et les connexions refusées apparaîtront dès qu’il le sera.</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>Préréglage</translation>
    </message>
    <message>
        <source>Global preset</source>
        <translation>Préréglage global</translation>
    </message>
    <message>
        <source>Notify me of refused connections while the window is in the background</source>
        <translation>M’avertir des connexions refusées lorsque la fenêtre est en arrière-plan</translation>
    </message>
    <message>
        <source>Refused connections</source>
        <translation>Connexions refusées</translation>
    </message>
    <message>
        <source>Live, one row per host and sandbox. Keys: A allows the selected row, D or Delete dismisses it.</source>
        <translation>En direct, une ligne par hôte et par bac à sable. Touches : A autorise la ligne sélectionnée, D ou Suppr l’ignore.</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>Chargement…</translation>
    </message>
    <message>
        <source>Nothing has been refused.</source>
        <translation>Rien n’a été refusé.</translation>
    </message>
    <message>
        <source>Rules</source>
        <translation>Règles</translation>
    </message>
    <message>
        <source>Filter rules</source>
        <translation>Filtrer les règles</translation>
    </message>
    <message>
        <source>Add rule…</source>
        <translation>Ajouter une règle…</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Portée</translation>
    </message>
    <message>
        <source>Pattern</source>
        <translation>Motif</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>Décision</translation>
    </message>
    <message>
        <source>Origin</source>
        <translation>Origine</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Création</translation>
    </message>
    <message>
        <source>No rule matches the filter.</source>
        <translation>Aucune règle ne correspond au filtre.</translation>
    </message>
    <message>
        <source>No rules yet: with the %1 preset, only what you allow gets through.</source>
        <translation>Aucune règle pour l’instant : avec le préréglage %1, seul ce que vous autorisez passe.</translation>
    </message>
    <message>
        <source>Changed %1</source>
        <translation>%1 modifié</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>Afficher :</translation>
    </message>
    <message>
        <source>All</source>
        <translation>Tout</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>Agent</translation>
    </message>
    <message>
        <source>Show refusals: %1</source>
        <translation>Afficher les refus : %1</translation>
    </message>
    <message>
        <source>The agents were refused nothing.</source>
        <translation>Rien n’a été refusé aux agents.</translation>
    </message>
    <message>
        <source>Refused agent actions</source>
        <translation>Actions refusées aux agents</translation>
    </message>
</context>
<context>
    <name>OpenEnvironmentButton</name>
    <message>
        <source>Open environment…</source>
        <translation>Ouvrir un environnement…</translation>
    </message>
    <message>
        <source>Open an environment file (sbxenv.yaml)</source>
        <translation>Ouvrir un fichier d’environnement (sbxenv.yaml)</translation>
    </message>
</context>
<context>
    <name>ProjectFolderStep</name>
    <message>
        <source>The agent works on this folder. With a direct workspace it can change every file in it; with a clone it works on a copy of the repository.</source>
        <translation>L’agent travaille sur ce dossier. Avec un espace de travail direct, il peut modifier chacun de ses fichiers ; avec un clone, il travaille sur une copie du dépôt.</translation>
    </message>
    <message>
        <source>Choose the project folder</source>
        <translation>Choisir le dossier de projet</translation>
    </message>
    <message>
        <source>/home/you/projects/app</source>
        <translation>/home/vous/projets/app</translation>
    </message>
    <message>
        <source>Project folder</source>
        <translation>Dossier de projet</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Choisir…</translation>
    </message>
    <message>
        <source>This is not an existing folder.</source>
        <translation>Ce n’est pas un dossier existant.</translation>
    </message>
</context>
<context>
    <name>RequestRow</name>
    <message>
        <source>%1 B</source>
        <translation>%1 o</translation>
    </message>
    <message>
        <source>%1 KiB</source>
        <translation>%1 Kio</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 Mio</translation>
    </message>
    <message>
        <source>%1 %2, status %3, sandbox %4</source>
        <translation>%1 %2, statut %3, bac à sable %4</translation>
    </message>
    <message>
        <source>Sandbox %1</source>
        <translation>Bac à sable %1</translation>
    </message>
    <message>
        <source>%1 up, %2 down</source>
        <translation>%1 envoyés, %2 reçus</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Refused by Paddock, status %1</source>
        <translation>Refusée par Paddock, statut %1</translation>
    </message>
    <message>
        <source>Status %1</source>
        <translation>Statut %1</translation>
    </message>
    <message>
        <source>%1 (written inside the sandbox: %2)</source>
        <translation>%1 (écrit dans le bac à sable : %2)</translation>
    </message>
</context>
<context>
    <name>RequestsSection</name>
    <message>
        <source>Requests</source>
        <translation>Requêtes</translation>
    </message>
    <message>
        <source>What each request did, live: plain HTTP, and HTTPS to hosts whose TLS Paddock terminates (those with a bound credential). Queries and header values are never kept.</source>
        <translation>Ce que chaque requête a fait, en direct : HTTP en clair, et HTTPS vers les hôtes dont Paddock termine le TLS (ceux qui ont un identifiant lié). Les paramètres de requête et les valeurs d’en-tête ne sont jamais conservés.</translation>
    </message>
    <message>
        <source>All sandboxes</source>
        <translation>Tous les bacs à sable</translation>
    </message>
    <message>
        <source>Requests of sandbox</source>
        <translation>Requêtes du bac à sable</translation>
    </message>
    <message>
        <source>Filter by method, URL, status or program</source>
        <translation>Filtrer par méthode, URL, statut ou programme</translation>
    </message>
    <message>
        <source>Filter requests</source>
        <translation>Filtrer les requêtes</translation>
    </message>
    <message numerus="yes">
        <source>%n request(s)</source>
        <translation>
            <numerusform>%n requête</numerusform>
            <numerusform>%n requêtes</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 sur %2</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>Chargement…</translation>
    </message>
    <message>
        <source>No request matches the filter.</source>
        <translation>Aucune requête ne correspond au filtre.</translation>
    </message>
    <message>
        <source>No requests recorded yet.</source>
        <translation>Aucune requête enregistrée pour l’instant.</translation>
    </message>
    <message>
        <source>from %1 to %2</source>
        <translation>de %1 à %2</translation>
    </message>
    <message>
        <source>Only %1, %2</source>
        <translation>Seulement %1, %2</translation>
    </message>
    <message>
        <source>Only %1</source>
        <translation>Seulement %1</translation>
    </message>
    <message>
        <source>Only requests %1</source>
        <translation>Seulement les requêtes %1</translation>
    </message>
    <message>
        <source>Show all</source>
        <translation>Tout afficher</translation>
    </message>
</context>
<context>
    <name>RuleDialog</name>
    <message>
        <source>Edit rule</source>
        <translation>Modifier la règle</translation>
    </message>
    <message>
        <source>Add rule</source>
        <translation>Ajouter une règle</translation>
    </message>
    <message>
        <source>Pattern</source>
        <translation>Motif</translation>
    </message>
    <message>
        <source>example.com, *.example.com, host:8080</source>
        <translation>example.com, *.example.com, host:8080</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>Décision</translation>
    </message>
    <message>
        <source>allow</source>
        <translation>autoriser</translation>
    </message>
    <message>
        <source>deny</source>
        <translation>refuser</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Portée</translation>
    </message>
    <message>
        <source>Every sandbox</source>
        <translation>Tous les bacs à sable</translation>
    </message>
    <message>
        <source>One sandbox</source>
        <translation>Un bac à sable</translation>
    </message>
    <message>
        <source>One kit</source>
        <translation>Un kit</translation>
    </message>
    <message>
        <source>sandbox name</source>
        <translation>nom du bac à sable</translation>
    </message>
    <message>
        <source>kit name</source>
        <translation>nom du kit</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Enregistrer</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Ajouter</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>RuleRow</name>
    <message>
        <source>%1 %2, %3, from %4</source>
        <translation>%1 %2, %3, origine : %4</translation>
    </message>
    <message>
        <source>deny</source>
        <translation>refuser</translation>
    </message>
    <message>
        <source>allow</source>
        <translation>autoriser</translation>
    </message>
    <message>
        <source>in the kit</source>
        <translation>dans le kit</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>Modifier</translation>
    </message>
    <message>
        <source>Edit the rule %1</source>
        <translation>Modifier la règle %1</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Supprimer</translation>
    </message>
    <message>
        <source>Remove the rule %1</source>
        <translation>Supprimer la règle %1</translation>
    </message>
</context>
<context>
    <name>SandboxLogDialog</name>
    <message>
        <source>Output of %1</source>
        <translation>Sortie de %1</translation>
    </message>
    <message>
        <source>Search the output</source>
        <translation>Rechercher dans la sortie</translation>
    </message>
    <message>
        <source>1 match</source>
        <translation>1 résultat</translation>
    </message>
    <message>
        <source>%1 matches</source>
        <translation>%1 résultats</translation>
    </message>
    <message>
        <source>Previous</source>
        <translation>Précédent</translation>
    </message>
    <message>
        <source>Previous match</source>
        <translation>Résultat précédent</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>Suivant</translation>
    </message>
    <message>
        <source>Next match</source>
        <translation>Résultat suivant</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fermer</translation>
    </message>
</context>
<context>
    <name>SandboxPermissionsDialog</name>
    <message>
        <source>Permissions of %1</source>
        <translation>Permissions de %1</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Projet</translation>
    </message>
    <message>
        <source>The rules of this sandbox&apos;s project</source>
        <translation>Les règles du projet de ce bac à sable</translation>
    </message>
    <message>
        <source>Kit</source>
        <translation>Kit</translation>
    </message>
    <message>
        <source>The rules of its kit</source>
        <translation>Les règles de son kit</translation>
    </message>
</context>
<context>
    <name>SandboxRecreateDialog</name>
    <message>
        <source>Recreate %1?</source>
        <translation>Recréer %1 ?</translation>
    </message>
    <message>
        <source>The sandbox is made again from its kit as loaded now: its system and home folder are new and the kit&apos;s setup runs again. Its volumes and your project folder are kept; a running sandbox is started again.</source>
        <translation>Le bac à sable est refait à partir de son kit tel qu’il est chargé maintenant : son système et son dossier personnel sont neufs et l’installation du kit s’exécute de nouveau. Ses volumes et votre dossier de projet sont conservés ; un bac à sable en cours d’exécution est redémarré.</translation>
    </message>
    <message>
        <source>Recreate</source>
        <translation>Recréer</translation>
    </message>
    <message>
        <source>Recreate %1</source>
        <translation>Recréer %1</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>SandboxRemoveDialog</name>
    <message>
        <source>Remove %1?</source>
        <translation>Supprimer %1 ?</translation>
    </message>
    <message>
        <source>%1 is running: it will be stopped first.</source>
        <translation>%1 est en cours d’exécution : il sera d’abord arrêté.</translation>
    </message>
    <message>
        <source>The sandbox and its home folder are deleted. Your project folder is kept.</source>
        <translation>Le bac à sable et son dossier personnel sont supprimés. Votre dossier de projet est conservé.</translation>
    </message>
    <message>
        <source>Stop and remove</source>
        <translation>Arrêter et supprimer</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Supprimer</translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation>Supprimer %1</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>SandboxReviewDialog</name>
    <message>
        <source>What %1 changed that your tools run</source>
        <translation>Ce que %1 a changé et que vos outils exécutent</translation>
    </message>
    <message>
        <source>Files in the workspace that git, make, your editor or CI run or trust. Read each change before you run anything in this folder on your computer.</source>
        <translation>Les fichiers de l’espace de travail que git, make, votre éditeur ou la CI exécutent ou croient. Lisez chaque modification avant de lancer quoi que ce soit dans ce dossier sur votre ordinateur.</translation>
    </message>
    <message>
        <source>Nothing your tools run or trust changed since the sandbox started.</source>
        <translation>Rien de ce que vos outils exécutent ou croient n’a changé depuis le démarrage du bac à sable.</translation>
    </message>
    <message>
        <source>%1 (%2): %3</source>
        <translation>%1 (%2) : %3</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>Rétablir</translation>
    </message>
    <message>
        <source>Put %1 back as it was when the sandbox started</source>
        <translation>Remettre %1 comme au démarrage du bac à sable</translation>
    </message>
</context>
<context>
    <name>SandboxRow</name>
    <message>
        <source>Sandbox %1, %2</source>
        <translation>Bac à sable %1, %2</translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>Traitement en cours…</translation>
    </message>
    <message>
        <source>Kit %1 · %2</source>
        <translation>Kit %1 · %2</translation>
    </message>
    <message>
        <source>up %1</source>
        <translation>actif depuis %1</translation>
    </message>
    <message>
        <source>agent open in a terminal</source>
        <translation>agent ouvert dans un terminal</translation>
    </message>
    <message>
        <source>No refused connections since it started</source>
        <translation>Aucune connexion refusée depuis son démarrage</translation>
    </message>
    <message>
        <source>1 refused connection since it started</source>
        <translation>1 connexion refusée depuis son démarrage</translation>
    </message>
    <message>
        <source>%1 refused connections since it started</source>
        <translation>%1 connexions refusées depuis son démarrage</translation>
    </message>
    <message>
        <source>Install a terminal (xterm, GNOME Terminal or Konsole) to open the agent here, or run this in one:</source>
        <translation>Installez un terminal (xterm, GNOME Terminal ou Konsole) pour ouvrir l’agent d’ici, ou lancez ceci dans un terminal :</translation>
    </message>
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
        <source>No agent action refused since it started</source>
        <translation>Aucune action de l’agent refusée depuis son démarrage</translation>
    </message>
    <message>
        <source>1 agent action refused or asked since it started</source>
        <translation>1 action de l’agent refusée ou soumise à confirmation depuis son démarrage</translation>
    </message>
    <message>
        <source>%1 agent actions refused or asked since it started</source>
        <translation>%1 actions de l’agent refusées ou soumises à confirmation depuis son démarrage</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Arrêter</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Démarrer</translation>
    </message>
    <message>
        <source>Stop %1</source>
        <translation>Arrêter %1</translation>
    </message>
    <message>
        <source>Start %1</source>
        <translation>Démarrer %1</translation>
    </message>
    <message>
        <source>Open agent</source>
        <translation>Ouvrir l’agent</translation>
    </message>
    <message>
        <source>Open the agent of %1 in a terminal</source>
        <translation>Ouvrir l’agent de %1 dans un terminal</translation>
    </message>
    <message>
        <source>Start %1 and open its agent in a terminal</source>
        <translation>Démarrer %1 et ouvrir son agent dans un terminal</translation>
    </message>
    <message>
        <source>Open shell</source>
        <translation>Ouvrir un shell</translation>
    </message>
    <message>
        <source>Open a shell in %1 in a terminal</source>
        <translation>Ouvrir un shell dans %1, dans un terminal</translation>
    </message>
    <message>
        <source>Logs</source>
        <translation>Journaux</translation>
    </message>
    <message>
        <source>Show the output of %1</source>
        <translation>Afficher la sortie de %1</translation>
    </message>
    <message>
        <source>Permissions…</source>
        <translation>Permissions…</translation>
    </message>
    <message>
        <source>The agent&apos;s permissions in %1</source>
        <translation>Les permissions de l’agent dans %1</translation>
    </message>
    <message>
        <source>Remove…</source>
        <translation>Supprimer…</translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation>Supprimer %1</translation>
    </message>
    <message>
        <source>Review…</source>
        <translation>Vérifier…</translation>
    </message>
    <message>
        <source>What %1 changed in the workspace that your tools run</source>
        <translation>Ce que %1 a changé dans l’espace de travail et que vos outils exécutent</translation>
    </message>
    <message>
        <source>Connections in the last hour: %1</source>
        <translation>Connexions de la dernière heure : %1</translation>
    </message>
    <message>
        <source>Services…</source>
        <translation>Services…</translation>
    </message>
    <message>
        <source>The companion services of %1</source>
        <translation>Les services associés de %1</translation>
    </message>
    <message>
        <source>Resume session…</source>
        <translation>Reprendre une session…</translation>
    </message>
    <message>
        <source>Resume a session of the agent of %1 in a terminal</source>
        <translation>Reprendre une session de l’agent de %1 dans un terminal</translation>
    </message>
    <message>
        <source>Recreate…</source>
        <translation>Recréer…</translation>
    </message>
    <message>
        <source>Make %1 again from its kit, keeping its volumes</source>
        <translation>Refaire %1 à partir de son kit, en gardant ses volumes</translation>
    </message>
</context>
<context>
    <name>SandboxServicesDialog</name>
    <message>
        <source>Services of %1</source>
        <translation>Services de %1</translation>
    </message>
    <message>
        <source>Containers on the Docker engine beside the sandbox, started and stopped with it. Inside, the sandbox reaches each by its name and port.</source>
        <translation>Des conteneurs sur le moteur Docker à côté du bac à sable, démarrés et arrêtés avec lui. À l’intérieur, le bac à sable joint chacun par son nom et son port.</translation>
    </message>
    <message>
        <source>No services.</source>
        <translation>Aucun service.</translation>
    </message>
    <message>
        <source>%1 · %2 · port %3</source>
        <translation>%1 · %2 · port %3</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Supprimer</translation>
    </message>
    <message>
        <source>Remove service %1 and its volumes</source>
        <translation>Supprimer le service %1 et ses volumes</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nom</translation>
    </message>
    <message>
        <source>Service name</source>
        <translation>Nom du service</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>Image</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>Port</translation>
    </message>
    <message>
        <source>Variables</source>
        <translation>Variables</translation>
    </message>
    <message>
        <source>NAME=VALUE, one a line</source>
        <translation>NAME=VALUE, une par ligne</translation>
    </message>
    <message>
        <source>Variables, one NAME=VALUE a line</source>
        <translation>Variables, une NAME=VALUE par ligne</translation>
    </message>
    <message>
        <source>Add service</source>
        <translation>Ajouter le service</translation>
    </message>
    <message>
        <source>Add the service to %1</source>
        <translation>Ajouter le service à %1</translation>
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
        <source>New sandbox…</source>
        <translation>Nouveau bac à sable…</translation>
    </message>
    <message>
        <source>Create a new sandbox</source>
        <translation>Créer un bac à sable</translation>
    </message>
    <message>
        <source>Sandboxes are run by the daemon</source>
        <translation>Les bacs à sable sont exécutés par le service</translation>
    </message>
    <message>
        <source>paddockd, Paddock&apos;s background service, runs the sandboxes. Once it is connected (see the status line below), this page lists every sandbox with its status, and creates new ones on your project folders.</source>
        <translation>paddockd, le service d’arrière-plan de Paddock, exécute les bacs à sable. Une fois qu’il est connecté (voir la ligne d’état ci-dessous), cette page liste chaque bac à sable avec son état et en crée de nouveaux sur vos dossiers de projet.</translation>
    </message>
    <message>
        <source>Check whether paddockd, the background service that runs the sandboxes, is running.</source>
        <translation>Vérifier si paddockd, le service d’arrière-plan qui exécute les bacs à sable, est en cours d’exécution.</translation>
    </message>
    <message>
        <source>No sandboxes yet</source>
        <translation>Aucun bac à sable pour l’instant</translation>
    </message>
    <message>
        <source>Create one with New sandbox: choose a project folder and a kit, review what the kit asks for, and Paddock starts the agent in a sandbox whose only way out is its proxy.</source>
        <translation>Créez-en un avec « Nouveau bac à sable » : choisissez un dossier de projet et un kit, examinez ce que demande le kit, et Paddock démarre l’agent dans un bac à sable dont la seule sortie est son proxy.</translation>
    </message>
    <message>
        <source>A terminal opens on a shell in %1.</source>
        <translation>Un terminal s’ouvre sur un shell dans %1.</translation>
    </message>
    <message>
        <source>The agent of %1 opens in a terminal.</source>
        <translation>L’agent de %1 s’ouvre dans un terminal.</translation>
    </message>
    <message>
        <source>The same from a terminal, in the current folder: the agent runs on that terminal, and the sandbox keeps running when you leave it.</source>
        <translation>La même chose dans un terminal, dans le dossier courant : l’agent s’exécute dans ce terminal, et le bac à sable continue de tourner quand vous le quittez.</translation>
    </message>
    <message>
        <source>%1 is running; its agent opens in a terminal.</source>
        <translation>%1 est en cours d’exécution ; son agent s’ouvre dans un terminal.</translation>
    </message>
    <message>
        <source>%1 is running. No terminal emulator was found: its row shows the command that opens its agent.</source>
        <translation>%1 est en cours d’exécution. Aucun émulateur de terminal n’a été trouvé : sa ligne indique la commande qui ouvre son agent.</translation>
    </message>
    <message>
        <source>%1 was not started: its kit&apos;s keys were not approved, and nothing was recorded. To approve later, press Start again, or run: %2</source>
        <translation>%1 n’a pas été démarré : les clés de son kit n’ont pas été approuvées, et rien n’a été enregistré. Pour approuver plus tard, appuyez à nouveau sur Démarrer, ou lancez : %2</translation>
    </message>
    <message>
        <source>Continue the most recent session</source>
        <translation>Continuer la session la plus récente</translation>
    </message>
    <message>
        <source>No session to resume</source>
        <translation>Aucune session à reprendre</translation>
    </message>
</context>
<context>
    <name>SecretRemoveDialog</name>
    <message>
        <source>Remove the key of %1?</source>
        <translation>Supprimer la clé de %1 ?</translation>
    </message>
    <message>
        <source>The key is deleted from the keychain. Sandboxes whose kit needs it will not start until you set it again; approvals are kept.</source>
        <translation>La clé est supprimée du trousseau. Les bacs à sable dont le kit en a besoin ne démarreront pas tant que vous ne l’aurez pas définie à nouveau ; les approbations sont conservées.</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Supprimer</translation>
    </message>
    <message>
        <source>Remove the key</source>
        <translation>Supprimer la clé</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>SecretRow</name>
    <message>
        <source>Key of %1</source>
        <translation>Clé de %1</translation>
    </message>
    <message>
        <source>Only for the sandbox %1</source>
        <translation>Uniquement pour le bac à sable %1</translation>
    </message>
    <message>
        <source>For every sandbox</source>
        <translation>Pour tous les bacs à sable</translation>
    </message>
    <message>
        <source>missing from the keychain</source>
        <translation>absente du trousseau</translation>
    </message>
    <message>
        <source>Set %1</source>
        <translation>Définie le %1</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>Replace…</source>
        <translation>Remplacer…</translation>
    </message>
    <message>
        <source>Cancel replacing the key of %1</source>
        <translation>Annuler le remplacement de la clé de %1</translation>
    </message>
    <message>
        <source>Replace the key of %1</source>
        <translation>Remplacer la clé de %1</translation>
    </message>
    <message>
        <source>Remove…</source>
        <translation>Supprimer…</translation>
    </message>
    <message>
        <source>Remove the key of %1</source>
        <translation>Supprimer la clé de %1</translation>
    </message>
    <message>
        <source>New key for %1</source>
        <translation>Nouvelle clé pour %1</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Enregistrer</translation>
    </message>
    <message>
        <source>Save the new key of %1</source>
        <translation>Enregistrer la nouvelle clé de %1</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Échec</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>Tester</translation>
    </message>
    <message>
        <source>Test the key of %1 with its provider</source>
        <translation>Tester la clé de %1 auprès de son fournisseur</translation>
    </message>
    <message>
        <source>Remove the custom secret %1</source>
        <translation>Supprimer le secret personnalisé %1</translation>
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
        <source>Keys are kept by the daemon</source>
        <translation>Les clés sont conservées par le service</translation>
    </message>
    <message>
        <source>Paddock&apos;s daemon holds the keychain for every sandbox. When it is connected (see the status line below), this page lists your provider keys, masked, and lets you add, replace and remove them.</source>
        <translation>Le service de Paddock détient le trousseau pour tous les bacs à sable. Lorsqu’il est connecté (voir la ligne d’état ci-dessous), cette page liste vos clés de fournisseurs, masquées, et vous permet d’en ajouter, d’en remplacer et d’en supprimer.</translation>
    </message>
    <message>
        <source>Use Check again in the status line to start the daemon.</source>
        <translation>Utilisez « Vérifier à nouveau » dans la ligne d’état pour démarrer le service.</translation>
    </message>
    <message>
        <source>No keychain is reachable, so no key can be stored.</source>
        <translation>Aucun trousseau n’est accessible : aucune clé ne peut donc être enregistrée.</translation>
    </message>
    <message>
        <source>Install and start %1, then check again. Paddock never keeps keys in a plain file.</source>
        <translation>Installez et démarrez %1, puis vérifiez à nouveau. Paddock ne conserve jamais de clés dans un fichier en clair.</translation>
    </message>
    <message>
        <source>Check again</source>
        <translation>Vérifier à nouveau</translation>
    </message>
    <message>
        <source>Check the keychain again</source>
        <translation>Vérifier à nouveau le trousseau</translation>
    </message>
    <message>
        <source>Add a key</source>
        <translation>Ajouter une clé</translation>
    </message>
    <message>
        <source>Service</source>
        <translation>Service</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>Bac à sable</translation>
    </message>
    <message>
        <source>optional: only for this sandbox</source>
        <translation>facultatif : uniquement pour ce bac à sable</translation>
    </message>
    <message>
        <source>Sandbox (optional)</source>
        <translation>Bac à sable (facultatif)</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Clé</translation>
    </message>
    <message>
        <source>pasted here, never shown</source>
        <translation>collée ici, jamais affichée</translation>
    </message>
    <message>
        <source>Save in the keychain</source>
        <translation>Enregistrer dans le trousseau</translation>
    </message>
    <message>
        <source>Save the key in the keychain</source>
        <translation>Enregistrer la clé dans le trousseau</translation>
    </message>
    <message>
        <source>Stored keys</source>
        <translation>Clés enregistrées</translation>
    </message>
    <message>
        <source>No keys yet. A kit names the services it needs; add their keys above.</source>
        <translation>Aucune clé pour l’instant. Un kit nomme les services dont il a besoin ; ajoutez leurs clés ci-dessus.</translation>
    </message>
    <message>
        <source>as the kit names it, e.g. %1</source>
        <translation>tel que le kit le nomme, par ex. %1</translation>
    </message>
    <message>
        <source>as the kit names it</source>
        <translation>tel que le kit le nomme</translation>
    </message>
</context>
<context>
    <name>SharedFoldersStep</name>
    <message>
        <source>Choose a folder to share</source>
        <translation>Choisir un dossier à partager</translation>
    </message>
    <message>
        <source>Optional. Share a package cache or a settings file, or set variables such as PGHOST. Your home folder, ~/.ssh, keyrings and Paddock&apos;s own folders are never shared, and keys belong in Secrets, not in variables.</source>
        <translation>Facultatif. Partagez un cache de paquets ou un fichier de réglages, ou définissez des variables comme PGHOST. Votre dossier personnel, ~/.ssh, les trousseaux et les dossiers propres à Paddock ne sont jamais partagés, et les clés ont leur place dans Secrets, pas dans les variables.</translation>
    </message>
    <message>
        <source>Shared folders</source>
        <translation>Dossiers partagés</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Supprimer</translation>
    </message>
    <message>
        <source>Stop sharing %1</source>
        <translation>Ne plus partager %1</translation>
    </message>
    <message>
        <source>~/.nuget</source>
        <translation>~/.nuget</translation>
    </message>
    <message>
        <source>Folder on this computer</source>
        <translation>Dossier sur cet ordinateur</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Choisir…</translation>
    </message>
    <message>
        <source>where it appears inside: the same path if empty, e.g. /home/agent/.nuget</source>
        <translation>où il apparaît à l’intérieur : le même chemin si vide, par ex. /home/agent/.nuget</translation>
    </message>
    <message>
        <source>Path inside the sandbox</source>
        <translation>Chemin dans le bac à sable</translation>
    </message>
    <message>
        <source>Read-only</source>
        <translation>Lecture seule</translation>
    </message>
    <message>
        <source>Add folder</source>
        <translation>Ajouter le dossier</translation>
    </message>
    <message>
        <source>Variables</source>
        <translation>Variables</translation>
    </message>
    <message>
        <source>Remove variable %1</source>
        <translation>Supprimer la variable %1</translation>
    </message>
    <message>
        <source>NAME=VALUE, e.g. PGHOST=postgres</source>
        <translation>NAME=VALUE, par ex. PGHOST=postgres</translation>
    </message>
    <message>
        <source>Variable</source>
        <translation>Variable</translation>
    </message>
    <message>
        <source>Add variable</source>
        <translation>Ajouter la variable</translation>
    </message>
    <message>
        <source>Use these for every new sandbox of this kit</source>
        <translation>Utiliser ces réglages pour chaque nouveau bac à sable de ce kit</translation>
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
    <name>UpstreamProxySection</name>
    <message>
        <source>Upstream proxy</source>
        <translation>Proxy amont</translation>
    </message>
    <message>
        <source>Behind a company&apos;s proxy, set it here. Without a setting, Paddock uses HTTPS_PROXY, ALL_PROXY or http_proxy from the environment it started in, then the desktop&apos;s proxy settings. The rules still decide first: a refused connection never reaches the proxy.</source>
        <translation>Derrière le proxy d’une entreprise, indiquez-le ici. Sans réglage, Paddock utilise HTTPS_PROXY, ALL_PROXY ou http_proxy de l’environnement dans lequel il a démarré, puis les réglages de proxy du bureau. Les règles décident toujours en premier : une connexion refusée n’atteint jamais le proxy.</translation>
    </message>
    <message>
        <source>Proxy URL</source>
        <translation>URL du proxy</translation>
    </message>
    <message>
        <source>http://user@proxy.example.com:3128 or socks5h://host:1080</source>
        <translation>http://user@proxy.example.com:3128 ou socks5h://host:1080</translation>
    </message>
    <message>
        <source>Upstream proxy URL</source>
        <translation>URL du proxy amont</translation>
    </message>
    <message>
        <source>Not for</source>
        <translation>Sauf pour</translation>
    </message>
    <message>
        <source>intranet.example.com, 10.0.0.0/8</source>
        <translation>intranet.example.com, 10.0.0.0/8</translation>
    </message>
    <message>
        <source>Hosts reached without the upstream proxy</source>
        <translation>Hôtes joints sans le proxy amont</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>Mot de passe</translation>
    </message>
    <message>
        <source>kept in the keychain; type to replace it</source>
        <translation>conservé dans le trousseau ; saisissez-en un autre pour le remplacer</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucun</translation>
    </message>
    <message>
        <source>Upstream proxy password</source>
        <translation>Mot de passe du proxy amont</translation>
    </message>
    <message>
        <source>Forget</source>
        <translation>Oublier</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Enregistrer</translation>
    </message>
</context>
<context>
    <name>WizardDialog</name>
    <message>
        <source>New sandbox</source>
        <translation>Nouveau bac à sable</translation>
    </message>
    <message>
        <source>Choose a kit folder (it holds spec.yaml)</source>
        <translation>Choisir un dossier de kit (il contient spec.yaml)</translation>
    </message>
    <message>
        <source>1. Project folder</source>
        <translation>1. Dossier de projet</translation>
    </message>
    <message>
        <source>2. Kit</source>
        <translation>2. Kit</translation>
    </message>
    <message>
        <source>3. Backend and workspace</source>
        <translation>3. Moteur et espace de travail</translation>
    </message>
    <message>
        <source>6. Create and start</source>
        <translation>6. Créer et démarrer</translation>
    </message>
    <message>
        <source>Choose the kit that describes the agent, or a kit folder of your own.</source>
        <translation>Choisissez le kit qui décrit l’agent, ou l’un de vos propres dossiers de kit.</translation>
    </message>
    <message>
        <source>Choose a kit folder (it holds spec.yaml).</source>
        <translation>Choisissez un dossier de kit (il contient spec.yaml).</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Kit folder</source>
        <translation>Dossier de kit</translation>
    </message>
    <message>
        <source>Choose a folder…</source>
        <translation>Choisir un dossier…</translation>
    </message>
    <message>
        <source>Choose a kit folder</source>
        <translation>Choisir un dossier de kit</translation>
    </message>
    <message>
        <source>Workspace</source>
        <translation>Espace de travail</translation>
    </message>
    <message>
        <source>Direct: the agent edits the folder itself</source>
        <translation>Direct : l’agent modifie le dossier lui-même</translation>
    </message>
    <message>
        <source>Direct workspace</source>
        <translation>Espace de travail direct</translation>
    </message>
    <message>
        <source>Clone: the agent works on a clone of the folder&apos;s git repository</source>
        <translation>Clone : l’agent travaille sur un clone du dépôt git du dossier</translation>
    </message>
    <message>
        <source>Clone workspace</source>
        <translation>Espace de travail cloné</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nom</translation>
    </message>
    <message>
        <source>optional: made from the kit and the folder</source>
        <translation>facultatif : formé à partir du kit et du dossier</translation>
    </message>
    <message>
        <source>Sandbox name</source>
        <translation>Nom du bac à sable</translation>
    </message>
    <message>
        <source>Image: %1</source>
        <translation>Image : %1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucune</translation>
    </message>
    <message>
        <source>Allowed domains: %1</source>
        <translation>Domaines autorisés : %1</translation>
    </message>
    <message>
        <source>Allowed domains: none of its own (your network policy applies)</source>
        <translation>Domaines autorisés : aucun en propre (votre politique réseau s’applique)</translation>
    </message>
    <message>
        <source>Keys: none</source>
        <translation>Clés : aucune</translation>
    </message>
    <message>
        <source>Keys: %1</source>
        <translation>Clés : %1</translation>
    </message>
    <message>
        <source>%1 (sent to %2)</source>
        <translation>%1 (envoyée à %2)</translation>
    </message>
    <message>
        <source>What it can reach on this computer</source>
        <translation>Ce à quoi il peut accéder sur cet ordinateur</translation>
    </message>
    <message>
        <source>clone</source>
        <translation>cloné</translation>
    </message>
    <message>
        <source>direct</source>
        <translation>direct</translation>
    </message>
    <message>
        <source>Creating the sandbox (the kit&apos;s setup runs now)…</source>
        <translation>Création du bac à sable (la préparation du kit s’exécute maintenant)…</translation>
    </message>
    <message>
        <source>Starting %1…</source>
        <translation>Démarrage de %1…</translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>Traitement en cours…</translation>
    </message>
    <message>
        <source>Create a %1 sandbox from the kit %2 on %3 (%4 workspace), start it, and open its agent in a terminal.</source>
        <translation>Créer un bac à sable %1 à partir du kit %2 sur %3 (espace de travail %4), le démarrer et ouvrir son agent dans un terminal.</translation>
    </message>
    <message>
        <source>No terminal emulator was found, so the agent cannot open here: it starts, and its row shows the command that opens it. Install xterm, GNOME Terminal or Konsole to open agents from this window.</source>
        <translation>Aucun émulateur de terminal n’a été trouvé, l’agent ne peut donc pas s’ouvrir ici : il démarre, et sa ligne indique la commande qui l’ouvre. Installez xterm, GNOME Terminal ou Konsole pour ouvrir les agents depuis cette fenêtre.</translation>
    </message>
    <message>
        <source>Create a %1 sandbox from the kit %2 on %3 (%4 workspace), then start it.</source>
        <translation>Créer un bac à sable %1 à partir du kit %2 sur %3 (espace de travail %4), puis le démarrer.</translation>
    </message>
    <message>
        <source>It asks to reach this computer and the networks it is on</source>
        <translation>Il demande à atteindre cet ordinateur et les réseaux où il se trouve</translation>
    </message>
    <message>
        <source>%1 reaches %2</source>
        <translation>%1 atteint %2</translation>
    </message>
    <message>
        <source>Services that trust this computer, such as databases, your router or the cloud metadata service, will answer the sandbox.</source>
        <translation>Les services qui font confiance à cet ordinateur, comme les bases de données, votre routeur ou le service de métadonnées du cloud, répondront au bac à sable.</translation>
    </message>
    <message>
        <source>Allow this kit to reach them</source>
        <translation>Autoriser ce kit à les atteindre</translation>
    </message>
    <message>
        <source>Allow this kit to reach this computer and its networks</source>
        <translation>Autoriser ce kit à atteindre cet ordinateur et ses réseaux</translation>
    </message>
    <message>
        <source>4. Shared folders and variables</source>
        <translation>4. Dossiers partagés et variables</translation>
    </message>
    <message>
        <source>5. Review</source>
        <translation>5. Récapitulatif</translation>
    </message>
    <message>
        <source>6. Keys and approvals</source>
        <translation>6. Clés et approbations</translation>
    </message>
    <message>
        <source>7. Create and start</source>
        <translation>7. Créer et démarrer</translation>
    </message>
    <message>
        <source>%1 reaches %2 (approved for this kit)</source>
        <translation>%1 atteint %2 (approuvé pour ce kit)</translation>
    </message>
    <message>
        <source>Docker (engine %1)</source>
        <translation>Docker (moteur %1)</translation>
    </message>
    <message>
        <source>Composed of: %1</source>
        <translation>Composé de : %1</translation>
    </message>
</context>
<context>
    <name>WizardFrame</name>
    <message>
        <source>Back</source>
        <translation>Précédent</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>Suivant</translation>
    </message>
    <message>
        <source>Create and start</source>
        <translation>Créer et démarrer</translation>
    </message>
    <message>
        <source>Create and start the sandbox</source>
        <translation>Créer et démarrer le bac à sable</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>paddock::gui::ActivityModel</name>
    <message>
        <source>%1 up · %2 down</source>
        <translation>%1 envoyés · %2 reçus</translation>
    </message>
</context>
<context>
    <name>paddock::gui::AgentPerms</name>
    <message>
        <source>Line %1: %2</source>
        <translation>Ligne %1 : %2</translation>
    </message>
    <message>
        <source>Changed %1</source>
        <translation>%1 modifié</translation>
    </message>
    <message>
        <source>No change: the file already says so.</source>
        <translation>Aucune modification : le fichier le dit déjà.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::AskNotifier</name>
    <message>
        <source>Sandbox %1 waits to reach %2</source>
        <translation>Le bac à sable %1 attend pour joindre %2</translation>
    </message>
    <message numerus="yes">
        <source>No rule covers it. Answer within %n second(s), or it is refused.</source>
        <translation>
            <numerusform>Aucune règle ne la couvre. Répondez d’ici %n seconde, sinon elle est refusée.</numerusform>
            <numerusform>Aucune règle ne la couvre. Répondez d’ici %n secondes, sinon elle est refusée.</numerusform>
        </translation>
    </message>
    <message>
        <source>Allow once</source>
        <translation>Autoriser une fois</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>Refuser</translation>
    </message>
</context>
<context>
    <name>paddock::gui::BundleExporter</name>
    <message>
        <source>%1 B</source>
        <translation>%1 o</translation>
    </message>
    <message>
        <source>%1 KiB</source>
        <translation>%1 Kio</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 Mio</translation>
    </message>
    <message>
        <source>Choose where to write the bundle (a full path).</source>
        <translation>Choisissez où écrire le paquet (un chemin complet).</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>Impossible de lire %1 : %2</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>Impossible d’écrire %1 : %2</translation>
    </message>
    <message>
        <source>Wrote %1: kit %2, %3 files (%4).</source>
        <translation>%1 écrit : kit %2, %3 fichiers (%4).</translation>
    </message>
    <message numerus="yes">
        <source>Policy: preset %1, %n rule(s).</source>
        <translation>
            <numerusform>Politique : préréglage %1, %n règle.</numerusform>
            <numerusform>Politique : préréglage %1, %n règles.</numerusform>
        </translation>
    </message>
    <message>
        <source>Students provide no key.</source>
        <translation>Les étudiants ne fournissent aucune clé.</translation>
    </message>
    <message>
        <source>Students provide their own keys for: %1 (the bundle holds no value).</source>
        <translation>Les étudiants fournissent leurs propres clés pour : %1 (le paquet ne contient aucune valeur).</translation>
    </message>
</context>
<context>
    <name>paddock::gui::ChecklistModel</name>
    <message>
        <source>The credential variable inside is the sentinel</source>
        <translation>La variable d’identifiant à l’intérieur est la sentinelle</translation>
    </message>
    <message>
        <source>A domain on no list is refused and logged</source>
        <translation>Un domaine absent de toute liste est refusé et journalisé</translation>
    </message>
    <message>
        <source>A file edited inside appears on the host</source>
        <translation>Un fichier modifié à l’intérieur apparaît sur l’hôte</translation>
    </message>
    <message>
        <source>The policy log shows no refusal the policy did not choose</source>
        <translation>Le journal de la politique ne montre aucun refus que la politique n’a pas choisi</translation>
    </message>
    <message>
        <source>The key reaches its provider</source>
        <translation>La clé atteint son fournisseur</translation>
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
        <translation>Notes de l’auteur du paquet :</translation>
    </message>
    <message>
        <source>Importing it will:</source>
        <translation>L’import va :</translation>
    </message>
    <message>
        <source>• replace the kit folder %1 (%2 files)</source>
        <translation>• remplacer le dossier de kit %1 (%2 fichiers)</translation>
    </message>
    <message>
        <source>• write the kit folder %1 (%2 files)</source>
        <translation>• écrire le dossier de kit %1 (%2 fichiers)</translation>
    </message>
    <message>
        <source>• set the network policy preset: %1 → %2</source>
        <translation>• définir le préréglage de la politique réseau : %1 → %2</translation>
    </message>
    <message>
        <source>• keep the rule %1 (already present)</source>
        <translation>• conserver la règle %1 (déjà présente)</translation>
    </message>
    <message>
        <source>• add the rule %1</source>
        <translation>• ajouter la règle %1</translation>
    </message>
    <message>
        <source>• leave the network policy as it is</source>
        <translation>• laisser la politique réseau telle quelle</translation>
    </message>
    <message>
        <source>Secrets you will enter afterwards (never in the bundle):</source>
        <translation>Secrets que vous saisirez ensuite (jamais dans le paquet) :</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>Attention : %1</translation>
    </message>
    <message>
        <source>%1 was refused: %2</source>
        <translation>%1 a été refusé : %2</translation>
    </message>
    <message>
        <source>Kit %1 imported into %2.</source>
        <translation>Kit %1 importé dans %2.</translation>
    </message>
    <message>
        <source>No check failed: this sandbox is ready.</source>
        <translation>Aucune vérification n’a échoué : ce bac à sable est prêt.</translation>
    </message>
    <message>
        <source>Some checks failed: read each sentence for what to fix.</source>
        <translation>Certaines vérifications ont échoué : lisez chaque phrase pour savoir quoi corriger.</translation>
    </message>
    <message>
        <source>Next: create your sandbox (the keys it needs are asked for there), then run the checklist.</source>
        <translation>Ensuite : créez votre bac à sable (les clés dont il a besoin y sont demandées), puis lancez la liste de vérification.</translation>
    </message>
    <message>
        <source>Starting the checks…</source>
        <translation>Lancement des vérifications…</translation>
    </message>
    <message>
        <source>Checked %1 of %2…</source>
        <translation>%1 vérification(s) sur %2 faite(s)…</translation>
    </message>
    <message>
        <source>The agent&apos;s own rules it brings (pi-permission-system):</source>
        <translation>Les règles propres à l’agent qu’il apporte (pi-permission-system) :</translation>
    </message>
    <message>
        <source>, a host grant: reaches %1</source>
        <translation>, un accès à l’hôte : atteint %1</translation>
    </message>
    <message>
        <source>The kit reaches this computer or its networks (asked before its first sandbox):</source>
        <translation>Le kit atteint cet ordinateur ou ses réseaux (demandé avant son premier bac à sable) :</translation>
    </message>
    <message>
        <source>• %1 reaches %2</source>
        <translation>• %1 atteint %2</translation>
    </message>
    <message>
        <source>Warning: allow-all lets every sandbox reach every public host</source>
        <translation>Attention : tout autoriser laisse chaque bac à sable atteindre tous les hôtes publics</translation>
    </message>
    <message>
        <source>Its sandboxes run on the container engine %1, whose address your teacher gives.</source>
        <translation>Ses bacs à sable tournent sur le moteur de conteneurs %1, dont votre enseignant donne l’adresse.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::DaemonBound</name>
    <message>
        <source>The daemon is not connected.</source>
        <translation>Le service n’est pas connecté.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::DaemonStatus</name>
    <message>
        <source>The connection to paddockd closed.</source>
        <translation>La connexion à paddockd s’est fermée.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::EngineSettings</name>
    <message>
        <source>this computer&apos;s engine</source>
        <translation>le moteur de cet ordinateur</translation>
    </message>
    <message>
        <source>a docker context</source>
        <translation>un contexte docker</translation>
    </message>
    <message>
        <source>added in Paddock</source>
        <translation>ajouté dans Paddock</translation>
    </message>
    <message>
        <source>on this computer</source>
        <translation>sur cet ordinateur</translation>
    </message>
    <message>
        <source>on another computer: sandboxes get a clone of the workspace</source>
        <translation>sur un autre ordinateur : les bacs à sable reçoivent un clone de l&apos;espace de travail</translation>
    </message>
</context>
<context>
    <name>paddock::gui::EnvironmentPlan</name>
    <message>
        <source>Refused: %1</source>
        <translation>Refusé : %1</translation>
    </message>
    <message>
        <source>The file changed since it was shown: read its host commands again.</source>
        <translation>Le fichier a changé depuis son affichage : relisez les commandes qu’il exécute sur cet ordinateur.</translation>
    </message>
    <message>
        <source>Tick each command that runs on this computer to approve it, once you have read it.</source>
        <translation>Cochez chaque commande exécutée sur cet ordinateur pour l’approuver, une fois que vous l’avez lue.</translation>
    </message>
    <message>
        <source>Environment %1 is up.</source>
        <translation>L’environnement %1 est démarré.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::ImagePreparation</name>
    <message>
        <source>The kit names no image (sandbox.image).</source>
        <translation>Le kit ne nomme aucune image (sandbox.image).</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>Démarrage…</translation>
    </message>
    <message>
        <source>Step %1 of %2: %3</source>
        <translation>Étape %1 sur %2 : %3</translation>
    </message>
</context>
<context>
    <name>paddock::gui::KitEditorModel</name>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>Impossible de lire %1 : %2</translation>
    </message>
    <message>
        <source>A sample kit shipped with Paddock: copy it to a folder of yours to change it.</source>
        <translation>Un kit d’exemple fourni avec Paddock : copiez-le dans l’un de vos dossiers pour le modifier.</translation>
    </message>
    <message>
        <source>Open a kit first.</source>
        <translation>Ouvrez d’abord un kit.</translation>
    </message>
    <message>
        <source>Sample kits are read-only: use “Copy to…” to make a copy you can edit.</source>
        <translation>Les kits d’exemple sont en lecture seule : utilisez « Copier vers… » pour en faire une copie modifiable.</translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation>%1 enregistré.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::KitImporter</name>
    <message>
        <source>This update is granted more than the kit loaded before. Nothing was loaded; tick the box below to accept it.</source>
        <translation>Cette mise à jour reçoit plus de droits que le kit chargé auparavant. Rien n’a été chargé ; cochez la case ci-dessous pour l’accepter.</translation>
    </message>
    <message>
        <source>%1 was not loaded:
%2</source>
        <translation>%1 n’a pas été chargé :
%2</translation>
    </message>
    <message>
        <source>Loaded %1 (%2) from %3.</source>
        <translation>%1 (%2) chargé depuis %3.</translation>
    </message>
    <message>
        <source>workload</source>
        <translation>charge de travail</translation>
    </message>
    <message>
        <source>mixin</source>
        <translation>mixin</translation>
    </message>
    <message numerus="yes">
        <source>%n optional capability(s) skipped: Paddock does not implement them.</source>
        <translation>
            <numerusform>%n capacité facultative ignorée : Paddock ne l’implémente pas.</numerusform>
            <numerusform>%n capacités facultatives ignorées : Paddock ne les implémente pas.</numerusform>
        </translation>
    </message>
    <message>
        <source>Choose the archive to import first (an OCI layout or docker save .tar).</source>
        <translation>Choisissez d’abord l’archive à importer (un OCI layout ou un .tar de docker save).</translation>
    </message>
    <message>
        <source>%1 is not a file.</source>
        <translation>%1 n’est pas un fichier.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::KitListModel</name>
    <message>
        <source>line %1: %2</source>
        <translation>ligne %1 : %2</translation>
    </message>
    <message>
        <source>Choose a kit folder first.</source>
        <translation>Choisissez d’abord un dossier de kit.</translation>
    </message>
    <message>
        <source>Choose a folder for the new kit first.</source>
        <translation>Choisissez d’abord un dossier pour le nouveau kit.</translation>
    </message>
    <message>
        <source>Choose a folder for the copy first.</source>
        <translation>Choisissez d’abord un dossier pour la copie.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::LearningModel</name>
    <message numerus="yes">
        <source>Allowed %n pattern(s).</source>
        <translation>
            <numerusform>%n motif autorisé.</numerusform>
            <numerusform>%n motifs autorisés.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>paddock::gui::NetworkNotifier</name>
    <message>
        <source>Paddock refused %1</source>
        <translation>Paddock a refusé %1</translation>
    </message>
    <message>
        <source>A connection to %1 was refused.</source>
        <translation>Une connexion à %1 a été refusée.</translation>
    </message>
    <message>
        <source>Sandbox %1 tried to reach %2.</source>
        <translation>Le bac à sable %1 a tenté de joindre %2.</translation>
    </message>
    <message>
        <source>Allow</source>
        <translation>Autoriser</translation>
    </message>
    <message>
        <source>The %1 key was not sent</source>
        <translation>La clé %1 n’a pas été envoyée</translation>
    </message>
    <message>
        <source>Sandbox %1&apos;s request went without its %2 key and was refused.</source>
        <translation>La requête du bac à sable %1 est partie sans sa clé %2 et a été refusée.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::NetworkPolicy</name>
    <message>
        <source>The preset is now %1.</source>
        <translation>Le préréglage est maintenant %1.</translation>
    </message>
    <message>
        <source>%1 was already there.</source>
        <translation>%1 était déjà présent.</translation>
    </message>
    <message>
        <source>Added %1.</source>
        <translation>%1 ajouté.</translation>
    </message>
    <message>
        <source>Changed the rule to %1.</source>
        <translation>Règle modifiée : %1.</translation>
    </message>
    <message>
        <source>Removed the rule.</source>
        <translation>Règle supprimée.</translation>
    </message>
    <message>
        <source>Allowed %1 in %2.</source>
        <translation>%1 autorisé dans %2.</translation>
    </message>
    <message>
        <source>Allowed %1 for every sandbox.</source>
        <translation>%1 autorisé pour tous les bacs à sable.</translation>
    </message>
    <message>
        <source>Allowed %1 for sandbox %2.</source>
        <translation>%1 autorisé pour le bac à sable %2.</translation>
    </message>
    <message>
        <source>Dismissed %1; it shows again if it is refused again.</source>
        <translation>%1 ignoré ; il réapparaîtra s’il est de nouveau refusé.</translation>
    </message>
    <message>
        <source>Sandbox %1 may now send the value of %2 from %3.</source>
        <translation>Le bac à sable %1 peut maintenant envoyer la valeur de %2 de %3.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::RulesModel</name>
    <message>
        <source>for %1</source>
        <translation>pour %1</translation>
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
        <translation>%1 j %2 h</translation>
    </message>
    <message>
        <source>%1 cannot start: the key of %2 is not set. Add it on the Secrets page.</source>
        <translation>%1 ne peut pas démarrer : la clé de %2 n’est pas définie. Ajoutez-la sur la page Secrets.</translation>
    </message>
    <message>
        <source>%1 started.</source>
        <translation>%1 démarré.</translation>
    </message>
    <message>
        <source>%1 stopped.</source>
        <translation>%1 arrêté.</translation>
    </message>
    <message>
        <source>%1 removed.</source>
        <translation>%1 supprimé.</translation>
    </message>
    <message>
        <source>Running · agent running</source>
        <translation>En cours d’exécution · agent actif</translation>
    </message>
    <message>
        <source>Running · agent exited (status %1)</source>
        <translation>En cours d’exécution · agent terminé (code %1)</translation>
    </message>
    <message>
        <source>Running · agent exited</source>
        <translation>En cours d’exécution · agent terminé</translation>
    </message>
    <message>
        <source>Running · agent not started</source>
        <translation>En cours d’exécution · agent non démarré</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>En cours d’exécution</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>Arrêté</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Créé</translation>
    </message>
    <message>
        <source>size unknown</source>
        <translation>taille inconnue</translation>
    </message>
    <message>
        <source>root %1 over image %2</source>
        <translation>racine %1 sur l’image %2</translation>
    </message>
    <message>
        <source>root %1 over the host&apos;s system</source>
        <translation>racine %1 sur le système de l’hôte</translation>
    </message>
    <message>
        <source>root %1 over the host&apos;s system (%2)</source>
        <translation>racine %1 sur le système de l’hôte (%2)</translation>
    </message>
    <message>
        <source>Running · the agent exited: %1 (exit %2)</source>
        <translation>En cours d’exécution · l’agent s’est terminé : %1 (code %2)</translation>
    </message>
    <message>
        <source>Running · the agent did not start: %1</source>
        <translation>En cours d’exécution · l’agent n’a pas démarré : %1</translation>
    </message>
    <message>
        <source>%1 → %2 (%3)</source>
        <translation>%1 → %2 (%3)</translation>
    </message>
    <message>
        <source>read-only</source>
        <translation>lecture seule</translation>
    </message>
    <message>
        <source>read-write</source>
        <translation>lecture-écriture</translation>
    </message>
    <message>
        <source>variables %1</source>
        <translation>variables %1</translation>
    </message>
    <message>
        <source>services %1</source>
        <translation>services %1</translation>
    </message>
    <message>
        <source>Shares %1</source>
        <translation>Partage %1</translation>
    </message>
    <message>
        <source>%1 on engine %2</source>
        <translation>%1 sur le moteur %2</translation>
    </message>
    <message>
        <source>%1 recreated.</source>
        <translation>%1 recréé.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::SandboxReview</name>
    <message>
        <source>%1 is back as it was when the sandbox started.</source>
        <translation>%1 est revenu comme au démarrage du bac à sable.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::SandboxServices</name>
    <message>
        <source>The port is a number from 1 to 65535.</source>
        <translation>Le port est un nombre de 1 à 65535.</translation>
    </message>
    <message>
        <source>At most %1 variables.</source>
        <translation>Au plus %1 variables.</translation>
    </message>
    <message>
        <source>Each variable is a line NAME=VALUE, not &quot;%1&quot;.</source>
        <translation>Chaque variable est une ligne NAME=VALUE, pas « %1 ».</translation>
    </message>
</context>
<context>
    <name>paddock::gui::SandboxWizard</name>
    <message>
        <source>Choose a kit.</source>
        <translation>Choisissez un kit.</translation>
    </message>
    <message>
        <source>There is no spec.yaml in %1.</source>
        <translation>Il n’y a pas de spec.yaml dans %1.</translation>
    </message>
    <message>
        <source>This kit cannot be used: %1</source>
        <translation>Ce kit ne peut pas être utilisé : %1</translation>
    </message>
    <message>
        <source>%1 is a mixin, not a sandbox kit: choose a kit of kind sandbox.</source>
        <translation>%1 est un mixin, pas un kit de bac à sable : choisissez un kit de type sandbox.</translation>
    </message>
    <message>
        <source>Your %1 key would be sent to every host matching %2.</source>
        <translation>Votre clé %1 serait envoyée à tous les hôtes correspondant à %2.</translation>
    </message>
    <message>
        <source>The kit asks for a privileged sandbox (security.privileged).</source>
        <translation>Le kit demande un bac à sable privilégié (security.privileged).</translation>
    </message>
    <message>
        <source>The kit allows connections to every host matching %1.</source>
        <translation>Le kit autorise les connexions vers tous les hôtes correspondant à %1.</translation>
    </message>
    <message>
        <source>The kit publishes ports %1 of the sandbox on this computer.</source>
        <translation>Le kit publie les ports %1 du bac à sable sur cet ordinateur.</translation>
    </message>
    <message>
        <source>The kit writes a file into your project folder.</source>
        <translation>Le kit écrit un fichier dans votre dossier de projet.</translation>
    </message>
    <message>
        <source>The kit writes %1 files into your project folder.</source>
        <translation>Le kit écrit %1 fichiers dans votre dossier de projet.</translation>
    </message>
    <message>
        <source>The agent works on a clone of the repository in %1; your folder changes only when you fetch from the clone.</source>
        <translation>L’agent travaille sur un clone du dépôt dans %1 ; votre dossier ne change que lorsque vous récupérez les modifications du clone.</translation>
    </message>
    <message>
        <source>The agent can read, change and delete every file in %1.</source>
        <translation>L’agent peut lire, modifier et supprimer tous les fichiers de %1.</translation>
    </message>
    <message>
        <source>The key is empty: nothing was stored.</source>
        <translation>La clé est vide : rien n’a été enregistré.</translation>
    </message>
    <message>
        <source>Choose an existing project folder.</source>
        <translation>Choisissez un dossier de projet existant.</translation>
    </message>
    <message>
        <source>%1 was created but did not start: %2</source>
        <translation>%1 a été créé mais n’a pas démarré : %2</translation>
    </message>
    <message>
        <source>The sandbox&apos;s root is the image %1, under a layer of its own.</source>
        <translation>La racine du bac à sable est l’image %1, sous une couche à lui.</translation>
    </message>
    <message>
        <source>The sandbox&apos;s root is your system, under a layer of its own.</source>
        <translation>La racine du bac à sable est votre système, sous une couche à lui.</translation>
    </message>
    <message>
        <source>The image %1 is not loaded: it is pulled from its registry when the sandbox is made; if that fails, the sandbox&apos;s root is your system, under a layer of its own.</source>
        <translation>L’image %1 n’est pas chargée : elle est téléchargée depuis son registre à la création du bac à sable ; en cas d’échec, la racine du bac à sable est votre système, sous une couche à lui.</translation>
    </message>
    <message>
        <source>The sandbox&apos;s root is your system, read-only: %1</source>
        <translation>La racine du bac à sable est votre système, en lecture seule : %1</translation>
    </message>
    <message>
        <source>Allow the kit to reach this computer and its networks in the review, or choose another kit.</source>
        <translation>Autorisez le kit à atteindre cet ordinateur et ses réseaux dans la vérification, ou choisissez un autre kit.</translation>
    </message>
    <message>
        <source> The kit starts %1, which this computer does not have: the agent starts only if the kit&apos;s setup installs it, or once the kit&apos;s image is loaded.</source>
        <translation> Le kit démarre %1, que cet ordinateur n’a pas : l’agent ne démarre que si la préparation du kit l’installe, ou une fois l’image du kit chargée.</translation>
    </message>
    <message>
        <source> The kit starts %1, which this computer does not have: the agent cannot start until the kit&apos;s image is loaded (paddock template load FILE) or %1 is installed.</source>
        <translation> Le kit démarre %1, que cet ordinateur n’a pas : l’agent ne peut pas démarrer tant que l’image du kit n’est pas chargée (paddock template load FILE) ou que %1 n’est pas installé.</translation>
    </message>
    <message>
        <source>The kit&apos;s shared folders were not kept: %1</source>
        <translation>Les dossiers partagés du kit n’ont pas été conservés : %1</translation>
    </message>
    <message>
        <source>These kits do not go together: %1</source>
        <translation>Ces kits ne vont pas ensemble : %1</translation>
    </message>
</context>
<context>
    <name>paddock::gui::SecretListModel</name>
    <message>
        <source>Names may use letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos; only.</source>
        <translation>Les noms ne peuvent contenir que des lettres, des chiffres, « . », « _ » et « - ».</translation>
    </message>
    <message>
        <source>The key is empty: nothing was stored.</source>
        <translation>La clé est vide : rien n’a été enregistré.</translation>
    </message>
    <message>
        <source>The key of %1 is stored in the keychain.</source>
        <translation>La clé de %1 est enregistrée dans le trousseau.</translation>
    </message>
    <message>
        <source>The key of %1 was removed from the keychain.</source>
        <translation>La clé de %1 a été supprimée du trousseau.</translation>
    </message>
    <message>
        <source>run for every request</source>
        <translation>exécutée à chaque requête</translation>
    </message>
    <message>
        <source>every %1</source>
        <translation>toutes les %1</translation>
    </message>
    <message>
        <source>Command: %1 (%2)</source>
        <translation>Commande : %1 (%2)</translation>
    </message>
    <message>
        <source>1Password: %1 (%2)</source>
        <translation>1Password : %1 (%2)</translation>
    </message>
    <message>
        <source>Placeholder in %1, replaced for %2</source>
        <translation>Valeur de substitution dans %1, remplacée pour %2</translation>
    </message>
    <message>
        <source>Failed %1: %2</source>
        <translation>Échec %1 : %2</translation>
    </message>
    <message>
        <source>Resolved %1</source>
        <translation>Résolue %1</translation>
    </message>
    <message>
        <source>Not resolved yet</source>
        <translation>Pas encore résolue</translation>
    </message>
    <message>
        <source>Needed by %1: %2 — stored</source>
        <translation>Requise par %1 : %2 — enregistrée</translation>
    </message>
    <message>
        <source>Needed by %1: %2 — not stored</source>
        <translation>Requise par %1 : %2 — non enregistrée</translation>
    </message>
    <message>
        <source>The provider accepted the %1 key: %2 answered %3</source>
        <translation>Le fournisseur a accepté la clé %1 : %2 a répondu %3</translation>
    </message>
    <message>
        <source>The %1 key was not accepted: %2 answered %3</source>
        <translation>La clé %1 n’a pas été acceptée : %2 a répondu %3</translation>
    </message>
    <message>
        <source>The custom secret %1 was removed: its placeholder is no longer replaced.</source>
        <translation>Le secret personnalisé %1 a été supprimé : son substitut n&apos;est plus remplacé.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::TerminalLauncher</name>
    <message>
        <source>No terminal emulator was found: install xterm, GNOME Terminal or Konsole, or set TERMINAL. The command is: %1</source>
        <translation>Aucun émulateur de terminal n’a été trouvé : installez xterm, GNOME Terminal ou Konsole, ou définissez TERMINAL. La commande est : %1</translation>
    </message>
    <message>
        <source>The terminal %1 could not be started.</source>
        <translation>Le terminal %1 n’a pas pu être démarré.</translation>
    </message>
    <message>
        <source>[ended with status %1: press Enter to close this window]</source>
        <translation>[terminé avec le code %1 : appuyez sur Entrée pour fermer cette fenêtre]</translation>
    </message>
    <message>
        <source>%1: agent</source>
        <translation>%1 : agent</translation>
    </message>
    <message>
        <source>%1: shell</source>
        <translation>%1 : shell</translation>
    </message>
    <message>
        <source>Listing the sessions of %1 took too long.</source>
        <translation>Lister les sessions de %1 a pris trop de temps.</translation>
    </message>
    <message>
        <source>%1 could not be started.</source>
        <translation>%1 n’a pas pu être démarré.</translation>
    </message>
</context>
<context>
    <name>paddock::gui::UpstreamProxySettings</name>
    <message>
        <source>Reading the settings…</source>
        <translation>Lecture des réglages…</translation>
    </message>
    <message>
        <source>None: connections that are allowed go straight out.</source>
        <translation>Aucun : les connexions autorisées sortent directement.</translation>
    </message>
    <message>
        <source>, with a password from the keychain</source>
        <translation>, avec un mot de passe du trousseau</translation>
    </message>
    <message>
        <source>Allowed connections go out through %1 (from %2%3).</source>
        <translation>Les connexions autorisées sortent par %1 (d’après %2%3).</translation>
    </message>
    <message>
        <source>Saved: in force for every connection from now on.</source>
        <translation>Enregistré : en vigueur pour chaque connexion dès maintenant.</translation>
    </message>
    <message>
        <source>The password is removed from the keychain.</source>
        <translation>Le mot de passe est supprimé du trousseau.</translation>
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
        <translation>lecture-écriture</translation>
    </message>
    <message>
        <source>read-only</source>
        <translation>lecture seule</translation>
    </message>
    <message>
        <source>Shares: %1</source>
        <translation>Partages : %1</translation>
    </message>
    <message>
        <source>give a value: NAME=VALUE</source>
        <translation>donnez une valeur : NAME=VALUE</translation>
    </message>
</context>
<context>
    <name>KitNetworkPolicyLists</name>
    <message>
        <source>%1, group %2</source>
        <translation>%1, groupe %2</translation>
    </message>
    <message>
        <source>%1, group</source>
        <translation>%1, groupe</translation>
    </message>
    <message>
        <source>While the agent runs</source>
        <translation>Pendant que l’agent s’exécute</translation>
    </message>
    <message>
        <source>Allowed</source>
        <translation>Autorisés</translation>
    </message>
    <message>
        <source>Denied</source>
        <translation>Refusés</translation>
    </message>
    <message>
        <source>While the kit installs</source>
        <translation>Pendant l’installation du kit</translation>
    </message>
    <message>
        <source>Only while the kit installs: its install commands reach these hosts when a sandbox is made. The agent never gets them.</source>
        <translation>Seulement pendant l’installation du kit : ses commandes d’installation joignent ces hôtes quand un bac à sable est créé. L’agent ne les obtient jamais.</translation>
    </message>
    <message>
        <source>Allowed while installing</source>
        <translation>Autorisés pendant l’installation</translation>
    </message>
    <message>
        <source>Denied while installing</source>
        <translation>Refusés pendant l’installation</translation>
    </message>
</context>
</TS>
