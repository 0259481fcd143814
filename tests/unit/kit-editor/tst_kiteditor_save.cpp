// SPDX-License-Identifier: GPL-3.0-or-later
// Saving an edited kit: re-validation, atomic replacement, and a file left exactly as it
// was whenever a save is refused or fails.
#include "EditorTestSupport.h"

#include "kit/KitEditor.h"
#include "kit/KitLoader.h"

#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace paddock::kit;
using namespace paddock::kit::test;

namespace {

QString fixture(const QString &relative)
{
    return QStringLiteral(PADDOCK_FIXTURES "/kits/") + relative + QStringLiteral("/spec.yaml");
}

// A kit directory in @p root holding a copy of a fixture's spec.yaml.
QString copyKit(const QTemporaryDir &root, const QString &relative)
{
    const QString dir = root.filePath(QStringLiteral("kit"));
    QDir().mkpath(dir);
    QFile::copy(fixture(relative), dir + QStringLiteral("/spec.yaml"));
    QFile::setPermissions(dir + QStringLiteral("/spec.yaml"),
                          QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    return dir;
}

QStringList entries(const QString &dir)
{
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
}

/** A copy of the published Pi kit with github.com added to its allowed hosts: an edit not saved yet. */
struct PendingEdit
{
    QTemporaryDir root;
    QString dir;
    QByteArray original; ///< its spec.yaml before the edit
    std::optional<KitEditor> editor;
    QString error;

    /** Copies, opens and edits the kit; false (and error) when it did not open or nothing changed. */
    bool open()
    {
        dir = copyKit(root, QStringLiteral("published/pi"));
        original = readFile(spec());
        editor = KitEditor::open(dir, &error);
        return editor && editor->addNetworkPattern(NetworkList::Allow, QStringLiteral("github.com")).changed();
    }
    QString spec() const { return dir + QStringLiteral("/spec.yaml"); }
};

} // namespace

class TestKitEditorSave : public QObject
{
    Q_OBJECT

private slots:
    void openReportsWhatIsMissing()
    {
        QTemporaryDir root;
        QString error;
        QVERIFY(!KitEditor::open(root.filePath(QStringLiteral("nowhere")), &error));
        QCOMPARE(error, root.filePath(QStringLiteral("nowhere")) + QStringLiteral(" does not exist"));
        QVERIFY(!KitEditor::open(root.path(), &error));
        QCOMPARE(error, root.path() + QStringLiteral(" has no spec.yaml, so it is not a kit"));
        QDir(root.path()).mkdir(QStringLiteral("spec.yaml"));
        QVERIFY(!KitEditor::open(root.path(), &error));
        QVERIFY2(error.startsWith(QStringLiteral("cannot read ")), qPrintable(error));
    }

    void savesAValidEditAtomically()
    {
        PendingEdit edit;
        QVERIFY2(edit.open(), qPrintable(edit.error));
        QString error;
        QVERIFY2(edit.editor->save(&error), qPrintable(error));
        QVERIFY(!edit.editor->isModified());
        const QByteArray saved = readFile(edit.spec());
        QCOMPARE(saved, edit.editor->text());
        QCOMPARE(*addedLines(readFile(fixture(QStringLiteral("published/pi"))), saved),
                 QList<QByteArray>{"      - github.com"});
        QCOMPARE(entries(edit.dir), QStringList{QStringLiteral("spec.yaml")});
        QCOMPARE(KitEditor::open(edit.dir, &error)->networkPatterns(NetworkList::Allow),
                 (QStringList{QStringLiteral("registry.npmjs.org"), QStringLiteral("github.com")}));
    }

    void refusesAChangeThatMakesTheKitInvalid()
    {
        QTemporaryDir root;
        const QString dir = copyKit(root, QStringLiteral("published/pi"));
        const QByteArray original = readFile(dir + QStringLiteral("/spec.yaml"));
        QString error;
        std::optional<KitEditor> editor = KitEditor::open(dir, &error);
        QVERIFY(editor);
        QVERIFY(editor->setScalar(QStringLiteral("name"), QStringLiteral("Not A Valid Name")).changed());
        QList<Diagnostic> diagnostics;
        QVERIFY(!editor->save(&error, &diagnostics));
        QVERIFY2(error.contains(QLatin1String("would make")) && error.contains(QLatin1String("invalid")),
                 qPrintable(error));
        QVERIFY(hasErrors(diagnostics));
        QCOMPARE(readFile(dir + QStringLiteral("/spec.yaml")), original);
        QCOMPARE(entries(dir), QStringList{QStringLiteral("spec.yaml")});
        QVERIFY(editor->isModified());
    }

    void refusesAKitThatWasInvalidBefore()
    {
        QTemporaryDir root;
        const QString dir = copyKit(root, QStringLiteral("draft-keys/aws"));
        const QByteArray original = readFile(dir + QStringLiteral("/spec.yaml"));
        QString error;
        std::optional<KitEditor> editor = KitEditor::open(dir, &error);
        QVERIFY(editor);
        QVERIFY(editor->addNetworkPattern(NetworkList::Allow, QStringLiteral("github.com")).changed());
        QVERIFY(!editor->save(&error));
        QVERIFY2(error.contains(QLatin1String("even before this change")), qPrintable(error));
        QCOMPARE(readFile(dir + QStringLiteral("/spec.yaml")), original);
    }

    void refusesWhenTheFileChangedOnDisk()
    {
        PendingEdit edit;
        QVERIFY2(edit.open(), qPrintable(edit.error));
        QString error;
        const QByteArray theirs = readFile(edit.spec()) + "# edited elsewhere\n";
        {
            QFile file(edit.spec());
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write(theirs);
        }
        QVERIFY(!edit.editor->save(&error));
        QVERIFY2(error.contains(QLatin1String("changed on disk")), qPrintable(error));
        QCOMPARE(readFile(edit.spec()), theirs);
    }

    void writesThroughASymbolicLink()
    {
        QTemporaryDir root;
        const QString real = copyKit(root, QStringLiteral("published/pi"));
        const QString linked = root.filePath(QStringLiteral("linked"));
        QDir().mkpath(linked);
        QVERIFY(QFile::link(real + QStringLiteral("/spec.yaml"), linked + QStringLiteral("/spec.yaml")));
        QString error;
        std::optional<KitEditor> editor = KitEditor::open(linked, &error);
        QVERIFY(editor->addNetworkPattern(NetworkList::Deny, QStringLiteral("evil.example.org")).changed());
        QVERIFY2(editor->save(&error), qPrintable(error));
        QVERIFY(QFileInfo(linked + QStringLiteral("/spec.yaml")).isSymLink());
        QCOMPARE(readFile(real + QStringLiteral("/spec.yaml")), editor->text());
    }

    void failedWriteLeavesTheOriginalAndNoTemporaryFile()
    {
        PendingEdit edit;
        QVERIFY2(edit.open(), qPrintable(edit.error));
        QString error;

        // The write stops part-way through the temporary file (EFBIG): the kind of
        // failure that would leave a torn file without the rename.
        struct rlimit previous
        {};
        QCOMPARE(getrlimit(RLIMIT_FSIZE, &previous), 0);
        const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);
        struct rlimit small = previous;
        small.rlim_cur = 64;
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
        const bool saved = edit.editor->save(&error);
        setrlimit(RLIMIT_FSIZE, &previous);
        std::signal(SIGXFSZ, previousHandler);

        QVERIFY(!saved);
        QVERIFY2(error.startsWith(QLatin1String("cannot save ")), qPrintable(error));
        QCOMPARE(readFile(edit.spec()), edit.original);
        QCOMPARE(entries(edit.dir), QStringList{QStringLiteral("spec.yaml")});
        QVERIFY(edit.editor->isModified());
    }

    void readOnlyDirectoryLeavesTheOriginal()
    {
        PendingEdit edit;
        QVERIFY2(edit.open(), qPrintable(edit.error));
        QString error;
        QCOMPARE(::chmod(QFile::encodeName(edit.root.path()).constData(), 0755), 0);
        QCOMPARE(::chmod(QFile::encodeName(edit.dir).constData(), 0555), 0);

        bool saved = true;
        if (::geteuid() == 0) {
            // Root ignores directory permissions; save as an unprivileged user instead.
            const pid_t child = ::fork();
            QVERIFY(child >= 0);
            if (child == 0) {
                if (::setgid(65534) != 0 || ::setuid(65534) != 0)
                    ::_exit(3);
                QString childError;
                const bool ok = edit.editor->save(&childError);
                ::_exit(ok ? 0 : childError.startsWith(QLatin1String("cannot save ")) ? 1 : 2);
            }
            int status = 0;
            QCOMPARE(::waitpid(child, &status, 0), child);
            QVERIFY(WIFEXITED(status));
            QCOMPARE(WEXITSTATUS(status), 1); // refused, because the write failed
            saved = false;
        } else {
            saved = edit.editor->save(&error);
            QVERIFY2(error.startsWith(QLatin1String("cannot save ")), qPrintable(error));
        }
        ::chmod(QFile::encodeName(edit.dir).constData(), 0755);
        QVERIFY(!saved);
        QCOMPARE(readFile(edit.spec()), edit.original);
        QCOMPARE(entries(edit.dir), QStringList{QStringLiteral("spec.yaml")});
    }

    void savingAnUnmodifiedKitWritesNothing()
    {
        QTemporaryDir root;
        const QString dir = copyKit(root, QStringLiteral("published/pi"));
        QString error;
        std::optional<KitEditor> editor = KitEditor::open(dir, &error);
        QCOMPARE(editor->addNetworkPattern(NetworkList::Allow, QStringLiteral("registry.npmjs.org")).status,
                 KitEditResult::Status::Unchanged);
        QCOMPARE(::chmod(QFile::encodeName(dir).constData(), 0555), 0);
        QVERIFY2(editor->save(&error), qPrintable(error));
        ::chmod(QFile::encodeName(dir).constData(), 0755);
    }
};

QTEST_GUILESS_MAIN(TestKitEditorSave)
#include "tst_kiteditor_save.moc"
