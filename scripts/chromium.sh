#!/usr/bin/env bash
# The browser of the console's end-to-end test (ConsoleBrowserTest): Debian's Chromium, driven by
# the npm package playwright-core (e2e/js), which never downloads a browser of its own.
#   scripts/chromium.sh install   # installs Debian's chromium if /usr/bin/chromium is missing
set -euo pipefail
case "${1:-}" in
  install)
    "$(dirname "${BASH_SOURCE[0]}")/debian-package.sh" chromium chromium
    ;;
  *)
    echo "usage: $0 install" >&2
    exit 2
    ;;
esac
