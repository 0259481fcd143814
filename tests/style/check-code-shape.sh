#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Fails when a file in core/ or app/ passes 800 lines, a class's header and source of the
# same name pass it together, or a function there passes 80 lines, naming each. Files listed in tests/style/shape-exceptions.txt (generated files and data
# tables, each with its reason, also named in docs/design.md) are left out.
set -eu
cd "$(dirname "$0")/../.."

max_file=800
max_function=80
exceptions=tests/style/shape-exceptions.txt

if ! ctags --version 2>/dev/null | grep -q 'Universal Ctags'; then
    echo "check-code-shape: Universal Ctags is missing (apt-get install universal-ctags)" >&2
    exit 1
fi

excepted() {
    [ -f "$exceptions" ] && grep -v '^#' "$exceptions" | awk '{print $1}' | grep -qxF "$1"
}

failed=0
files=$(find core app -type f \( -name '*.cpp' -o -name '*.h' \) | sort)
for file in $files; do
    excepted "$file" && continue
    lines=$(wc -l <"$file")
    if [ "$lines" -gt "$max_file" ]; then
        echo "  $file: $lines lines (at most $max_file)"
        failed=1
    fi
done

# A header and its source of the same name are one class: together they stay under the limit.
for header in $files; do
    case "$header" in *.h) ;; *) continue ;; esac
    source=${header%.h}.cpp
    [ -f "$source" ] || continue
    excepted "$header" && continue
    lines=$(cat "$header" "$source" | wc -l)
    if [ "$lines" -gt "$max_file" ]; then
        echo "  $header + ${source##*/}: $lines lines together (at most $max_file)"
        failed=1
    fi
done

# Functions with their first and last lines, as Universal Ctags parses them.
long=$(ctags --languages=C++ --kinds-C++=f --fields=+ne -x --_xformat='%{end} %n %N %F' $files 2>/dev/null \
    | awk -v max="$max_function" '$1 ~ /^[0-9]+$/ { l = $1 - $2 + 1; if (l > max) print $4, $2, $3, l }')
while read -r file line name lines; do
    [ -n "$file" ] || continue
    excepted "$file" && continue
    echo "  $file:$line $name(): $lines lines (at most $max_function)"
    failed=1
done <<EOF_LONG
$long
EOF_LONG

if [ "$failed" -ne 0 ]; then
    echo "check-code-shape: split the files and functions above (see Code shape in docs/design.md)."
    exit 1
fi
echo "check-code-shape: no file or header and source pair in core/ or app/ passes $max_file lines, no function $max_function."
