#!/usr/bin/env bash
# Builds the real helm CLI from its Go module (scripts/helm/go.mod pins helm.sh/helm/v3) into a cache
# folder, so the chart tests (test/helm) and CI lint and render charts/kruise-ts with the helm a user
# runs. It rebuilds only when the binary is missing or stale: the stamp beside it records go.mod,
# go.sum, this script and the Go toolchain it was built from. An up-to-date binary returns at once;
# with Go's module and build caches warm (~/go/pkg/mod, ~/.cache/go-build) a rebuild is mostly a
# link, under a minute; a cold build on two cores takes 10 to 15 minutes.
#
# Output: ${KRUISE_TS_BIN_DIR:-${XDG_CACHE_HOME:-~/.cache}/kruise-ts/bin}/helm, beside Go's own caches so
# that it outlives a clone and its node_modules; prints its path.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
bin_dir="${KRUISE_TS_BIN_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kruise-ts/bin}"
helm="$bin_dir/helm"
stamp="$bin_dir/helm.stamp"

if ! command -v go >/dev/null 2>&1; then
  echo "scripts/helm/build.sh: the Go toolchain (go) is needed to build helm" >&2
  exit 1
fi

# What the binary depends on: the pinned module graph and the compiler.
want="$(cat "$here/go.mod" "$here/go.sum" "$here/build.sh" | sha256sum | cut -d' ' -f1) $(go env GOVERSION)"

if [ -x "$helm" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "$helm"
  exit 0
fi

mkdir -p "$bin_dir"
echo "scripts/helm/build.sh: building helm from $(grep -E '^require helm' "$here/go.mod" | cut -d' ' -f2-)" >&2
# -mod=readonly: go.sum must already hold every checksum (no silent module graph changes in CI).
# CGO off: a static binary with no C toolchain needed. -trimpath keeps build paths out of the binary.
(
  cd "$here"
  # What helm's own Makefile stamps in: its version, and the Kubernetes version `helm template` and
  # `helm lint` assume (client-go v0.X.Y is Kubernetes 1.X); unstamped, helm assumes 1.20.
  version="$(go list -m -f '{{.Version}}' helm.sh/helm/v3)"
  kube_minor="$(go list -m -f '{{.Version}}' k8s.io/client-go | cut -d. -f2)"
  k8s="-X helm.sh/helm/v3/pkg/chartutil.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMinor=$kube_minor"
  k8s="$k8s -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMinor=$kube_minor"
  CGO_ENABLED=0 go build -mod=readonly -trimpath \
    -ldflags="-s -w -X helm.sh/helm/v3/internal/version.version=$version $k8s" \
    -o "$helm.tmp.$$" helm.sh/helm/v3/cmd/helm
)
mv -f "$helm.tmp.$$" "$helm"
printf '%s\n' "$want" >"$stamp"
echo "$helm"
