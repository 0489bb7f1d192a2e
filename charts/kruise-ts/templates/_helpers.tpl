{{/*
Shared helpers. The chart's objects come from the kustomize manifests linked under files/
(packages/operator/deploy and packages/daemon/deploy): a template loads a manifest, sets the fields
its values own and prints the result, so the default values render those manifests unchanged.
*/}}

{{/*
The documents of one manifest of files/, as a JSON list of objects (comment-only documents
dropped). Call: include "kruise-ts.load" (dict "Files" $.Files "path" "files/operator/manager.yaml") | fromJsonArray
*/}}
{{- define "kruise-ts.load" -}}
{{- $docs := list -}}
{{- range $doc := regexSplit "(?m)^---[ \\t]*$" (.Files.Get .path) -1 -}}
{{- $o := fromYaml $doc -}}
{{- if hasKey $o "Error" -}}
{{- fail (printf "%s: %s" $.path $o.Error) -}}
{{- end -}}
{{- if $o -}}
{{- $docs = append $docs $o -}}
{{- end -}}
{{- end -}}
{{- if not $docs -}}
{{- fail (printf "%s is missing or empty (is the files/ symbolic link intact?)" .path) -}}
{{- end -}}
{{- toJson $docs -}}
{{- end -}}

{{/* An image reference: repository:tag, the tag defaulting to the chart's appVersion. */}}
{{- define "kruise-ts.image" -}}
{{- printf "%s:%s" .image.repository (default .appVersion (toString .image.tag)) -}}
{{- end -}}

{{/*
The node daemon's runtime socket: the host path mounted, its type, where it appears under
--var-run-dir (/hostvarrun) and the --socket-file relative to it. daemon.socketHostPath, when
set, mounts that socket's directory instead of the runtime's usual one.
*/}}
{{- define "kruise-ts.daemonSocket" -}}
{{- $runtimes := dict
  "containerd" (dict "hostPath" "/run/containerd" "type" "Directory" "mountPath" "/hostvarrun/containerd" "socketFile" "containerd/containerd.sock")
  "crio" (dict "hostPath" "/run/crio" "type" "Directory" "mountPath" "/hostvarrun/crio" "socketFile" "crio/crio.sock")
  "cri-dockerd" (dict "hostPath" "/run/cri-dockerd.sock" "type" "Socket" "mountPath" "/hostvarrun/cri-dockerd.sock" "socketFile" "cri-dockerd.sock")
-}}
{{- if .socketHostPath -}}
{{- if not (isAbs .socketHostPath) -}}
{{- fail (printf "daemon.socketHostPath must be an absolute path, got %q" .socketHostPath) -}}
{{- end -}}
{{- toJson (dict "hostPath" (dir .socketHostPath) "type" "Directory" "mountPath" "/hostvarrun/custom" "socketFile" (printf "custom/%s" (base .socketHostPath))) -}}
{{- else if hasKey $runtimes .runtime -}}
{{- toJson (get $runtimes .runtime) -}}
{{- else -}}
{{- fail (printf "daemon.runtime must be containerd, crio or cri-dockerd, got %q" .runtime) -}}
{{- end -}}
{{- end -}}

{{/* The labels of the chart-only objects (the pre-delete hook). */}}
{{- define "kruise-ts.hookLabels" -}}
app.kubernetes.io/name: kruise-ts
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}
