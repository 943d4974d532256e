#!/usr/bin/env bash
# The browser of the console's end-to-end test (ConsoleBrowserTest): Debian's Chromium, driven by
# the npm package playwright-core (e2e/js), which never downloads a browser of its own.
#   scripts/chromium.sh install   # installs Debian's chromium if /usr/bin/chromium is missing
set -euo pipefail
case "${1:-}" in
  install)
    if [ -x /usr/bin/chromium ]; then
      exit 0
    fi
    echo "chromium: installing Debian's chromium" >&2
    sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
    ;;
  *)
    echo "usage: $0 install" >&2
    exit 2
    ;;
esac
