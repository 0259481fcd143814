// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DaemonBound.h"

#include <QJsonObject>
#include <QString>
#include <QUrl>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief The image a Docker sandbox of a kit needs, made ready before the sandbox is created:
 * asked for with `image.inspect`, built from the kit with `image.build` or loaded from a saved
 * archive with `image.load` (what `paddock template build|load` do), with the progress of the
 * daemon's job read from its `image` events.
 *
 * @c state is "idle" (nothing asked yet), "checking", "present", "missing", "working" (a build
 * or load runs: @c percent and @c message follow it) or "failed" (@c error says why). The kit is
 * read in-process for its `sandbox.image` and whether it can be built (a `sandbox.build`, or a
 * Dockerfile beside spec.yaml).
 */
class ImagePreparation : public paddock::gui::DaemonBound
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QString kitDirectory READ kitDirectory WRITE setKitDirectory NOTIFY kitChanged)
    Q_PROPERTY(QString image READ image NOTIFY kitChanged)
    Q_PROPERTY(bool canBuild READ canBuild NOTIFY kitChanged)
    Q_PROPERTY(QString state READ state NOTIFY stateChanged)
    Q_PROPERTY(bool ready READ ready NOTIFY stateChanged)
    Q_PROPERTY(int percent READ percent NOTIFY stateChanged)
    Q_PROPERTY(QString message READ message NOTIFY stateChanged)

public:
    explicit ImagePreparation(QObject *parent = nullptr);

    QString kitDirectory() const { return m_kitDirectory; }
    void setKitDirectory(const QString &directory);
    QString image() const { return m_image; }
    bool canBuild() const { return m_canBuild; }
    QString state() const { return m_state; }
    bool ready() const { return m_state == QLatin1String("present"); }
    int percent() const { return m_percent; }
    QString message() const { return m_message; }

    /** Asks the daemon whether the engine holds @c image. */
    Q_INVOKABLE void check();
    /** Builds the kit's image (`image.build`). */
    Q_INVOKABLE void build();
    /** Loads a `docker save` archive (a path or a file: URL) with `image.load`. */
    Q_INVOKABLE void load(const QUrl &file);

    /** Follows the daemon's job @p job (build() and load() start one): its events move @c state. */
    void followJob(const QString &job);
    /** An `image` event: followed when it belongs to the job under way. */
    void applyEvent(const QJsonObject &event);

Q_SIGNALS:
    void kitChanged();
    void stateChanged();

protected:
    void daemonEvent(const QString &topic, const QJsonObject &data) override;

private:
    void setState(const QString &state, const QString &error = {});
    void follow(const QString &method, const QJsonObject &params);

    QString m_kitDirectory;
    QString m_image;
    bool m_canBuild = false;
    QString m_state = QStringLiteral("idle");
    int m_percent = 0;
    QString m_message;
    QString m_job; ///< the build or load under way
};

} // namespace paddock::gui
