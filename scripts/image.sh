#!/usr/bin/env bash
# Builds Sluice's container image, localhost/sluice:<version>, from the release artifact
# (server/target/sluice-<version>.tar.gz, which `mvn package` builds) and Debian's packages alone:
# no image registry is needed. The base (a Debian bookworm root file system with a Java 17
# runtime, made by mmdebstrap) is imported once as localhost/sluice-base:<hash of its recipe> and
# reused while the recipe is unchanged. Needs root, podman and mmdebstrap
# (scripts/test-all.sh installs them). Prints the image's name last. The build runs the server once
# (`sluice archive-classes`, the image's class-data archive); OCI_RUNTIME names the OCI
# runtime podman runs it with, when not podman's default (runc where crun refuses the cgroups).
#   scripts/image.sh [ARTIFACT.tar.gz]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# The project's version, from the root POM (its first <version> is the project's own).
pom_version="$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' "$root/pom.xml" | head -1)"
artifact="${1:-$root/server/target/sluice-$pom_version.tar.gz}"
if [ ! -f "$artifact" ]; then
  echo "image.sh: no release artifact; run mvn -pl server -am package first" >&2
  exit 1
fi
name=$(basename "$artifact" .tar.gz)
version=${name#sluice-}
suite=bookworm
packages=openjdk-17-jre-headless,ca-certificates,curl
# The sluice user and its data directory; the JRE's post-install needs its man page folder.
hook='chroot "$1" useradd --system --uid 10001 --user-group --home-dir /var/lib/sluice --shell /usr/sbin/nologin sluice && install -d -o 10001 -g 10001 -m 0750 "$1/var/lib/sluice"'
recipe=$(printf '%s\n' "$suite" "$packages" "$hook" | sha256sum | cut -c1-12)
base=localhost/sluice-base:$recipe
if ! podman image exists "$base"; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  echo "image.sh: assembling $base from Debian $suite ($packages)" >&2
  mmdebstrap --quiet --variant=apt --include="$packages" \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --customize-hook="$hook" \
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*' \
    "$suite" "$work/rootfs.tar" http://deb.debian.org/debian
  podman import --quiet "$work/rootfs.tar" "$base" >/dev/null
fi
context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
tar -xzf "$artifact" -C "$context"
image=localhost/sluice:$version
# Docker's format: the OCI format has no HEALTHCHECK.
podman ${OCI_RUNTIME:+--runtime "$OCI_RUNTIME"} build --quiet --format docker \
  --build-arg BASE="$base" --build-arg VERSION="$version" \
  -f "$root/server/src/container/Containerfile" -t "$image" "$context" >/dev/null
echo "$image"
