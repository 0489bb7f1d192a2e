// Types of ./controlPlane.mjs for the TypeScript tests that import it.

/** The repository's root folder. */
export declare const repoRoot: string;
/** Where the built binaries go. */
export declare function defaultBinDir(): string;
/** The Kubernetes release the control plane module pins. */
export declare function kubernetesVersion(): string;
/** Builds kube-apiserver and etcd into `binDir` (seconds when Go's caches are warm). */
export declare function buildControlPlane(options?: { binDir?: string; log?: (message: string) => void }): {
  apiserver: string;
  etcd: string;
};
/** Why the control plane cannot be built or run here, or undefined. */
export declare function missingControlPlaneTools(): string | undefined;
/** The kubeconfig text for `url` with `token`, trusting `caPem`. */
export declare function kubeconfigText(url: string, token: string, caPem: string, name?: string): string;

/** A running control plane. */
export interface ControlPlane {
  url: string;
  token: string;
  caCert: string;
  kubeconfigPath: string;
  dir: string;
  pids: number[];
  /** The server's gitVersion, e.g. v1.34.4. */
  version: string;
  stop(): Promise<void>;
  /** Kills kube-apiserver (as a crash), waits `downMs`, starts it again and waits until ready. */
  restartApiServer(downMs?: number): Promise<void>;
  /** Compacts etcd's history to its head; resolves with the revision. */
  compactEtcd(): Promise<number>;
}

/** Starts etcd and kube-apiserver in `dir`. */
export declare function startControlPlane(options: {
  dir: string;
  binDir?: string;
  detached?: boolean;
  log?: (message: string) => void;
}): Promise<ControlPlane>;
/** The kubectl whose minor version is nearest the server's. */
export declare function kubectlPath(): string;
/** Installs deploy/crds with the real kubectl and waits until they are Established. */
export declare function installCrds(kubeconfigPath: string, cacheDir: string): void;
