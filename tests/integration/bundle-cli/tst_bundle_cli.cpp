// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock bundle export` and `paddock bundle import` as a teacher and a student run them: the
// real binary, two separate sets of XDG directories (the teacher's and the student's), the
// sample pi kit, and archives crafted byte by byte to attack the importer.
#include "IsolatedHome.h"
#include "ProcessRun.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>

namespace {

using Run = paddock::test::Finished;

/** One person's Paddock: private XDG directories under a temporary folder, which is also HOME. */
class Person
{
public:
    Person()
    {
        m_env = paddock::test::isolatedEnvironment(m_root.path(), paddock::test::XdgFolders::shortNames());
        m_env.insert(QStringLiteral("HOME"), m_root.path());
    }
    /** The paddockd a command started on demand in this home goes with it. */
    ~Person()
    {
        if (QFileInfo::exists(path(QStringLiteral("run/paddock/paddockd.sock"))))
            paddock({QStringLiteral("daemon"), QStringLiteral("stop")});
    }
    Person(const Person &) = delete;
    Person &operator=(const Person &) = delete;
    QString path(const QString &relative) const { return m_root.path() + QLatin1Char('/') + relative; }
    QString dataDir() const { return path(QStringLiteral("data")); }

    Run paddock(const QStringList &arguments, const QString &workingDir = {})
    {
        return run(QStringLiteral(PADDOCK_BIN), arguments, workingDir);
    }

    /** @p command in `sh -c` under script(1), so paddock has a terminal; @p input is typed into it. */
    Run onTerminal(const QString &command, const QByteArray &input)
    {
        const QString feeder = path(QStringLiteral("typed"));
        QFile file(feeder);
        if (!file.open(QIODevice::WriteOnly) || file.write(input) != input.size())
            return {};
        file.close();
        return run(QStringLiteral("sh"),
                   {QStringLiteral("-c"), QStringLiteral("script -qec \"%1\" /dev/null < %2").arg(command, feeder)});
    }

    Run run(const QString &program, const QStringList &arguments, const QString &workingDir = {})
    {
        paddock::test::ProcessOptions options;
        options.environment = m_env;
        options.workingDirectory = workingDir.isEmpty() ? m_root.path() : workingDir;
        options.timeoutMs = 60000;
        return paddock::test::runText(program, arguments, options);
    }

    /** `paddock bundle import FILE EXTRA...` */
    Run importBundle(const QString &file, const QStringList &extra = {})
    {
        return paddock(QStringList{QStringLiteral("bundle"), QStringLiteral("import"), file} + extra);
    }

    QString home() const { return m_root.path(); }

    /**
     * Every file and folder under the XDG directories, relative to the root, but for what the
     * daemon a command started keeps for itself (its log, the event log, its folders).
     */
    QStringList written() const
    {
        static const QRegularExpression daemonsOwn(
            QStringLiteral("\\A(config/paddock|state/paddock|state/paddock/paddockd\\.log|"
                           "state/paddock/events\\.sqlite(-wal|-shm|-journal)?)\\z"));
        QStringList found;
        for (const char *sub : {"config", "state", "data"}) {
            QDirIterator it(path(QLatin1String(sub)), QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot,
                            QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString relative = QDir(m_root.path()).relativeFilePath(it.next());
                if (!daemonsOwn.match(relative).hasMatch())
                    found << relative;
            }
        }
        return found;
    }

private:
    QTemporaryDir m_root;
    QProcessEnvironment m_env;
};

QString sampleKit(const QString &name)
{
    return QStringLiteral(PADDOCK_SOURCE_DIR "/resources/kits/") + name;
}

/** `paddock bundle export` of the sample shell kit by @p teacher: the bundle's path, or empty. */
QString exportedShellKit(Person &teacher)
{
    const QString file = teacher.path(QStringLiteral("shell.paddock"));
    const Run exported = teacher.paddock({QStringLiteral("bundle"), QStringLiteral("export"), QStringLiteral("--kit"),
                                          sampleKit(QStringLiteral("shell")), QStringLiteral("-o"), file});
    return exported.exitCode == 0 ? file : QString();
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeAll(const QString &path, const QByteArray &data)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(data) == data.size();
}

/** Relative path -> contents of every file under @p dir. */
QMap<QString, QByteArray> filesUnder(const QString &dir)
{
    QMap<QString, QByteArray> files;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        files.insert(QDir(dir).relativeFilePath(path), readAll(path));
    }
    return files;
}

// ---- a tar writer that does what it is told, for archives no honest tool would write ----

QByteArray octal(qint64 value, int width)
{
    return QByteArray::number(value, 8).rightJustified(width - 1, '0');
}

QByteArray header(const QByteArray &name, char type, qint64 size, const QByteArray &link = {})
{
    QByteArray block(512, '\0');
    std::memcpy(block.data(), name.constData(), size_t(std::min<qsizetype>(name.size(), 100)));
    std::memcpy(block.data() + 100, octal(0644, 8).constData(), 7);
    std::memcpy(block.data() + 108, octal(0, 8).constData(), 7);
    std::memcpy(block.data() + 116, octal(0, 8).constData(), 7);
    std::memcpy(block.data() + 124, octal(size, 12).constData(), 11);
    std::memcpy(block.data() + 136, octal(0, 12).constData(), 11);
    block[156] = type;
    std::memcpy(block.data() + 157, link.constData(), size_t(std::min<qsizetype>(link.size(), 100)));
    std::memcpy(block.data() + 257,
                "ustar\0"
                "00",
                8);
    std::memset(block.data() + 148, ' ', 8);
    qint64 sum = 0;
    for (const char c : std::as_const(block))
        sum += static_cast<unsigned char>(c);
    std::memcpy(block.data() + 148, octal(sum, 7).constData(), 6);
    return block;
}

QByteArray member(const QByteArray &name, const QByteArray &data, char type = '0')
{
    QByteArray bytes = header(name, type, data.size()) + data;
    bytes.append(QByteArray((512 - data.size() % 512) % 512, '\0'));
    return bytes;
}

QByteArray endMarker()
{
    return QByteArray(1024, '\0');
}

const QByteArray kSpec = "schemaVersion: \"2\"\nkind: sandbox\nname: tiny\nsandbox:\n  image: tiny:1\n";

QByteArray manifest(const QByteArray &kitName = "tiny")
{
    return "{\"format\": \"paddock-bundle\", \"formatVersion\": 1, \"kit\": {\"name\": \"" + kitName +
           "\", \"path\": \"kit\"}, \"secrets\": [], \"notes\": \"\"}";
}

/** A well-formed bundle's first members, to which a test appends its hostile one. */
QByteArray honestStart()
{
    return member("manifest.json", manifest()) + member("kit/spec.yaml", kSpec);
}

// ---- kits whose name tries to lead out of the kits folder ----

// The attack: a name that is a template, so that validation skipped its check, and that
// resolves through '..' to the folder whose .desktop files run at the next login.
const QByteArray kTemplateName = "${{ kit.args.a }}/../../../../.config/autostart";

QByteArray specNamed(const QByteArray &name)
{
    return "schemaVersion: \"2\"\nkind: sandbox\nname: \"" + name +
           "\"\nargs:\n  a:\n    required: true\nsandbox:\n  image: tiny:1\n";
}

const QByteArray kDesktopEntry = "[Desktop Entry]\nType=Application\nExec=sh -c 'echo owned > /tmp/owned'\n";

/** A bundle written by hand: `bundle export` refuses to write one for such a kit. */
QByteArray bundleNamed(const QByteArray &manifestName, const QByteArray &specName)
{
    return member("manifest.json", manifest(manifestName)) + member("kit/spec.yaml", specNamed(specName)) +
           member("kit/evil.desktop", kDesktopEntry) + endMarker();
}

/** The kit folder an import of a kit named @p name used to write, in @p person's data folder. */
QString wouldBeTarget(const Person &person, const QByteArray &name)
{
    return QDir::cleanPath(person.dataDir() + QStringLiteral("/paddock/kits/") + QString::fromUtf8(name));
}

} // namespace

class TestBundleCli : public QObject
{
    Q_OBJECT

private slots:
    void exportThenImportRoundTrip();
    void importedPolicyDecidesWhenImportReturns();
    void exportRefusesAKitWithASymlink();
    void dryRunPreviewsAndWritesNothing();
    void existingKitIsKeptUnlessReplaced();
    void intoChoosesTheFolder();
    void hostileArchiveIsRefused_data();
    void hostileArchiveIsRefused();
    void invalidKitInsideIsRefused();
    void templateNameLeadingToAutostartIsRefused();
    void nameThatIsAPathIsRefused_data();
    void nameThatIsAPathIsRefused();
    void intoMustNameAKitFolder();
    void symlinkedKitsFolderIsFollowed();
    void linkInPlaceOfTheKitFolderIsNotReplaced();
    void allowAllPresetNeedsConsent();
    void aNoOnTheTerminalImportsTheKitAlone();
    void aBundleNamesTheEngineItsSandboxesRunOn();

private:
    /** A bundle whose policy is allow-all plus 10.0.0.0/8, and whose kit allows 127.0.0.1:*. */
    QString openingBundle(Person &teacher);
};

void TestBundleCli::exportThenImportRoundTrip()
{
    Person teacher;
    QVERIFY(teacher.paddock({QStringLiteral("policy"), QStringLiteral("init"), QStringLiteral("deny-all")}).exitCode ==
            0);
    QVERIFY(teacher
                .paddock({QStringLiteral("policy"), QStringLiteral("allow"), QStringLiteral("network"),
                          QStringLiteral("docs.example.org")})
                .exitCode == 0);
    QVERIFY(teacher
                .paddock({QStringLiteral("policy"), QStringLiteral("deny"), QStringLiteral("network"),
                          QStringLiteral("tracker.example.net")})
                .exitCode == 0);
    const QString notes = teacher.path(QStringLiteral("notes.txt"));
    QVERIFY(writeAll(notes, "Welcome to the module on sandboxes.\nAsk for your ILaaS key in class.\n"));
    const QString file = teacher.path(QStringLiteral("course.paddock"));
    const Run exported = teacher.paddock({QStringLiteral("bundle"), QStringLiteral("export"), QStringLiteral("--kit"),
                                          sampleKit(QStringLiteral("pi")), QStringLiteral("--policy"),
                                          QStringLiteral("--notes"), notes, QStringLiteral("-o"), file});
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
    QVERIFY2(exported.out.contains(QLatin1String("secrets students provide: ilaas")), qPrintable(exported.out));

    Person student;
    QVERIFY(student.paddock({QStringLiteral("policy"), QStringLiteral("init"), QStringLiteral("balanced")}).exitCode ==
            0);
    const Run imported = student.importBundle(file, {QStringLiteral("--apply-policy")});
    QVERIFY2(imported.exitCode == 0, qPrintable(imported.err));
    const QString destination = student.dataDir() + QStringLiteral("/paddock/kits/pi");
    // The preview says everything that changes, before the result.
    QVERIFY2(imported.out.contains(QLatin1String("Welcome to the module on sandboxes.")), qPrintable(imported.out));
    QVERIFY2(imported.out.contains(QStringLiteral("write the kit folder ") + destination), qPrintable(imported.out));
    QVERIFY2(imported.out.contains(QLatin1String("set the policy preset: balanced -> deny-all")),
             qPrintable(imported.out));
    QVERIFY2(imported.out.contains(QLatin1String("add rule: allow docs.example.org (global)")),
             qPrintable(imported.out));
    QVERIFY2(imported.out.contains(QLatin1String("add rule: deny tracker.example.net (global)")),
             qPrintable(imported.out));
    QVERIFY2(imported.out.contains(
                 QLatin1String("ilaas (required): ILaaS API key (llm.ilaas.fr); sent only to llm.ilaas.fr")),
             qPrintable(imported.out));
    QVERIFY2(imported.out.indexOf(QLatin1String("Importing it will")) <
                 imported.out.indexOf(QLatin1String("Imported kit")),
             qPrintable(imported.out));
    // The next steps name the commands that finish the setup.
    QVERIFY2(imported.out.contains(QLatin1String("paddock secret set ilaas")), qPrintable(imported.out));
    // The kit by its name: the library finds the import by it, ahead of the sample pi.
    QVERIFY2(imported.out.contains(QLatin1String("paddock binding approve --kit pi\n")), qPrintable(imported.out));
    QVERIFY2(imported.out.contains(QLatin1String("paddock run --kit pi\n")), qPrintable(imported.out));
    QVERIFY2(imported.out.contains(QLatin1String("paddock verify")), qPrintable(imported.out));
    const Run listed = student.paddock({QStringLiteral("kit"), QStringLiteral("ls"), QStringLiteral("--json")});
    bool found = false;
    for (const QJsonValue &entry : QJsonDocument::fromJson(listed.out.toUtf8()).array()) {
        const QJsonObject kit = entry.toObject();
        if (kit.value(QLatin1String("directory")).toString() == destination)
            found = kit.value(QLatin1String("source")).toString() == QLatin1String("imported") &&
                    kit.value(QLatin1String("name")).toString() == QLatin1String("pi");
    }
    QVERIFY2(found, qPrintable(listed.out));

    // The kit arrives byte for byte, and validates.
    QCOMPARE(filesUnder(destination), filesUnder(sampleKit(QStringLiteral("pi"))));
    const Run validated = student.paddock({QStringLiteral("kit"), QStringLiteral("validate"), destination});
    QVERIFY2(validated.exitCode == 0, qPrintable(validated.out));

    // The policy is the teacher's: preset and both rules.
    const Run policy = student.paddock({QStringLiteral("policy"), QStringLiteral("ls"), QStringLiteral("--json")});
    const QJsonObject json = QJsonDocument::fromJson(policy.out.toUtf8()).object();
    QCOMPARE(json.value(QLatin1String("preset")).toString(), QStringLiteral("deny-all"));
    QStringList rules;
    for (const QJsonValue &rule : json.value(QLatin1String("rules")).toArray())
        rules << rule.toObject().value(QLatin1String("pattern")).toString();
    QVERIFY2(rules.contains(QStringLiteral("docs.example.org")), qPrintable(policy.out));
    QVERIFY2(rules.contains(QStringLiteral("tracker.example.net")), qPrintable(policy.out));

    // Importing the same policy again adds nothing twice.
    const Run again = student.importBundle(file, {QStringLiteral("--dry-run"), QStringLiteral("--replace")});
    QVERIFY2(again.out.contains(QLatin1String("keep rule (already present): allow docs.example.org")),
             qPrintable(again.out));
    QVERIFY2(again.out.contains(QLatin1String("keep the policy preset deny-all")), qPrintable(again.out));
}

void TestBundleCli::importedPolicyDecidesWhenImportReturns()
{
    Person teacher;
    QCOMPARE(teacher.paddock({QStringLiteral("policy"), QStringLiteral("init"), QStringLiteral("balanced")}).exitCode,
             0);
    QCOMPARE(teacher
                 .paddock({QStringLiteral("policy"), QStringLiteral("deny"), QStringLiteral("network"),
                           QStringLiteral("tracker.example.net")})
                 .exitCode,
             0);
    const QString file = teacher.path(QStringLiteral("course.paddock"));
    QCOMPARE(teacher
                 .paddock({QStringLiteral("bundle"), QStringLiteral("export"), QStringLiteral("--kit"),
                           sampleKit(QStringLiteral("shell")), QStringLiteral("--policy"), QStringLiteral("-o"), file})
                 .exitCode,
             0);

    Person student;
    QCOMPARE(student.paddock({QStringLiteral("policy"), QStringLiteral("init"), QStringLiteral("balanced")}).exitCode,
             0);
    const QStringList check{QStringLiteral("policy"), QStringLiteral("check"), QStringLiteral("network"),
                            QStringLiteral("tracker.example.net"), QStringLiteral("--json")};
    const auto basis = [&student, &check] {
        const Run decided = student.paddock(check);
        return QJsonDocument::fromJson(decided.out.toUtf8()).object().value(QLatin1String("basis")).toString();
    };
    QVERIFY2(basis() != QLatin1String("denied-by-rule"), "decided by a rule before the import");

    // The daemon applies the bundle's rules before `bundle import` returns: the very next
    // question is decided by them, with no wait for a file watch.
    const Run imported = student.importBundle(file, {QStringLiteral("--apply-policy")});
    QVERIFY2(imported.exitCode == 0, qPrintable(imported.err));
    const Run decided = student.paddock(check);
    QCOMPARE(decided.exitCode, 1);
    QCOMPARE(QJsonDocument::fromJson(decided.out.toUtf8()).object().value(QLatin1String("basis")).toString(),
             QStringLiteral("denied-by-rule"));
    QVERIFY2(decided.out.contains(QLatin1String("deny tracker.example.net (global")), qPrintable(decided.out));
    // And the kit is in the library the daemon lists.
    const Run listed = student.paddock({QStringLiteral("kit"), QStringLiteral("ls"), QStringLiteral("--json")});
    QVERIFY2(listed.out.contains(student.dataDir() + QStringLiteral("/paddock/kits/shell")), qPrintable(listed.out));
}

void TestBundleCli::exportRefusesAKitWithASymlink()
{
    Person teacher;
    const QString kit = teacher.path(QStringLiteral("kit"));
    QDir().mkpath(kit + QStringLiteral("/files/home"));
    QVERIFY(writeAll(kit + QStringLiteral("/spec.yaml"), kSpec));
    // A link inside the kit is valid for the kit loader; a bundle still carries no links.
    QVERIFY(writeAll(kit + QStringLiteral("/files/home/real.txt"), "text\n"));
    QVERIFY(QFile::link(QStringLiteral("real.txt"), kit + QStringLiteral("/files/home/passwd")));
    const Run exported = teacher.paddock({QStringLiteral("bundle"), QStringLiteral("export"), QStringLiteral("--kit"),
                                          kit, QStringLiteral("-o"), teacher.path(QStringLiteral("out.paddock"))});
    QCOMPARE(exported.exitCode, 1);
    QVERIFY2(exported.err.contains(QLatin1String("symbolic link, 'files/home/passwd'")), qPrintable(exported.err));
    QVERIFY(!QFileInfo::exists(teacher.path(QStringLiteral("out.paddock"))));
}

void TestBundleCli::dryRunPreviewsAndWritesNothing()
{
    Person teacher;
    const QString file = exportedShellKit(teacher);
    QVERIFY(!file.isEmpty());
    Person student;
    const Run preview = student.importBundle(file, {QStringLiteral("--dry-run")});
    QVERIFY2(preview.exitCode == 0, qPrintable(preview.err));
    QVERIFY2(preview.out.contains(QLatin1String("write the kit folder")), qPrintable(preview.out));
    QVERIFY2(preview.out.contains(QLatin1String("leave the network policy as it is")), qPrintable(preview.out));
    // Each file the kit brings is named, scripts marked as such.
    QVERIFY2(preview.out.contains(QLatin1String("      spec.yaml\n")), qPrintable(preview.out));
    QVERIFY2(preview.out.contains(QLatin1String("      prepare-context.sh (executable)\n")), qPrintable(preview.out));
    QVERIFY2(preview.out.contains(QLatin1String("Dry run: nothing was written.")), qPrintable(preview.out));
    QCOMPARE(student.written(), QStringList());
}

void TestBundleCli::existingKitIsKeptUnlessReplaced()
{
    Person teacher;
    const QString file = exportedShellKit(teacher);
    QVERIFY(!file.isEmpty());
    Person student;
    QCOMPARE(student.importBundle(file).exitCode, 0);
    const QString destination = student.dataDir() + QStringLiteral("/paddock/kits/shell");
    QVERIFY(writeAll(destination + QStringLiteral("/NOTES.md"), "the student's own notes\n"));

    const Run refused = student.importBundle(file);
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains(QLatin1String("already exists; pass --replace")), qPrintable(refused.err));
    QCOMPARE(readAll(destination + QStringLiteral("/NOTES.md")), QByteArray("the student's own notes\n"));

    const Run replaced = student.importBundle(file, {QStringLiteral("--replace")});
    QVERIFY2(replaced.exitCode == 0, qPrintable(replaced.err));
    QVERIFY2(replaced.out.contains(QLatin1String("replace the kit folder")), qPrintable(replaced.out));
    QCOMPARE(filesUnder(destination), filesUnder(sampleKit(QStringLiteral("shell"))));
    // Nothing of the staging or the previous folder stays beside it.
    QCOMPARE(QDir(student.dataDir() + QStringLiteral("/paddock/kits"))
                 .entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
             QStringList{QStringLiteral("shell")});
}

void TestBundleCli::intoChoosesTheFolder()
{
    Person teacher;
    const QString file = exportedShellKit(teacher);
    QVERIFY(!file.isEmpty());
    Person student;
    const QString into = student.path(QStringLiteral("course/kits/my-shell"));
    const Run imported = student.importBundle(file, {QStringLiteral("--into"), into});
    QVERIFY2(imported.exitCode == 0, qPrintable(imported.err));
    QVERIFY(QFileInfo::exists(into + QStringLiteral("/spec.yaml")));
    QVERIFY(QFileInfo(into + QStringLiteral("/prepare-context.sh")).isExecutable());
    QVERIFY(!QFileInfo::exists(student.dataDir() + QStringLiteral("/paddock/kits")));
}

void TestBundleCli::hostileArchiveIsRefused_data()
{
    QTest::addColumn<QByteArray>("archive");
    QTest::addColumn<QString>("message");

    QTest::newRow("parent directory") << honestStart() + member("kit/../../evil.sh", "echo owned\n") + endMarker()
                                      << QStringLiteral("entry 'kit/../../evil.sh' leads outside");
    QTest::newRow("absolute path") << honestStart() + member("/tmp/evil.sh", "echo owned\n") + endMarker()
                                   << QStringLiteral("entry '/tmp/evil.sh' has an absolute path");
    QTest::newRow("symbolic link") << honestStart() + header("kit/files/home/.ssh", '2', 0, "/root/.ssh") + endMarker()
                                   << QStringLiteral("entry 'kit/files/home/.ssh' is a symbolic link");
    QTest::newRow("hard link") << honestStart() + header("kit/passwd", '1', 0, "/etc/passwd") + endMarker()
                               << QStringLiteral("entry 'kit/passwd' is a hard link");
    QTest::newRow("character device") << honestStart() + header("kit/null", '3', 0) + endMarker()
                                      << QStringLiteral("entry 'kit/null' is a character device");
    QTest::newRow("block device") << honestStart() + header("kit/sda", '4', 0) + endMarker()
                                  << QStringLiteral("entry 'kit/sda' is a block device");
    QTest::newRow("oversized entry") << honestStart() + header("kit/huge.bin", '0', qint64(3) << 30) + endMarker()
                                     << QStringLiteral("entry 'kit/huge.bin' is too large");
    QByteArray many = honestStart();
    for (int i = 0; i < 4100; ++i)
        many += header("kit/d" + QByteArray::number(i), '5', 0);
    QTest::newRow("too many entries") << many + endMarker() << QStringLiteral("more than 4096 entries");
    QByteArray truncated = honestStart() + member("kit/Dockerfile", QByteArray(3000, 'x')) + endMarker();
    truncated.truncate(2 * 1024 + 512 + 1000);
    QTest::newRow("truncated") << truncated << QStringLiteral("truncated inside entry 'kit/Dockerfile'");
    QTest::newRow("no end marker") << honestStart()
                                   << QStringLiteral("truncated: it ends without an end-of-archive marker");
    QTest::newRow("outside the kit folder") << honestStart() + member(".bashrc", "evil\n") + endMarker()
                                            << QStringLiteral("entry '.bashrc' is outside the bundle's kit folder");
    QTest::newRow("duplicate entry") << honestStart() + member("kit/spec.yaml", kSpec) + endMarker()
                                     << QStringLiteral("entry 'kit/spec.yaml' appears twice");
    QTest::newRow("no manifest") << member("kit/spec.yaml", kSpec) + endMarker()
                                 << QStringLiteral("does not start with manifest.json");
    QTest::newRow("not an archive")
        << QByteArray("PK\x03\x04 this is a zip file, not a tar archive").leftJustified(2048, ' ')
        << QStringLiteral("not a tar (ustar) archive");
    QTest::newRow("kit name mismatch") << member("manifest.json", manifest("other")) + member("kit/spec.yaml", kSpec) +
                                              endMarker()
                                       << QStringLiteral(
                                              "the manifest names the kit 'other' but its spec.yaml says 'tiny'");
    QByteArray engine = manifest();
    engine.replace("\"notes\"", "\"engine\": \"../lab\", \"notes\"");
    QTest::newRow("an engine that is not a name")
        << member("manifest.json", engine) + member("kit/spec.yaml", kSpec) + endMarker()
        << QStringLiteral("'engine' must be an engine's name");
}

void TestBundleCli::hostileArchiveIsRefused()
{
    QFETCH(QByteArray, archive);
    QFETCH(QString, message);
    Person student;
    const QString file = student.path(QStringLiteral("hostile.paddock"));
    QVERIFY(writeAll(file, archive));
    for (const QStringList &extra : {QStringList{QStringLiteral("--dry-run")}, QStringList()}) {
        const Run imported = student.importBundle(file, extra);
        QCOMPARE(imported.exitCode, 1);
        QVERIFY2(imported.err.contains(message), qPrintable(imported.err));
        QVERIFY2(imported.out.isEmpty(), qPrintable(imported.out));
        QCOMPARE(student.written(), QStringList());
    }
    QVERIFY(!QFileInfo::exists(QStringLiteral("/tmp/evil.sh")));
}

void TestBundleCli::invalidKitInsideIsRefused()
{
    Person student;
    const QString file = student.path(QStringLiteral("broken.paddock"));
    const QByteArray spec = kSpec + "unknownField: 1\n";
    QVERIFY(writeAll(file, member("manifest.json", manifest()) + member("kit/spec.yaml", spec) + endMarker()));
    const Run imported = student.importBundle(file);
    QCOMPARE(imported.exitCode, 1);
    QVERIFY2(imported.err.contains(QLatin1String("the bundle's kit does not validate")), qPrintable(imported.err));
    QVERIFY2(imported.err.contains(QLatin1String("unknownField")), qPrintable(imported.err));
    QCOMPARE(student.written(), QStringList());
}

void TestBundleCli::templateNameLeadingToAutostartIsRefused()
{
    Person teacher;
    const QString kit = teacher.path(QStringLiteral("autostart-kit"));
    QVERIFY(QDir().mkpath(kit));
    QVERIFY(writeAll(kit + QStringLiteral("/spec.yaml"), specNamed(kTemplateName)));
    QVERIFY(writeAll(kit + QStringLiteral("/evil.desktop"), kDesktopEntry));

    // kit validate: the error is at the placeholder, line 3, column 8.
    const Run validated = teacher.paddock({QStringLiteral("kit"), QStringLiteral("validate"), kit});
    QCOMPARE(validated.exitCode, 1);
    QVERIFY2(validated.out.contains(QLatin1String("spec.yaml:3:8: error: `name` is the kit's identity and cannot use a "
                                                  "placeholder")),
             qPrintable(validated.out));
    QVERIFY2(validated.out.contains(QStringLiteral("'%1'").arg(QString::fromUtf8(kTemplateName))),
             qPrintable(validated.out));

    // Loading it with a value for the argument is refused the same way.
    const Run shown = teacher.paddock(
        {QStringLiteral("kit"), QStringLiteral("show"), kit, QStringLiteral("--arg"), QStringLiteral("a=x")});
    QCOMPARE(shown.exitCode, 1);
    QVERIFY2(shown.err.contains(QLatin1String("cannot use a placeholder")), qPrintable(shown.err));

    // bundle export packs nothing.
    const QString file = teacher.path(QStringLiteral("autostart.paddock"));
    const Run exported = teacher.paddock(
        {QStringLiteral("bundle"), QStringLiteral("export"), QStringLiteral("--kit"), kit, QStringLiteral("-o"), file});
    QCOMPARE(exported.exitCode, 1);
    QVERIFY2(exported.err.contains(QLatin1String("the kit does not validate")), qPrintable(exported.err));
    QVERIFY2(exported.err.contains(QLatin1String("cannot use a placeholder")), qPrintable(exported.err));
    QVERIFY(!QFileInfo::exists(file));

    // A bundle made by hand is refused by import, with and without --dry-run: once with the
    // template in the manifest too, once with an innocent manifest and the template in spec.yaml.
    const struct
    {
        QByteArray manifestName;
        QString message;
    } bundles[] = {
        {kTemplateName, QStringLiteral("'kit.name' must be a kit name (1-64 lowercase letters, digits and inner "
                                       "hyphens), found '%1'")
                            .arg(QString::fromUtf8(kTemplateName))},
        {"autostart",
         QStringLiteral("spec.yaml:3:8: error: `name` is the kit's identity and cannot use a placeholder")},
    };
    for (const auto &bundle : bundles) {
        Person student;
        const QString hostile = student.path(QStringLiteral("course.paddock"));
        QVERIFY(writeAll(hostile, bundleNamed(bundle.manifestName, kTemplateName)));
        for (const QStringList &extra : {QStringList{QStringLiteral("--dry-run")}, QStringList()}) {
            const Run imported = student.importBundle(hostile, extra);
            QCOMPARE(imported.exitCode, 1);
            QVERIFY2(imported.err.contains(bundle.message), qPrintable(imported.err));
            QVERIFY2(!imported.out.contains(QLatin1String("write the kit folder")), qPrintable(imported.out));
            QCOMPARE(student.written(), QStringList());
            // Where the kit would have gone: data/paddock/kits/X/../../../../.config/autostart.
            QCOMPARE(wouldBeTarget(student, kTemplateName), student.home() + QStringLiteral("/.config/autostart"));
            QVERIFY(!QFileInfo::exists(wouldBeTarget(student, kTemplateName)));
            QVERIFY(!QFileInfo::exists(student.home() + QStringLiteral("/.config")));
        }
    }
}

void TestBundleCli::nameThatIsAPathIsRefused_data()
{
    QTest::addColumn<QByteArray>("name");
    QTest::newRow("slash") << QByteArray("course/autostart");
    QTest::newRow("parent") << QByteArray("..");
    QTest::newRow("parents") << QByteArray("../../../.config/autostart");
    QTest::newRow("absolute path") << QByteArray("/tmp/paddock-owned/.config/autostart");
}

void TestBundleCli::nameThatIsAPathIsRefused()
{
    QFETCH(QByteArray, name);
    Person teacher;
    const QString kit = teacher.path(QStringLiteral("kit"));
    QVERIFY(QDir().mkpath(kit));
    QVERIFY(writeAll(kit + QStringLiteral("/spec.yaml"), specNamed(name)));
    const QString found = QStringLiteral("found '%1'").arg(QString::fromUtf8(name));

    const Run validated = teacher.paddock({QStringLiteral("kit"), QStringLiteral("validate"), kit});
    QCOMPARE(validated.exitCode, 1);
    QVERIFY2(validated.out.contains(QLatin1String("spec.yaml:3:7: error: `name` must be")), qPrintable(validated.out));
    QVERIFY2(validated.out.contains(found), qPrintable(validated.out));

    const QString file = teacher.path(QStringLiteral("out.paddock"));
    const Run exported = teacher.paddock(
        {QStringLiteral("bundle"), QStringLiteral("export"), QStringLiteral("--kit"), kit, QStringLiteral("-o"), file});
    QCOMPARE(exported.exitCode, 1);
    QVERIFY2(exported.err.contains(found), qPrintable(exported.err));
    QVERIFY(!QFileInfo::exists(file));

    Person student;
    const QString hostile = student.path(QStringLiteral("hostile.paddock"));
    QVERIFY(writeAll(hostile, bundleNamed(name, name)));
    for (const QStringList &extra : {QStringList{QStringLiteral("--dry-run")}, QStringList()}) {
        const Run imported = student.importBundle(hostile, extra);
        QCOMPARE(imported.exitCode, 1);
        QVERIFY2(imported.err.contains(QLatin1String("'kit.name' must be a kit name")), qPrintable(imported.err));
        QVERIFY2(imported.err.contains(found), qPrintable(imported.err));
        QCOMPARE(student.written(), QStringList());
        QVERIFY(!QFileInfo::exists(wouldBeTarget(student, name)));
        QVERIFY(!QFileInfo::exists(student.home() + QStringLiteral("/.config")));
    }
    QVERIFY(!QFileInfo::exists(QStringLiteral("/tmp/paddock-owned")));
}

void TestBundleCli::intoMustNameAKitFolder()
{
    Person teacher;
    const QString file = exportedShellKit(teacher);
    QVERIFY(!file.isEmpty());
    Person student;
    for (const QString &into : {QStringLiteral(".config/autostart/.."), QStringLiteral(".config/Autostart")}) {
        const QString named = QFileInfo(QDir::cleanPath(student.path(into))).fileName();
        for (const QStringList &extra : {QStringList{QStringLiteral("--dry-run")}, QStringList()}) {
            const Run imported =
                student.paddock(QStringList{QStringLiteral("bundle"), QStringLiteral("import"), file,
                                            QStringLiteral("--into"), student.path(into), QStringLiteral("--replace")} +
                                extra);
            QCOMPARE(imported.exitCode, 1);
            QVERIFY2(imported.err.contains(QStringLiteral("refusing to write the kit folder '%1'").arg(named)),
                     qPrintable(imported.err));
            QVERIFY2(imported.err.contains(QLatin1String("is not a kit name")), qPrintable(imported.err));
            QVERIFY(!QFileInfo::exists(student.home() + QStringLiteral("/.config")));
        }
    }
}

void TestBundleCli::symlinkedKitsFolderIsFollowed()
{
    Person teacher;
    const QString file = exportedShellKit(teacher);
    QVERIFY(!file.isEmpty());
    // A kits folder kept on another disk, behind a link, as people do with ~/.local/share.
    Person student;
    const QString real = student.path(QStringLiteral("disk/kits"));
    QVERIFY(QDir().mkpath(real));
    QVERIFY(QDir().mkpath(student.dataDir() + QStringLiteral("/paddock")));
    QVERIFY(QFile::link(real, student.dataDir() + QStringLiteral("/paddock/kits")));
    const QString destination = QFileInfo(real).canonicalFilePath() + QStringLiteral("/shell");

    const Run preview = student.importBundle(file, {QStringLiteral("--dry-run")});
    QVERIFY2(preview.exitCode == 0, qPrintable(preview.err));
    QVERIFY2(preview.out.contains(QStringLiteral("write the kit folder ") + destination), qPrintable(preview.out));
    const Run imported = student.importBundle(file);
    QVERIFY2(imported.exitCode == 0, qPrintable(imported.err));
    QCOMPARE(filesUnder(destination), filesUnder(sampleKit(QStringLiteral("shell"))));
    QCOMPARE(QDir(real).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
             QStringList{QStringLiteral("shell")});
}

void TestBundleCli::linkInPlaceOfTheKitFolderIsNotReplaced()
{
    Person teacher;
    const QString file = exportedShellKit(teacher);
    QVERIFY(!file.isEmpty());
    Person student;
    const QString autostart = student.home() + QStringLiteral("/.config/autostart");
    QVERIFY(QDir().mkpath(autostart));
    QVERIFY(QDir().mkpath(student.dataDir() + QStringLiteral("/paddock/kits")));
    const QString link = student.dataDir() + QStringLiteral("/paddock/kits/shell");
    QVERIFY(QFile::link(autostart, link));
    for (const QStringList &extra : {QStringList{QStringLiteral("--dry-run")}, QStringList()}) {
        const Run imported = student.importBundle(file, QStringList{QStringLiteral("--replace")} + extra);
        QCOMPARE(imported.exitCode, 1);
        QVERIFY2(imported.err.contains(link + QStringLiteral(" exists and is not a folder")), qPrintable(imported.err));
        QVERIFY(QFileInfo(link).isSymLink());
        QCOMPARE(QDir(autostart).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList());
    }
}

QString TestBundleCli::openingBundle(Person &teacher)
{
    const QString kit = teacher.path(QStringLiteral("homebound"));
    QDir().mkpath(kit);
    writeAll(kit + QStringLiteral("/spec.yaml"),
             "schemaVersion: \"2\"\nkind: sandbox\nname: homebound\nsandbox:\n  image: tiny:1\n"
             "permissions:\n  network:\n    allow: [\"127.0.0.1:*\", docs.example.org]\n");
    teacher.paddock({QStringLiteral("policy"), QStringLiteral("init"), QStringLiteral("allow-all")});
    teacher.paddock(
        {QStringLiteral("policy"), QStringLiteral("allow"), QStringLiteral("network"), QStringLiteral("10.0.0.0/8")});
    const QString file = teacher.path(QStringLiteral("open.paddock"));
    const Run exported = teacher.paddock({QStringLiteral("bundle"), QStringLiteral("export"), QStringLiteral("--kit"),
                                          kit, QStringLiteral("--policy"), QStringLiteral("-o"), file});
    return exported.exitCode == 0 ? file : QString();
}

QString presetOf(Person &person)
{
    const Run policy = person.paddock({QStringLiteral("policy"), QStringLiteral("ls"), QStringLiteral("--json")});
    return QJsonDocument::fromJson(policy.out.toUtf8()).object().value(QLatin1String("preset")).toString();
}

void TestBundleCli::allowAllPresetNeedsConsent()
{
    Person teacher;
    const QString file = openingBundle(teacher);
    QVERIFY(!file.isEmpty());
    Person student;
    QVERIFY(student.paddock({QStringLiteral("policy"), QStringLiteral("init"), QStringLiteral("balanced")}).exitCode ==
            0);
    const QStringList before = student.written();

    // A script without a flag: the preview lists the grants, then nothing is written.
    const Run refused = student.importBundle(file);
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.out.contains(QLatin1String("allow 10.0.0.0/8 (global), a host grant: reaches private")),
             qPrintable(refused.out));
    QVERIFY2(refused.out.contains(QLatin1String("127.0.0.1:*  reaches loopback")), qPrintable(refused.out));
    QVERIFY2(refused.err.contains(QLatin1String("balanced -> allow-all")) &&
                 refused.err.contains(QLatin1String("--apply-policy")) &&
                 refused.err.contains(QLatin1String("--skip-policy")),
             qPrintable(refused.err));
    QCOMPARE(student.written(), before);
    QCOMPARE(presetOf(student), QStringLiteral("balanced"));

    // --skip-policy: the kit alone.
    const Run kitAlone = student.importBundle(file, {QStringLiteral("--skip-policy")});
    QVERIFY2(kitAlone.exitCode == 0, qPrintable(kitAlone.err));
    QVERIFY(QFileInfo::exists(student.dataDir() + QStringLiteral("/paddock/kits/homebound/spec.yaml")));
    QCOMPARE(presetOf(student), QStringLiteral("balanced"));
    QVERIFY2(kitAlone.out.contains(QLatin1String("paddock grant check --kit")), qPrintable(kitAlone.out));

    // --apply-policy: the person said yes.
    const Run applied = student.importBundle(file, {QStringLiteral("--replace"), QStringLiteral("--apply-policy")});
    QVERIFY2(applied.exitCode == 0, qPrintable(applied.err));
    QCOMPARE(presetOf(student), QStringLiteral("allow-all"));
}

void TestBundleCli::aNoOnTheTerminalImportsTheKitAlone()
{
    Person teacher;
    const QString file = openingBundle(teacher);
    QVERIFY(!file.isEmpty());
    Person student;
    QVERIFY(student.paddock({QStringLiteral("policy"), QStringLiteral("init"), QStringLiteral("balanced")}).exitCode ==
            0);
    const Run asked =
        student.onTerminal(QStringLiteral("%1 bundle import %2").arg(QStringLiteral(PADDOCK_BIN), file), "n\n");
    QVERIFY2(asked.out.contains(QLatin1String("[y/N]")), qPrintable(asked.out + asked.err));
    QVERIFY2(asked.out.contains(QLatin1String("Imported kit homebound")), qPrintable(asked.out));
    QCOMPARE(presetOf(student), QStringLiteral("balanced"));
    const Run policy = student.paddock({QStringLiteral("policy"), QStringLiteral("ls"), QStringLiteral("--json")});
    QVERIFY2(!policy.out.contains(QLatin1String("10.0.0.0/8")), qPrintable(policy.out));
}

void TestBundleCli::aBundleNamesTheEngineItsSandboxesRunOn()
{
    Person teacher;
    const QString file = teacher.path(QStringLiteral("lab.paddock"));
    const Run exported = teacher.paddock({QStringLiteral("bundle"), QStringLiteral("export"), QStringLiteral("--kit"),
                                          sampleKit(QStringLiteral("shell")), QStringLiteral("--engine"),
                                          QStringLiteral("lab"), QStringLiteral("-o"), file});
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
    QVERIFY2(exported.out.contains(QLatin1String("engine: students' sandboxes run on lab")), qPrintable(exported.out));
    // A student without that engine is told how to add it, and the run names it.
    Person student;
    const Run imported = student.importBundle(file);
    QVERIFY2(imported.exitCode == 0, qPrintable(imported.err));
    QVERIFY2(imported.out.contains(QLatin1String("Its sandboxes run on the container engine lab")),
             qPrintable(imported.out));
    QVERIFY2(imported.out.contains(QLatin1String("This computer has no engine lab yet")), qPrintable(imported.out));
    QVERIFY2(imported.out.contains(QLatin1String("paddock engine add lab tcp://HOST:2376 --remote")),
             qPrintable(imported.out));
    QVERIFY2(imported.out.contains(QLatin1String("paddock run --engine lab --kit")), qPrintable(imported.out));
    // One this computer has is said to be there.
    const Run local = teacher.paddock({QStringLiteral("bundle"), QStringLiteral("export"), QStringLiteral("--kit"),
                                       sampleKit(QStringLiteral("shell")), QStringLiteral("--engine"),
                                       QStringLiteral("local"), QStringLiteral("-o"), file});
    QVERIFY2(local.exitCode == 0, qPrintable(local.err));
    const Run preview = Person().importBundle(file, {QStringLiteral("--dry-run")});
    QVERIFY2(preview.out.contains(QLatin1String("This computer has engine local.")), qPrintable(preview.out));
    // A name that is not one is refused on both sides.
    const Run bad = teacher.paddock({QStringLiteral("bundle"), QStringLiteral("export"), QStringLiteral("--kit"),
                                     sampleKit(QStringLiteral("shell")), QStringLiteral("--engine"),
                                     QStringLiteral("../lab"), QStringLiteral("-o"), file});
    QVERIFY(bad.exitCode != 0);
    QVERIFY2(bad.err.contains(QLatin1String("not an engine's name")), qPrintable(bad.err));
}

QTEST_GUILESS_MAIN(TestBundleCli)
#include "tst_bundle_cli.moc"
