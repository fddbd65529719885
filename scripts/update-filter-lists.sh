#!/usr/bin/env bash
# Replaces browser/filter-lists/easylist.txt and easyprivacy.txt with the copies in Debian's current
# webext-ublock-origin-chromium package (browser/filter-lists/README.md). Needs apt-get and dpkg-deb.
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download webext-ublock-origin-chromium >/dev/null)
deb="$(ls "$work"/*.deb)"
dpkg-deb -x "$deb" "$work/x"
src="$work/x/usr/share/chromium/extensions/ublock-origin/assets/thirdparties/easylist"
cp "$src/easylist.txt" "$src/easyprivacy.txt" browser/filter-lists/
echo "filter lists from $(basename "$deb"); record this version in browser/filter-lists/README.md"
