// SPDX-License-Identifier: GPL-3.0-or-later
// A kit image's OCI archive rewritten as a `docker save` one for a container engine: the same
// configuration and layers byte for byte, under the tag asked for, and nothing for another id.
#include "../kit-v3/OciKitArchive.h"

#include "image/EngineArchive.h"
#include "image/ImageArchive.h"

#include <QTemporaryDir>
#include <QTest>

using namespace paddock::test;

class TestEngineArchive : public QObject
{
    Q_OBJECT

private slots:
    void sameConfigurationAndLayersUnderTheTag();
    void anotherIdIsRefusedAndNothingIsLeft();

private:
    QString writeKit(const OciKit &kit, QString *imageId)
    {
        const QString path = m_dir.filePath(QStringLiteral("kit.tar"));
        QFile out(path);
        if (!out.open(QIODevice::WriteOnly))
            return {};
        out.write(ociKitArchive(kit));
        *imageId = sha256(configOf(kit.layers, kit.config));
        return path;
    }

    QTemporaryDir m_dir;
};

void TestEngineArchive::sameConfigurationAndLayersUnderTheTag()
{
    OciKit kit;
    kit.layers = {tarOf({folder("bin"), file("bin/hello", "#!/bin/sh\necho hi\n", 0755)}),
                  compressed(tarOf({folder("etc"), file("etc/os-release", "ID=two\n")}))};
    kit.config = QJsonObject{{QStringLiteral("Entrypoint"), QJsonArray{QStringLiteral("/bin/hello")}}};
    kit.manifestAnnotations = kitAnnotations(R"({"schemaVersion":"3","kind":"workload"})");
    QString id;
    const QString source = writeKit(kit, &id);
    const QString target = m_dir.filePath(QStringLiteral("engine.tar"));
    QString error;
    QVERIFY2(paddock::image::writeEngineArchive(source, id, QStringLiteral("paddock/kit-x:abc"), target, &error),
             qPrintable(error));

    paddock::image::ImageArchive written;
    QVERIFY2(written.open(target, {}, &error), qPrintable(error));
    QVERIFY(written.locate("index.json", &error) == std::nullopt); // a `docker save` archive only
    const auto images = written.images(&error);
    QVERIFY2(images && images->size() == 1, qPrintable(error));
    const paddock::image::ArchivedImage &image = images->first();
    QCOMPARE(image.tags, QStringList{QStringLiteral("paddock/kit-x:abc")});
    QCOMPARE(sha256(image.configBytes), id);
    QCOMPARE(image.layerMembers.size(), kit.layers.size());
    for (qsizetype i = 0; i < kit.layers.size(); ++i) {
        const auto where = written.locate(image.layerMembers.at(i), &error);
        QVERIFY2(where, qPrintable(error));
        QFile file(target);
        QVERIFY(file.open(QIODevice::ReadOnly) && file.seek(where->first));
        QCOMPARE(file.read(where->second), kit.layers.at(i)); // as published, compressed or not
    }
}

void TestEngineArchive::anotherIdIsRefusedAndNothingIsLeft()
{
    OciKit kit;
    kit.layers = {tarOf({folder("srv")})};
    QString id;
    const QString source = writeKit(kit, &id);
    const QString target = m_dir.filePath(QStringLiteral("other.tar"));
    QString error;
    QVERIFY(!paddock::image::writeEngineArchive(source, QString(64, QLatin1Char('a')), QStringLiteral("t:1"), target,
                                                &error));
    QVERIFY2(error.contains(QLatin1String("holds no image aaaaaaaaaaaa")), qPrintable(error));
    QVERIFY(!QFileInfo::exists(target));
}

QTEST_GUILESS_MAIN(TestEngineArchive)
#include "tst_engine_archive.moc"
