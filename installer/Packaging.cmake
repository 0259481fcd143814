# SPDX-License-Identifier: GPL-3.0-or-later
# The Debian package, made by CPack from the install() rules:
#   cmake --build build && (cd build && cpack -G DEB)      ->  build/paddock_<version>-1_<arch>.deb
# or `cmake --build build --target package`.
#
# Shared-library dependencies are computed by dpkg-shlibdeps from the binaries. What it
# cannot see is listed here: programs Paddock runs, and the plugins and QML modules Qt
# loads at run time.

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME paddock)
set(CPACK_PACKAGE_VENDOR "Paddock")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "sandbox manager for coding agents")
set(CPACK_PACKAGE_DESCRIPTION
  "Paddock runs coding agents (Pi, Claude Code, Codex, aider...) in sandboxes whose only
way out is a proxy on the host. The proxy lets through only allowlisted domains, adds
provider API keys from the system keyring to requests so the keys never enter the
sandbox, and reports every refused connection live. Sandboxes use bubblewrap, or Docker
when a kit asks for it. Kits are the spec.yaml directories of Docker Sandboxes.

This package contains the desktop application and command-line interface (paddock), the
per-user daemon (paddockd, also as a systemd user service) and sample kits.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)

set(PADDOCK_PACKAGE_MAINTAINER "Paddock developers <maintainers@paddock.dev>"
  CACHE STRING "Maintainer field of the Debian package")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${PADDOCK_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)

set(paddock_runtime_depends
  # The default sandbox, and the writable root it gets over the host's system (an image's
  # layers need only the kernel's overlayfs).
  bubblewrap
  fuse-overlayfs
  # The system's root certificates: the proxy verifies upstream servers against them, and
  # sandboxes get them with the local CA added.
  ca-certificates
  # The SQLite driver of the denial log, a Qt plugin.
  libqt6sql6-sqlite
  # Registrable domains: a wildcard Allow or a learned proposal never spans more than one.
  publicsuffix)
if(PADDOCK_BUILD_GUI)
  # Every QML module the window imports, directly or through Qt's own modules (the
  # non-native folder dialog is written with Qt.labs.folderlistmodel).
  list(APPEND paddock_runtime_depends
    qml6-module-qtqml-workerscript
    qml6-module-qtquick
    qml6-module-qtquick-window
    qml6-module-qtquick-templates
    qml6-module-qtquick-controls
    qml6-module-qtquick-layouts
    qml6-module-qtquick-dialogs
    qml6-module-qt-labs-folderlistmodel)
endif()
list(JOIN paddock_runtime_depends ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
# A keyring to keep provider keys in (QtKeychain talks to the Secret Service), and the
# engine for kits run as Docker containers, and git for clone workspaces.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gnome-keyring, docker.io, git")

# The maintainer scripts: Paddock's own path to bubblewrap and its AppArmor profile (debian/).
# The profile in /etc is a conffile. The MIME type, the desktop entry and the icons need no
# script: the shared-mime-info, desktop-file-utils and hicolor-icon-theme packages have dpkg
# triggers on their folders that rebuild the caches.
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
  ${CMAKE_CURRENT_LIST_DIR}/debian/postinst
  ${CMAKE_CURRENT_LIST_DIR}/debian/postrm
  ${CMAKE_CURRENT_LIST_DIR}/debian/triggers
  ${CMAKE_CURRENT_LIST_DIR}/debian/conffiles)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

# `package_source` packs the sources only: no repository data, no build directories.
set(CPACK_SOURCE_GENERATOR TXZ)
set(CPACK_SOURCE_IGNORE_FILES "/\\.git/" "/build[^/]*/" "/\\.cache/")

include(CPack)
