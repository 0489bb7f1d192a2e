// Command etcd runs etcd's own server entry point, at the version kube-apiserver's module requires,
// so that the control plane needs nothing beyond Go modules.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
