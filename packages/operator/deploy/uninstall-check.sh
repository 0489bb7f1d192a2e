#!/bin/sh
# Pre-uninstall safety check (docs/reference/operator.md O3.13): refuse while CloneSets, Advanced
# StatefulSets or Advanced DaemonSets still exist anywhere. Any API error also refuses.
set -eu
check() {
  out=$(kubectl get "$1" --all-namespaces --chunk-size=1 -o name 2>&1) || { echo "refusing: cannot list $1: $out" >&2; exit 1; }
  if [ -n "$out" ]; then echo "there still exists some $2 in the cluster" >&2; exit 1; fi
}
check clonesets.apps.kruise.io clonesets
check statefulsets.v1alpha1.apps.kruise.io "advanced statefulsets"
check statefulsets.v1beta1.apps.kruise.io "advanced statefulsets"
check daemonsets.apps.kruise.io "advanced daemonsets"
echo "cluster is clean, ready to delete kruise"
