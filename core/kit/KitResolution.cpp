// SPDX-License-Identifier: GPL-3.0-or-later
// The closed-set check of a composition of schemaVersion 3 kits: provides, requires, integrates
// and conflicts with version ranges, and the order the kits compose in.
#include "kit/KitResolution.h"

#include "kit/KitV3Decoder.h"

#include <QMap>
#include <QRegularExpression>
#include <QSet>

namespace paddock::kit {

namespace {

const QString kDefaultNamespace = QStringLiteral("com.docker.kit/");

bool isNumber(const QString &segment)
{
    for (const QChar c : segment)
        if (!c.isDigit())
            return false;
    return !segment.isEmpty();
}

int compareSegments(const QString &a, const QString &b)
{
    if (isNumber(a) && isNumber(b)) {
        // Any length: without leading zeros, a longer number is larger.
        QString x = a, y = b;
        while (x.size() > 1 && x.startsWith(QLatin1Char('0')))
            x.remove(0, 1);
        while (y.size() > 1 && y.startsWith(QLatin1Char('0')))
            y.remove(0, 1);
        if (x.size() != y.size())
            return x.size() < y.size() ? -1 : 1;
        return x.compare(y);
    }
    return a.compare(b);
}

bool holds(const QString &version, const V3Bound &bound)
{
    const int order = compareV3Versions(version, bound.version);
    if (bound.op == QLatin1String(">="))
        return order >= 0;
    if (bound.op == QLatin1String(">"))
        return order > 0;
    if (bound.op == QLatin1String("<="))
        return order <= 0;
    if (bound.op == QLatin1String("<"))
        return order < 0;
    return order == 0;
}

/** Whether some version holds every bound: the highest lower bound below the lowest upper one. */
bool satisfiable(const QList<V3Bound> &bounds)
{
    const V3Bound *lower = nullptr;
    const V3Bound *upper = nullptr;
    for (const V3Bound &b : bounds) {
        if (b.op == QLatin1String("=")) {
            for (const V3Bound &other : bounds)
                if (!holds(b.version, other))
                    return false;
            return true;
        }
        const bool isLower = b.op.startsWith(QLatin1Char('>'));
        const V3Bound *&slot = isLower ? lower : upper;
        const int order = slot ? compareV3Versions(b.version, slot->version) : 0;
        if (!slot || (isLower ? order > 0 : order < 0) || (order == 0 && b.op.size() == 1))
            slot = &b;
    }
    if (!lower || !upper)
        return true;
    const int order = compareV3Versions(lower->version, upper->version);
    return order < 0 || (order == 0 && lower->op.size() == 2 && upper->op.size() == 2);
}

/** @brief One kit's declarations, parsed. */
struct Declarations
{
    QList<V3Provide> provides;
    QList<V3Constraint> requirements;
    QList<V3Constraint> integrates;
    QStringList conflicts; ///< normalised names
};

Result<Declarations> declarationsOf(const Kit &kit)
{
    Declarations d;
    const auto problem = [&kit](const QString &field, const Error &error) {
        return fail(QStringLiteral("kit %1: `%2` %3").arg(kit.name, field, error.message));
    };
    for (const QString &entry : kit.provides) {
        Result<V3Provide> provide = parseV3Provide(entry);
        if (!provide)
            return problem(QStringLiteral("provides"), provide.error());
        d.provides << *provide;
    }
    for (const auto &[field, from, to] : {std::tuple{QStringLiteral("requires"), &kit.requirements, &d.requirements},
                                          std::tuple{QStringLiteral("integrates"), &kit.integrates, &d.integrates}}) {
        for (const QString &entry : *from) {
            Result<V3Constraint> constraint = parseV3Constraint(entry);
            if (!constraint)
                return problem(field, constraint.error());
            *to << *constraint;
        }
    }
    for (const QString &name : kit.conflicts)
        d.conflicts << normalisedKitCapability(name.trimmed());
    return d;
}

/** Who provides each name; two providers of one name fail. */
Result<QMap<QString, int>> providersOf(const QList<Kit> &kits, const QList<Declarations> &declared)
{
    QMap<QString, int> providers;
    for (qsizetype k = 0; k < kits.size(); ++k) {
        for (const V3Provide &p : declared.at(k).provides) {
            if (providers.contains(p.name) && providers.value(p.name) != k)
                return fail(QStringLiteral("kits %1 and %2 both provide %3: one name has one provider")
                                .arg(kits.at(providers.value(p.name)).name, kits.at(k).name, p.name),
                            QStringLiteral("leave one of them out"));
            providers.insert(p.name, int(k));
        }
    }
    return providers;
}

const V3Provide *provideOf(const Declarations &d, const QString &name)
{
    for (const V3Provide &p : d.provides)
        if (p.name == name)
            return &p;
    return nullptr;
}

/** Checks every kit's requires, integrates and conflicts; the edges provider → user on success. */
Result<QList<QPair<int, int>>> checkConstraints(const QList<Kit> &kits, const QList<Declarations> &declared,
                                                const QMap<QString, int> &providers)
{
    QList<QPair<int, int>> edges;
    for (qsizetype k = 0; k < kits.size(); ++k) {
        const Declarations &d = declared.at(k);
        for (const V3Constraint &c : d.requirements) {
            const int p = providers.value(c.name, -1);
            if (p < 0)
                return fail(QStringLiteral("kit %1 requires '%2', and no kit of the composition provides %3")
                                .arg(kits.at(k).name, c.text, c.name),
                            QStringLiteral("add a kit that provides it"));
            if (!satisfies(*provideOf(declared.at(p), c.name), c))
                return fail(
                    QStringLiteral("kit %1 requires '%2', and kit %3 provides '%4'")
                        .arg(kits.at(k).name, c.text, kits.at(p).name, provideOf(declared.at(p), c.name)->text));
            edges << qMakePair(p, int(k));
        }
        for (const V3Constraint &c : d.integrates) {
            const int p = providers.value(c.name, -1);
            if (p >= 0 && !satisfies(*provideOf(declared.at(p), c.name), c))
                return fail(
                    QStringLiteral("kit %1 integrates '%2', and kit %3 provides '%4', outside that range")
                        .arg(kits.at(k).name, c.text, kits.at(p).name, provideOf(declared.at(p), c.name)->text));
            if (p >= 0)
                edges << qMakePair(p, int(k));
        }
        for (const QString &name : d.conflicts)
            if (const int p = providers.value(name, -1); p >= 0)
                return fail(QStringLiteral("kit %1 conflicts with %2, which kit %3 provides")
                                .arg(kits.at(k).name, name, kits.at(p).name));
    }
    return edges;
}

/** The workload, then the mixins with providers before users; ties keep the given order. */
Result<QList<int>> compositionOrder(const QList<Kit> &kits, int workload, const QList<QPair<int, int>> &edges)
{
    QList<int> order{workload};
    QSet<int> placed{workload};
    while (order.size() < kits.size()) {
        int next = -1;
        for (int k = 0; k < kits.size() && next < 0; ++k) {
            bool ready = !placed.contains(k);
            for (const auto &[from, to] : edges)
                ready = ready && !(to == k && from != k && !placed.contains(from));
            if (ready)
                next = k;
        }
        if (next < 0) {
            QStringList waiting;
            for (int k = 0; k < kits.size(); ++k)
                if (!placed.contains(k))
                    waiting << kits.at(k).name;
            return fail(QStringLiteral("kits %1 require one another in a circle: no order composes them")
                            .arg(waiting.join(QStringLiteral(", "))));
        }
        order << next;
        placed.insert(next);
    }
    return order;
}

} // namespace

QString normalisedKitCapability(const QString &name)
{
    return name.contains(QLatin1Char('/')) ? name : kDefaultNamespace + name;
}

int compareV3Versions(const QString &a, const QString &b)
{
    const QStringList x = a.split(QLatin1Char('.'));
    const QStringList y = b.split(QLatin1Char('.'));
    for (qsizetype i = 0; i < std::min(x.size(), y.size()); ++i)
        if (const int order = compareSegments(x.at(i), y.at(i)); order != 0)
            return order < 0 ? -1 : 1;
    // A version that is a prefix of another comes first: 1 < 1.0.
    return x.size() == y.size() ? 0 : (x.size() < y.size() ? -1 : 1);
}

Result<V3Provide> parseV3Provide(const QString &entry)
{
    const QString text = entry.trimmed();
    const qsizetype at = text.indexOf(QLatin1Char('@'));
    V3Provide provide{text.left(at < 0 ? text.size() : at), at < 0 ? QString() : text.mid(at + 1), text};
    if (!detail::isV3CapabilityName(provide.name) || (at >= 0 && !detail::isV3Version(provide.version)))
        return fail(QStringLiteral("'%1' is not NAME or NAME@VERSION").arg(text.left(80)));
    provide.name = normalisedKitCapability(provide.name);
    return provide;
}

Result<V3Constraint> parseV3Constraint(const QString &entry)
{
    static const QRegularExpression split(QStringLiteral("^([^\\s<>=,]+)\\s*(.*)$"));
    static const QRegularExpression bound(QStringLiteral("^\\s*(>=|<=|>|<|=)\\s*(\\S+)\\s*$"));
    const QString text = entry.trimmed();
    const QRegularExpressionMatch match = split.match(text);
    if (!match.hasMatch() || !detail::isV3CapabilityName(match.captured(1)))
        return fail(QStringLiteral("'%1' is not NAME or NAME OP VERSION[, OP VERSION]").arg(text.left(80)));
    V3Constraint constraint{normalisedKitCapability(match.captured(1)), {}, text};
    const QString rest = match.captured(2);
    for (const QString &part : rest.isEmpty() ? QStringList() : rest.split(QLatin1Char(','))) {
        const QRegularExpressionMatch b = bound.match(part);
        if (!b.hasMatch() || !detail::isV3Version(b.captured(2)))
            return fail(QStringLiteral("'%1': '%2' is not OP VERSION (OP: >= > <= < =)")
                            .arg(text.left(80), part.trimmed().left(40)));
        constraint.bounds << V3Bound{b.captured(1), b.captured(2)};
    }
    if (!satisfiable(constraint.bounds))
        return fail(QStringLiteral("'%1' can never be met: no version holds all its bounds").arg(text.left(80)));
    return constraint;
}

bool satisfies(const V3Provide &provide, const V3Constraint &constraint)
{
    if (provide.name != constraint.name)
        return false;
    if (provide.version.isEmpty())
        return constraint.bounds.isEmpty();
    for (const V3Bound &b : constraint.bounds)
        if (!holds(provide.version, b))
            return false;
    return true;
}

Result<QList<int>> resolveComposition(const QList<Kit> &kits)
{
    QList<int> workloads;
    for (qsizetype k = 0; k < kits.size(); ++k)
        if (kits.at(k).isSandbox())
            workloads << int(k);
    if (workloads.size() != 1) {
        QStringList names;
        for (const int k : workloads)
            names << kits.at(k).name;
        return workloads.isEmpty()
                   ? fail(QStringLiteral("the composition has no workload: one kit must be a workload, the others "
                                         "mixins"))
                   : fail(QStringLiteral("the composition has %1 workloads (%2): exactly one is run, the others "
                                         "must be mixins")
                              .arg(workloads.size())
                              .arg(names.join(QStringLiteral(", "))));
    }
    QList<Declarations> declared;
    for (const Kit &kit : kits) {
        Result<Declarations> d = declarationsOf(kit);
        if (!d)
            return d.error();
        declared << *d;
    }
    const Result<QMap<QString, int>> providers = providersOf(kits, declared);
    if (!providers)
        return providers.error();
    const Result<QList<QPair<int, int>>> edges = checkConstraints(kits, declared, *providers);
    if (!edges)
        return edges.error();
    return compositionOrder(kits, workloads.constFirst(), *edges);
}

} // namespace paddock::kit
