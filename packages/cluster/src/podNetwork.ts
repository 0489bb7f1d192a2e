// The simulated cluster's addresses, as a kubeadm cluster with a host-local IPAM plugin has them:
// node i (in registration order) gets the pod CIDR `10.244.<i>.0/24` in `spec.podCIDR(s)` and the
// InternalIP `192.168.<i / 250>.<i % 250 + 2>`; each pod on a node gets the lowest free address of
// its node's CIDR from `.2` up (`.1` is the node's bridge), released when the pod is gone. So the
// same scenario and seed give the same IPs, and `kubectl get pods -o wide` / `describe pod` show an
// IP that tells which node the pod is on.
import type { Node } from 'kubernetes-types/core/v1.js';

/** The pod CIDR and InternalIP of the node registered `index`-th (0-based). */
export function nodeAddresses(index: number): { podCIDR: string; internalIP: string } {
  const second = 244 + Math.floor(index / 256);
  return {
    podCIDR: `10.${second}.${index % 256}.0/24`,
    internalIP: `192.168.${Math.floor(index / 250) % 256}.${(index % 250) + 2}`,
  };
}

/** Per-node pod address allocation (the kubelet holds one). */
export class PodNetwork {
  /** node → host numbers in use. */
  private used = new Map<string, Set<number>>();
  /** Pods on nodes without a pod CIDR (created through the API): one cluster-wide counter. */
  private fallback = 0;

  /**
   * An address for a new pod on `node` (whose object may be missing), and the node's InternalIP.
   *
   * Example: the first pod on a node with `podCIDR: 10.244.1.0/24` → `10.244.1.2`.
   */
  allocate(
    node: (Node & { metadata?: { name?: string } }) | undefined,
    nodeName: string,
  ): { podIP: string; hostIP?: string } {
    const hostIP = node?.status?.addresses?.find((a) => a.type === 'InternalIP')?.address;
    const cidr = /^(\d+\.\d+\.\d+)\.0\/24$/.exec(node?.spec?.podCIDR ?? '');
    if (!cidr) {
      const n = this.fallback++;
      return { podIP: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`, hostIP };
    }
    let used = this.used.get(nodeName);
    if (!used) {
      used = new Set();
      this.used.set(nodeName, used);
    }
    let host = 2;
    while (used.has(host) && host < 254) host++;
    used.add(host);
    return { podIP: `${cidr[1]}.${host}`, hostIP };
  }

  /** Gives a pod's address back to its node. */
  release(nodeName: string, podIP: string): void {
    const host = Number(podIP.slice(podIP.lastIndexOf('.') + 1));
    this.used.get(nodeName)?.delete(host);
  }
}
