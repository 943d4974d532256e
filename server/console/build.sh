#!/usr/bin/env bash
# Builds the web console into $1 (Maven passes target/classes/console, so the assets land in the
# server jar). Installs the pinned npm packages first when node_modules is missing or older than
# package-lock.json. Needs Node.js 20+ and npm (the npm registry, on first build). The build first
# generates src/generated/management-api.ts (git-ignored) from the management API OpenAPI document.
set -euo pipefail
out="${1:?usage: build.sh OUTPUT_DIR}"
cd "$(dirname "${BASH_SOURCE[0]}")"
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
npm run --silent build -- "$out"
