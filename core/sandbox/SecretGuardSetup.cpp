// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/SecretGuardSetup.h"

#include "common/UniqueFd.h"
#include "sandbox/SandboxRecord.h"

#include <QFile>
#include <QLoggingCategory>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>

namespace paddock::sandbox {

Q_LOGGING_CATEGORY(lcGuard, "paddock.sandbox.guard", QtInfoMsg)

namespace {

constexpr int MaxDepth = 6;
constexpr int MaxEntries = 20000;
constexpr int MaxFiles = 64;
constexpr qint64 MaxFileBytes = 64 * 1024;
constexpr auto Rewalk = std::chrono::seconds(2);

enum class FileKind {
    None,
    Env,
    Key
};

FileKind kindOf(const QString &name)
{
    if (name == QLatin1String(".env") || name.startsWith(QLatin1String(".env.")))
        return FileKind::Env;
    if (name.endsWith(QLatin1String(".pem")) ||
        (name.startsWith(QLatin1String("id_")) && !name.endsWith(QLatin1String(".pub"))))
        return FileKind::Key;
    return FileKind::None;
}

bool trivial(const QByteArray &value)
{
    static const QList<QByteArray> words{"true",      "false",    "development", "production", "localhost", "staging",
                                         "undefined", "changeme", "password",    "127.0.0.1",  "0.0.0.0"};
    if (words.contains(value.toLower()))
        return true;
    return std::all_of(value.begin(), value.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
}

// A line from the middle of each PRIVATE KEY block: random key material, present in any copy.
std::vector<proxy::guard::Value> keyValues(const QByteArray &text, const QString &file)
{
    std::vector<proxy::guard::Value> values;
    const QList<QByteArray> lines = text.split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QByteArray line = lines[i].trimmed();
        if (!line.startsWith("-----BEGIN ") || !line.contains("PRIVATE KEY"))
            continue;
        QList<QByteArray> body;
        for (++i; i < lines.size() && !lines[i].trimmed().startsWith("-----END"); ++i) {
            const QByteArray part = lines[i].trimmed();
            if (part.size() >= 40 && !part.contains(':'))
                body << part;
        }
        if (!body.isEmpty())
            values.push_back({body[body.size() / 2].toStdString(), file, QStringLiteral("private key")});
    }
    return values;
}

struct Walk
{
    WorkspaceSecrets &out;
    int entries = 0;

    void read(int dirFd, const QString &relative, FileKind kind)
    {
        UniqueFd fd(::openat(dirFd, QFile::encodeName(relative.section(QLatin1Char('/'), -1)).constData(),
                             O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
        struct stat st
        {};
        if (!fd.valid() || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
            return;
        out.signature += relative.toUtf8() + ' ' + QByteArray::number(qint64(st.st_size)) + ' ' +
                         QByteArray::number(qint64(st.st_mtim.tv_sec)) + '.' +
                         QByteArray::number(qint64(st.st_mtim.tv_nsec)) + ' ' + QByteArray::number(qint64(st.st_ino)) +
                         '\n';
        if (st.st_size > MaxFileBytes) {
            out.skipped << QStringLiteral("%1: larger than %2 KiB, not read").arg(relative).arg(MaxFileBytes / 1024);
            return;
        }
        QByteArray text(qsizetype(st.st_size), '\0');
        const ssize_t n = ::read(fd.get(), text.data(), std::size_t(text.size()));
        text.resize(n > 0 ? qsizetype(n) : 0);
        out.files << relative;
        std::vector<proxy::guard::Value> found =
            kind == FileKind::Env ? parseEnvValues(text, relative, &out.skipped) : keyValues(text, relative);
        for (proxy::guard::Value &value : found)
            out.values.push_back(std::move(value));
        OPENSSL_cleanse(text.data(), std::size_t(text.size()));
    }

    void walk(int dirFd, const QString &prefix, int depth)
    {
        const int copy = ::dup(dirFd);
        DIR *dir = copy >= 0 ? ::fdopendir(copy) : nullptr;
        if (!dir) {
            if (copy >= 0)
                ::close(copy);
            return;
        }
        while (const dirent *entry = ::readdir(dir)) {
            const QString name = QFile::decodeName(entry->d_name);
            if (name == QLatin1String(".") || name == QLatin1String("..") || ++entries > MaxEntries)
                continue;
            const QString relative = prefix.isEmpty() ? name : prefix + QLatin1Char('/') + name;
            if (entry->d_type == DT_DIR) {
                if (depth >= MaxDepth || name == QLatin1String(".git") || name == QLatin1String("node_modules"))
                    continue;
                UniqueFd sub(::openat(dirFd, entry->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
                if (sub.valid())
                    walk(sub.get(), relative, depth + 1);
            } else if (entry->d_type == DT_REG || entry->d_type == DT_UNKNOWN) {
                const FileKind kind = kindOf(name);
                if (kind != FileKind::None && out.files.size() < MaxFiles)
                    read(dirFd, relative, kind);
            }
        }
        ::closedir(dir);
    }
};

} // namespace

std::vector<proxy::guard::Value> parseEnvValues(const QByteArray &text, const QString &file, QStringList *skipped)
{
    std::vector<proxy::guard::Value> values;
    for (QByteArray line : text.split('\n')) {
        line = line.trimmed();
        if (line.startsWith("export "))
            line = line.mid(7).trimmed();
        const qsizetype equals = line.indexOf('=');
        if (line.isEmpty() || line.startsWith('#') || equals <= 0)
            continue;
        const QString name = QString::fromUtf8(line.left(equals).trimmed());
        QByteArray value = line.mid(equals + 1).trimmed();
        if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front()) {
            value = value.mid(1, value.size() - 2);
        } else if (const qsizetype comment = value.indexOf(" #"); comment >= 0) {
            value = value.left(comment).trimmed();
        }
        if (value.size() < qsizetype(proxy::guard::MinValueBytes) || trivial(value)) {
            if (skipped && !value.isEmpty())
                *skipped << QStringLiteral("%1 %2: %3")
                                .arg(file, name,
                                     value.size() < qsizetype(proxy::guard::MinValueBytes)
                                         ? QStringLiteral("shorter than %1 characters").arg(proxy::guard::MinValueBytes)
                                         : QStringLiteral("an ordinary word or number"));
        } else {
            values.push_back({value.toStdString(), file, name});
        }
        OPENSSL_cleanse(value.data(), std::size_t(value.size()));
        OPENSSL_cleanse(line.data(), std::size_t(line.size()));
    }
    return values;
}

WorkspaceSecrets WorkspaceSecrets::read(const QString &workspace)
{
    WorkspaceSecrets secrets;
    if (workspace.isEmpty())
        return secrets;
    UniqueFd root(::open(QFile::encodeName(workspace).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!root.valid())
        return secrets;
    Walk walk{secrets};
    walk.walk(root.get(), QString(), 0);
    if (walk.entries > MaxEntries)
        secrets.skipped
            << QStringLiteral("the workspace has more than %1 entries: only the first were looked at").arg(MaxEntries);
    return secrets;
}

QString allowedValueKey(const QString &file, const QString &name)
{
    return file + QLatin1Char('\t') + name;
}

SandboxSecretValues::SandboxSecretValues(QString sandbox, std::vector<proxy::InjectRule> rules)
    : m_sandbox(std::move(sandbox)),
      m_rules(std::move(rules)),
      m_recordPath(QFile::encodeName(SandboxRecord::pathFor(m_sandbox)))
{}

void SandboxSecretValues::readRecord(const RecordStamp &stamp)
{
    if (stamp == m_recordStamp)
        return;
    m_recordStamp = stamp;
    const std::optional<SandboxRecord> record = SandboxRecord::read(m_sandbox);
    m_mode = record ? proxy::guard::modeFromName(record->secretGuard).value_or(proxy::guard::Mode::Off)
                    : proxy::guard::Mode::Off;
    const QStringList allowed = record ? record->allowedValues : QStringList();
    if (!record || record->workspace != m_workspace || allowed != m_allowed)
        m_patterns.reset(); // built again below
    m_workspace = record ? record->workspace : QString();
    m_allowed = allowed;
}

proxy::guard::GuardState SandboxSecretValues::current()
{
    // Before every request, so `paddock guard` applies to the next one: one stat(), outside the lock.
    struct stat st
    {};
    RecordStamp stamp{-1, -1, -1, -1};
    if (::stat(m_recordPath.constData(), &st) == 0)
        stamp = {qint64(st.st_mtim.tv_sec), qint64(st.st_mtim.tv_nsec), qint64(st.st_size), qint64(st.st_ino)};
    const std::lock_guard lock(m_mutex);
    readRecord(stamp);
    if (m_mode == proxy::guard::Mode::Off)
        return {};
    const auto now = std::chrono::steady_clock::now();
    if (m_patterns && now - m_walked < Rewalk)
        return {m_mode, m_patterns};
    m_walked = now;
    WorkspaceSecrets secrets = WorkspaceSecrets::read(m_workspace);
    if (m_patterns && secrets.signature == m_signature) {
        for (proxy::guard::Value &value : secrets.values)
            OPENSSL_cleanse(value.bytes.data(), value.bytes.size());
        return {m_mode, m_patterns};
    }
    std::vector<proxy::guard::Value> values;
    for (proxy::guard::Value &value : secrets.values) {
        if (m_allowed.contains(allowedValueKey(value.file, value.name)))
            OPENSSL_cleanse(value.bytes.data(), value.bytes.size());
        else
            values.push_back(std::move(value));
    }
    // The keychain's secrets (the keys Paddock injects and every other): never sent by the
    // sandbox, which holds only sentinels and placeholders. Read when the table is built.
    for (const proxy::InjectRule &rule : m_rules) {
        QByteArray key = rule.secret ? rule.secret() : QByteArray();
        if (!key.trimmed().isEmpty())
            values.push_back({key.trimmed().toStdString(), QStringLiteral("keychain"),
                              rule.credential.isEmpty() ? rule.domain : rule.credential});
        OPENSSL_cleanse(key.data(), std::size_t(key.size()));
    }
    m_patterns = proxy::guard::Patterns::build(values);
    m_signature = secrets.signature;
    QStringList skipped = secrets.skipped;
    for (const QString &why : m_patterns->skipped())
        skipped << why;
    qCInfo(lcGuard).noquote() << "sandbox" << m_sandbox << ": the secret guard looks for" << m_patterns->values().size()
                              << "value(s) from"
                              << (secrets.files.isEmpty() ? QStringLiteral("no workspace file")
                                                          : secrets.files.join(QStringLiteral(", ")))
                              << "and the keychain" << (skipped.isEmpty() ? QString() : QStringLiteral("; left out:"))
                              << skipped.join(QStringLiteral("; "));
    return {m_mode, m_patterns};
}

std::shared_ptr<const proxy::guard::GuardConfig> secretGuardOf(const QString &sandbox,
                                                               const std::vector<proxy::InjectRule> &rules)
{
    const std::optional<SandboxRecord> record = SandboxRecord::read(sandbox);
    if (!record || record->workspace.isEmpty())
        return nullptr;
    auto values = std::make_shared<SandboxSecretValues>(sandbox, rules);
    auto config = std::make_shared<proxy::guard::GuardConfig>();
    config->current = [values] { return values->current(); };
    config->howToAllow = [sandbox](const proxy::guard::Value &value) {
        if (value.file == QLatin1String("keychain"))
            return QStringLiteral("This is a secret of Paddock's keychain, which Paddock adds to requests itself "
                                  "where it is bound; the sandbox never needs to send it.");
        return QStringLiteral("If sending it is intended, the user can allow this value for this sandbox with: "
                              "paddock guard allow %1 %2 '%3'")
            .arg(sandbox, value.file, value.name);
    };
    return config;
}

} // namespace paddock::sandbox
