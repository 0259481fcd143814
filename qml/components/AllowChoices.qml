// SPDX-License-Identifier: GPL-3.0-or-later
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Paddock

// Where to allow a host (this sandbox, the kit's spec.yaml, every sandbox) and what (the host on
// this port, the host on any port, its siblings, or everything under its parent), each a different
// rule: the choices of the Allow dialog and of the ask prompt's "Allow…". Starts at the narrowest.
ColumnLayout {
    id: section

    property string sandbox
    property string kit
    // {exact, anyport, wildcard, deep}: the patterns of NetworkPolicy.allowChoices().
    property var choices: ({ exact: "", anyport: "", wildcard: "", deep: "" })
    property string where: "sandbox"
    property string what: "exact"
    // Names the radio buttons (prefix + "WhereSandbox", ...) for tests and accessibility tools.
    property string namePrefix: "allow"

    function reset() {
        where = "sandbox"
        what = "exact"
    }
    function focusFirst() {
        whereSandbox.forceActiveFocus()
    }

    spacing: Theme.spacingSmall

    Label {
        text: qsTr("Where")
        font.weight: Font.DemiBold
    }
    ButtonGroup { id: whereGroup }
    RadioButton {
        id: whereSandbox
        objectName: section.namePrefix + "WhereSandbox"
        text: qsTr("This sandbox (%1)").arg(section.sandbox)
        checked: section.where === "sandbox"
        ButtonGroup.group: whereGroup
        onToggled: if (checked) section.where = "sandbox"
    }
    RadioButton {
        objectName: section.namePrefix + "WhereKit"
        text: qsTr("The kit's spec.yaml (%1)").arg(section.kit)
        checked: section.where === "kit"
        enabled: section.kit.length > 0
        ButtonGroup.group: whereGroup
        onToggled: if (checked) section.where = "kit"
    }
    RadioButton {
        objectName: section.namePrefix + "WhereGlobal"
        text: qsTr("Every sandbox")
        checked: section.where === "global"
        ButtonGroup.group: whereGroup
        onToggled: if (checked) section.where = "global"
    }

    Label {
        Layout.topMargin: Theme.spacing
        text: qsTr("What")
        font.weight: Font.DemiBold
    }
    ButtonGroup { id: whatGroup }
    RadioButton {
        objectName: section.namePrefix + "WhatExact"
        text: qsTr("This host on this port: %1").arg(section.choices.exact)
        checked: section.what === "exact"
        ButtonGroup.group: whatGroup
        onToggled: if (checked) section.what = "exact"
    }
    RadioButton {
        objectName: section.namePrefix + "WhatAnyPort"
        text: qsTr("This host on any port: %1").arg(section.choices.anyport)
        visible: section.choices.anyport.length > 0
        checked: section.what === "anyport"
        ButtonGroup.group: whatGroup
        onToggled: if (checked) section.what = "anyport"
    }
    RadioButton {
        objectName: section.namePrefix + "WhatWildcard"
        text: section.choices.wildcard.length > 0
              ? qsTr("Every name one level under the domain: %1").arg(section.choices.wildcard)
              : qsTr("Every name one level under the domain (not possible for this host)")
        enabled: section.choices.wildcard.length > 0
        checked: section.what === "wildcard"
        ButtonGroup.group: whatGroup
        onToggled: if (checked) section.what = "wildcard"
    }
    RadioButton {
        objectName: section.namePrefix + "WhatDeep"
        text: section.choices.deep.length > 0
              ? qsTr("The whole domain, at any depth: %1").arg(section.choices.deep)
              : qsTr("The whole domain, at any depth (not possible for this host)")
        enabled: section.choices.deep.length > 0
        checked: section.what === "deep"
        ButtonGroup.group: whatGroup
        onToggled: if (checked) section.what = "deep"
    }
}
