#!/usr/bin/env bash
# Installs what the daemon's real-runtime integration suite needs on a fresh Debian machine, as root
# containerd 1.6 + runc (the CRI runtime), busybox-static
# (the test images are built from it, with no network), Debian's docker-registry (loopback registries)
# and skopeo (pushes the images into them). The packages' services are not started (policy-rc.d on
# these machines; we also stop any that did start): the tests start private instances and stop them
# by PID. Safe to run again; quick when everything is installed.
set -euo pipefail

PKGS=(containerd runc busybox-static docker-registry skopeo)
BINS=(containerd runc ctr busybox docker-registry skopeo)

if [ "$(id -u)" != 0 ]; then
  echo "ci-setup.sh: not root; the daemon's integration tests will be skipped" >&2
  exit 0
fi

missing=()
for b in "${BINS[@]}"; do command -v "$b" >/dev/null 2>&1 || missing+=("$b"); done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "ci-setup.sh: installing ${PKGS[*]} (missing: ${missing[*]})"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${PKGS[@]}" >/dev/null
fi

# Distribution services must not hold the default socket or port 5000 (the tests use their own).
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
  systemctl stop containerd docker-registry >/dev/null 2>&1 || true
fi

for b in "${BINS[@]}"; do
  command -v "$b" >/dev/null 2>&1 || { echo "ci-setup.sh: $b still missing" >&2; exit 1; }
done
echo "ci-setup.sh: $(containerd --version | head -1); $(runc --version | head -1)"
