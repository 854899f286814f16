#!/bin/sh
# Fetch the vendored JavaScript again from the npm registry, pinned, and check the tarballs.
# Usage: sh scripts/vendor_js.sh   (needs npm; run from the repository root)
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fetch() {  # name version sha256
  (cd "$tmp" && npm pack --silent "$1@$2" >/dev/null)
  tgz="$tmp/$(echo "$1" | tr -d @ | tr / -)-$2.tgz"
  echo "$3  $tgz" | sha256sum -c --quiet
  mkdir -p "$tmp/$1" && tar xzf "$tgz" -C "$tmp/$1"
}
fetch htmx.org 2.0.11 165a2655073e9e6e55e307a7c74e8ebcdb76afb7701f9c16cfd106a13add408e
cp "$tmp/htmx.org/package/dist/htmx.min.js" "$tmp/htmx.org/package/LICENSE" \
  src/macau_tables/web/static/vendor/htmx/
fetch axe-core 4.14.1 e6b0ce02b84d892e2e33e403485e7f3d6c29e2be6df65daf44d89ba564139745
cp "$tmp/axe-core/package/axe.min.js" "$tmp/axe-core/package/LICENSE" \
  "$tmp/axe-core/package/LICENSE-3RD-PARTY.txt" tests/web/vendor/axe-core/
echo "vendored: htmx.org 2.0.11, axe-core 4.14.1"
