#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Fails when a C++ file of Paddock's own (core/, app/, tests/) is not as .clang-format lays it
# out, naming each file and the command that formats it. Test fixtures (data) are left out.
set -eu
cd "$(dirname "$0")/../.."

formatter=${CLANG_FORMAT:-clang-format}
if ! command -v "$formatter" >/dev/null 2>&1; then
    echo "check-format: $formatter is missing (apt-get install clang-format)" >&2
    exit 1
fi

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    files=$(git ls-files --cached --others --exclude-standard -- 'core/*' 'app/*' 'tests/*' \
        | grep -E '\.(cpp|h)$' | grep -v '^tests/fixtures/' || true)
else
    files=$(find core app tests -path tests/fixtures -prune -o -type f \( -name '*.cpp' -o -name '*.h' \) -print)
fi

# One clang-format for every file (a process per file takes minutes): each misformatted line
# is reported as FILE:LINE:COLUMN: ..., of which the file names are kept.
status=0
report=$(echo "$files" | xargs -r "$formatter" --dry-run -Werror 2>&1) || status=$?
unformatted=$(echo "$report" | sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: \(error\|warning\): .*/\1/p' \
    | sort -u | tr '\n' ' ')
if [ "$status" -ne 0 ] && [ -z "$unformatted" ]; then
    echo "check-format: $formatter failed:" >&2
    echo "$report" >&2
    exit 1
fi
unformatted=${unformatted% }
if [ -n "$unformatted" ]; then unformatted=" $unformatted"; fi

if [ -n "$unformatted" ]; then
    count=$(echo $unformatted | wc -w)
    echo "check-format: $count file(s) are not formatted as .clang-format says:"
    for file in $unformatted; do
        echo "  $file"
    done
    echo "Format them with: $formatter -i$unformatted"
    exit 1
fi
echo "check-format: every C++ file is formatted ($(echo $files | wc -w) files)."
