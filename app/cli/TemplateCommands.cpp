// SPDX-License-Identifier: GPL-3.0-or-later
// paddock template build|load|ls|rm: the images sandboxes run, through the daemon's jobs.
#include "Cli.h"
#include "CliSupport.h"
#include "KitArgument.h"

#include "api/DaemonConnection.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <csignal>

#include <unistd.h>

namespace paddock::cli {
namespace {

constexpr int kCallTimeoutMs = 60000;
/** How often the wait for events looks at Ctrl-C. */
constexpr int kPollMs = 200;

volatile std::sig_atomic_t g_interrupted = 0;

void onInterrupt(int)
{
    g_interrupted = 1;
}

/** Ctrl-C asks for a cancel while it lives; a second one ends the command at once. */
class InterruptGuard
{
public:
    InterruptGuard()
    {
        g_interrupted = 0;
        struct sigaction action
        {};
        action.sa_handler = onInterrupt;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESETHAND;
        ::sigaction(SIGINT, &action, &m_previous);
    }
    ~InterruptGuard() { ::sigaction(SIGINT, &m_previous, nullptr); }
    InterruptGuard(const InterruptGuard &) = delete;
    InterruptGuard &operator=(const InterruptGuard &) = delete;

private:
    struct sigaction m_previous
    {};
};

/**
 * Prints a job's events as they come: a line per step, the percent of a load in place on a
 * terminal, a line per blob of a pull.
 */
class ProgressPrinter
{
public:
    explicit ProgressPrinter(bool verbose) : m_terminal(::isatty(STDOUT_FILENO)), m_verbose(verbose) {}

    void print(const QJsonObject &event)
    {
        const QString kind = event.value(QLatin1String("kind")).toString();
        const int step = event.value(QLatin1String("step")).toInt();
        const int total = event.value(QLatin1String("totalSteps")).toInt();
        const int percent = event.value(QLatin1String("percent")).toInt();
        const QString message = event.value(QLatin1String("message")).toString();
        if (kind == QLatin1String("build")) {
            if (step > 0 && step != m_step) {
                m_step = step;
                line(QStringLiteral("step %1/%2 (%3%): %4").arg(step).arg(total).arg(percent, 3).arg(message));
            }
            if (m_verbose) {
                const QString output = event.value(QLatin1String("output")).toString();
                for (const QString &text : output.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
                    if (!text.startsWith(QLatin1String("Step ")))
                        line(QStringLiteral("  ") + text);
                }
            }
            return;
        }
        if (kind == QLatin1String("pull")) {
            pullLine(step, message);
            return;
        }
        // A load moves by bytes: in place on a terminal, at every tenth otherwise.
        if (m_terminal) {
            out() << "\r\033[K" << message << ": " << percent << '%';
            out().flush();
            m_open = true;
        } else if (percent / 10 != m_tenth) {
            m_tenth = percent / 10;
            line(QStringLiteral("%1: %2%").arg(message).arg(percent));
        }
    }

    /** A pull: a line per blob, its bytes moving in place on a terminal; its last count otherwise. */
    void pullLine(int step, const QString &message)
    {
        if (step != m_step && m_open)
            out() << '\n';
        else if (step != m_step && !m_terminal && !m_last.isEmpty())
            out() << m_last << '\n';
        m_step = step;
        m_last = message;
        if (m_terminal) {
            out() << "\r\033[K" << message;
            m_open = true;
        }
        out().flush();
    }

    void line(const QString &text)
    {
        if (m_open)
            out() << '\n';
        m_open = false;
        out() << text << '\n';
        out().flush();
    }

    void end()
    {
        if (!m_terminal && !m_last.isEmpty())
            out() << m_last << '\n';
        m_last.clear();
        if (m_open)
            out() << '\n';
        m_open = false;
        out().flush();
    }

private:
    bool m_terminal;
    bool m_verbose;
    bool m_open = false; ///< a line is being rewritten in place
    int m_step = 0;
    int m_tenth = -1;
    QString m_last; ///< a pull's latest line, printed once its blob is done when not on a terminal
};

/**
 * Starts @p method and follows its job to the end. Subscribes before starting, so no event
 * is missed; Ctrl-C asks the daemon to cancel the job and waits for it to end.
 */
int followJob(const QString &method, const QJsonObject &params, bool verbose)
{
    api::DaemonConnection connection;
    QString error;
    if (!connectDaemon(connection, &error))
        return failure(error);
    const api::Reply subscribed =
        connection.call(QStringLiteral("subscribe"), {{QStringLiteral("topics"), QJsonArray{QStringLiteral("image")}}});
    if (subscribed.isError())
        return failure(subscribed.errorMessage());

    InterruptGuard guard;
    const api::Reply started = connection.call(method, params, kCallTimeoutMs);
    if (started.isError())
        return failure(started.errorMessage());
    const QString job = started.result().value(QLatin1String("job")).toString();
    const QString tag = started.result().value(QLatin1String("tag")).toString();
    ProgressPrinter printer(verbose);
    if (!tag.isEmpty())
        printer.line(QStringLiteral("building %1").arg(tag));

    bool cancelling = false;
    for (;;) {
        if (g_interrupted && !cancelling) {
            cancelling = true;
            printer.line(QStringLiteral("cancelling..."));
            const api::Reply cancelled =
                connection.call(QStringLiteral("image.cancel"), {{QStringLiteral("job"), job}});
            if (cancelled.isError() && cancelled.errorCode() != QLatin1String(api::errors::kFinished))
                return failure(cancelled.errorMessage());
        }
        const std::optional<api::Event> event = connection.waitForEvent(kPollMs);
        if (!event) {
            if (!connection.isOpen()) {
                printer.end();
                return failure(QStringLiteral("the connection to paddockd closed before job %1 ended").arg(job));
            }
            continue;
        }
        if (event->topic != QLatin1String("image") || event->data.value(QLatin1String("job")).toString() != job)
            continue;
        const QString state = event->data.value(QLatin1String("state")).toString();
        if (state == QLatin1String("running")) {
            printer.print(event->data);
            continue;
        }
        printer.end();
        if (state == QLatin1String("done")) {
            for (const QJsonValue &note : event->data.value(QLatin1String("notes")).toArray())
                out() << "note: " << note.toString() << '\n';
            out() << event->data.value(QLatin1String("message")).toString() << '\n';
            return ExitOk;
        }
        return failure(event->data.value(QLatin1String("error")).toString());
    }
}

int runBuild(const Invocation &call)
{
    const std::optional<QString> kit = call.parser.isSet(QStringLiteral("kit"))
                                           ? resolveKit(call.parser.value(QStringLiteral("kit")))
                                           : std::optional<QString>(QDir::currentPath());
    if (!kit)
        return ExitFailed;
    int code = ExitOk;
    const std::optional<QJsonObject> kitArgs = kitArgsJson(call, &code);
    if (!kitArgs)
        return code;
    QJsonObject params{{QStringLiteral("kit"), *kit},
                       {QStringLiteral("kitArgs"), *kitArgs},
                       {QStringLiteral("noCache"), call.parser.isSet(QStringLiteral("no-cache"))}};
    if (call.parser.isSet(QStringLiteral("tag")))
        params.insert(QStringLiteral("tag"), call.parser.value(QStringLiteral("tag")));
    return followJob(QStringLiteral("image.build"), params, call.parser.isSet(QStringLiteral("verbose")));
}

int runLoad(const Invocation &call)
{
    const QString file = call.positional.first();
    if (!QFileInfo(file).isFile())
        return failure(QStringLiteral("%1 is not a file").arg(file));
    return followJob(QStringLiteral("image.load"), {{QStringLiteral("file"), QFileInfo(file).absoluteFilePath()}},
                     false);
}

int runPull(const Invocation &call)
{
    QJsonObject params{{QStringLiteral("reference"), call.positional.first()}};
    if (call.parser.isSet(QStringLiteral("max-layer-size"))) {
        // A whole number with K, M or G (binary), e.g. 512M.
        QString text = call.parser.value(QStringLiteral("max-layer-size")).trimmed().toUpper();
        const int shift = text.endsWith(u'K') ? 10 : text.endsWith(u'M') ? 20 : text.endsWith(u'G') ? 30 : 0;
        if (shift > 0)
            text.chop(1);
        bool ok = false;
        const qint64 size = text.toLongLong(&ok);
        if (!ok || size <= 0 || size > (qint64(1) << (50 - shift)))
            return usageError(call.commandPath, QStringLiteral("--max-layer-size takes a size such as 512M or 16G"));
        params.insert(QStringLiteral("maxLayerBytes"), size << shift);
    }
    return followJob(QStringLiteral("image.pull"), params, false);
}

int runRm(const Invocation &call)
{
    api::DaemonConnection connection;
    QString error;
    if (!connectDaemon(connection, &error))
        return failure(error);
    const api::Reply removed = connection.call(QStringLiteral("image.remove"),
                                               {{QStringLiteral("image"), call.positional.first()}}, kCallTimeoutMs);
    if (removed.isError())
        return failure(removed.errorMessage());
    out() << "Removed " << call.positional.first() << " from Paddock's store, with "
          << removed.result().value(QLatin1String("layersRemoved")).toInteger() << " layers nothing else uses.\n";
    return ExitOk;
}

int runLs(const Invocation &call)
{
    api::DaemonConnection connection;
    QString error;
    if (!connectDaemon(connection, &error))
        return failure(error);
    const api::Reply listed = connection.call(QStringLiteral("image.list"), {}, kCallTimeoutMs);
    if (listed.isError())
        return failure(listed.errorMessage());
    const QJsonArray images = listed.result().value(QLatin1String("images")).toArray();
    if (call.parser.isSet(QStringLiteral("json"))) {
        out() << QJsonDocument(images).toJson(QJsonDocument::Indented);
        return ExitOk;
    }
    if (images.isEmpty()) {
        out() << "No images. Build one with 'paddock template build --kit KIT' or load one with "
                 "'paddock template load FILE'.\n";
        return ExitOk;
    }
    QList<QStringList> rows{{QStringLiteral("TAG"), QStringLiteral("ID"), QStringLiteral("SIZE"),
                             QStringLiteral("CREATED"), QStringLiteral("SOURCE")}};
    for (const QJsonValue &value : images) {
        const QJsonObject image = value.toObject();
        const QDateTime created = QDateTime::fromString(image.value(QLatin1String("created")).toString(), Qt::ISODate);
        QString source = image.value(QLatin1String("source")).toString();
        if (image.contains(QLatin1String("kit")))
            source += QStringLiteral(" (kit %1)").arg(image.value(QLatin1String("kit")).toString());
        rows.append({image.value(QLatin1String("tag")).toString(),
                     image.value(QLatin1String("id")).toString().section(QLatin1Char(':'), -1).left(12),
                     humanBytes(image.value(QLatin1String("size")).toInteger()),
                     created.isValid() ? created.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")) : QString(),
                     source});
    }
    const QStringList header = rows.takeFirst();
    printTable(header, rows);
    return ExitOk;
}

} // namespace

Command templateCommand()
{
    Command group;
    group.name = QStringLiteral("template");
    group.summary = QStringLiteral("Build, load, list and remove the images sandboxes run.");
    group.description =
        QStringLiteral("A sandbox runs the image its kit names in `sandbox.image`. Build it from the kit's\n"
                       "Dockerfile, or load an archive made by `docker save`; paddockd does the work, so the\n"
                       "desktop application shows the same progress. Ctrl-C cancels a build or a load.\n"
                       "Bubblewrap sandboxes use the images of Paddock's own store (source `store`), into\n"
                       "which `load` unpacks each layer once.");

    Command build = leaf(
        QStringLiteral("build"), QStringLiteral("Build a kit's image."),
        QStringLiteral(
            "Builds the image of the kit KIT (default: the one in the current directory): from its `sandbox.build`\n"
            "(context relative to the kit, dockerfile relative to the context), else from the\n"
            "Dockerfile beside spec.yaml. The tag is --tag, else the kit's `sandbox.image`, so that\n"
            "'paddock run --backend docker' finds it. Prints a line per Dockerfile instruction.\n\n"
            "RUN steps have no network: a Dockerfile comes with a kit, and its commands would\n"
            "otherwise reach anything the container engine reaches, outside every rule. Put what\n"
            "they need in the build context (or FROM an image that has it), or build the image\n"
            "yourself and load it with 'paddock template load'.\n\n"
            "A schemaVersion 3 kit (STEM.yaml beside STEM.dockerfile) is built into a kit of its own\n"
            "with 'paddock kit build PATH'."),
        runBuild);
    build.options = {
        kitOption(QStringLiteral("The kit whose image is built (default: the current directory).")),
        QCommandLineOption(QStringLiteral("tag"),
                           QStringLiteral("The image's name (default: the kit's sandbox.image)."), QStringLiteral("T")),
        QCommandLineOption(QStringLiteral("arg"), QStringLiteral("A value for the kit's argument NAME (repeatable)."),
                           QStringLiteral("NAME=VALUE")),
        QCommandLineOption(QStringLiteral("no-cache"), QStringLiteral("Build every step again.")),
        QCommandLineOption(QStringLiteral("verbose"), QStringLiteral("Also print what each step prints."))};
    build.maxPositional = 0;

    Command load = leaf(QStringLiteral("load"), QStringLiteral("Load an image archive."),
                        QStringLiteral("Loads FILE, an archive made by `docker save` or an OCI image layout, into "
                                       "Paddock's store\n(for bubblewrap sandboxes) and, when one answers, into the "
                                       "Docker engine; prints the\nimages it held."),
                        runLoad);
    load.positionalSyntax = QStringLiteral("FILE");
    load.positionalHelp = {{QStringLiteral("FILE"), QStringLiteral("A tar archive made by `docker save`.")}};
    load.minPositional = load.maxPositional = 1;

    Command rm = leaf(QStringLiteral("rm"), QStringLiteral("Remove an image from Paddock's store."),
                      QStringLiteral("Forgets IMAGE (a name:tag or an id) in Paddock's store and removes the layers "
                                     "that no other\nimage and no sandbox uses. The Docker engine's images stay."),
                      runRm);
    rm.positionalSyntax = QStringLiteral("IMAGE");
    rm.minPositional = rm.maxPositional = 1;

    Command ls = leaf(QStringLiteral("ls"), QStringLiteral("List Paddock's images."),
                      QStringLiteral("Lists the images built or loaded through Paddock and those its Docker sandboxes "
                                     "use:\ntag, id, size, creation time and where it came from."),
                      runLs);
    ls.options = {jsonOption()};
    ls.maxPositional = 0;

    group.subcommands = {build, load, ls, rm};
    return group;
}

Command imageCommand()
{
    Command group;
    group.name = QStringLiteral("image");
    group.summary = QStringLiteral("Pull images from their registries into Paddock's store.");
    group.description =
        QStringLiteral("Bubblewrap sandboxes run the images of Paddock's own store; `paddock template` builds,\n"
                       "loads, lists and removes them.");
    Command pull = leaf(
        QStringLiteral("pull"), QStringLiteral("Pull an image from its registry."),
        QStringLiteral("Fetches REF ([HOST[:PORT]/]REPO[:TAG|@sha256:DIGEST]; Docker Hub when no host is named) from\n"
                       "its registry into Paddock's store, without Docker, and prints each blob's bytes as they\n"
                       "arrive. paddockd does the work: over HTTPS with the logins of `docker login`\n"
                       "(~/.docker/config.json and its credential helpers) and the certificate authorities of\n"
                       "~/.docker/certs.d/HOST:PORT/ca.crt; plain HTTP only for localhost or a registry listed in\n"
                       "~/.config/paddock/insecure-registries. Every blob is checked against its digest."),
        runPull);
    pull.positionalSyntax = QStringLiteral("REF");
    pull.minPositional = pull.maxPositional = 1;
    pull.options = {QCommandLineOption(QStringLiteral("max-layer-size"),
                                       QStringLiteral("Refuse a layer larger than SIZE, e.g. 512M (default: 16G)."),
                                       QStringLiteral("SIZE"))};
    group.subcommands = {pull};
    return group;
}

} // namespace paddock::cli
