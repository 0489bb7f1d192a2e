#!/usr/bin/env bash
# Debian's Chromium for the playground's browser test (packages/playground/test/browser.test.ts).
# playwright-core drives it at /usr/bin/chromium; no browser is ever downloaded. Run as root.
set -euo pipefail
if [ ! -x /usr/bin/chromium ]; then
  apt-get update >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y chromium >/dev/null
fi
/usr/bin/chromium --version
