//go:build tools

// Package tools pins helm's command as a dependency of this module so that
// `go build helm.sh/helm/v3/cmd/helm` resolves it from go.mod and go.sum.
package tools

import _ "helm.sh/helm/v3/cmd/helm"
