#!/usr/bin/env bash
# Installs a Debian package when the program the tests need from it is missing.
#   scripts/debian-package.sh PROGRAM PACKAGE   e.g. scripts/debian-package.sh systemd-analyze systemd
set -euo pipefail
program="${1:?usage: $0 PROGRAM PACKAGE}"
package="${2:?usage: $0 PROGRAM PACKAGE}"
if command -v "$program" >/dev/null 2>&1; then
  exit 0
fi
echo "debian-package: installing $package (for $program)" >&2
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$package" >/dev/null
