{{/* Chart name. */}}
{{- define "rollgate.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Full name prefix of every object. */}}
{{- define "rollgate.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "rollgate.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "rollgate.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "rollgate.controller.selector" -}}
app.kubernetes.io/name: {{ include "rollgate.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: controller
{{- end -}}

{{- define "rollgate.webhook.selector" -}}
app.kubernetes.io/name: {{ include "rollgate.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: webhook
{{- end -}}

{{- define "rollgate.controller.serviceAccountName" -}}
{{- if .Values.serviceAccount.controller.create -}}
{{- default (printf "%s-controller" (include "rollgate.fullname" .)) .Values.serviceAccount.controller.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.controller.name -}}
{{- end -}}
{{- end -}}

{{- define "rollgate.webhook.serviceAccountName" -}}
{{- if .Values.serviceAccount.webhook.create -}}
{{- default (printf "%s-webhook" (include "rollgate.fullname" .)) .Values.serviceAccount.webhook.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.webhook.name -}}
{{- end -}}
{{- end -}}

{{/* The webhook's Service name, also its certificate's DNS SANs and the webhook configurations' names. */}}
{{- define "rollgate.webhook.name" -}}
{{- printf "%s-webhook" (include "rollgate.fullname" .) -}}
{{- end -}}

{{- define "rollgate.certs.secretName" -}}
{{- default (printf "%s-webhook-certs" (include "rollgate.fullname" .)) .Values.certs.secretName -}}
{{- end -}}

{{/* The namespace the controller watches in namespaced mode. */}}
{{- define "rollgate.watchNamespace" -}}
{{- default .Release.Namespace .Values.namespaced.namespace -}}
{{- end -}}

{{/* Whether the webhook itself writes caBundle into the webhook configurations. */}}
{{- define "rollgate.webhook.patchesCaBundle" -}}
{{- if or (eq .Values.certs.mode "self") (and (eq .Values.certs.mode "provided") (not .Values.certs.caBundle)) -}}
true
{{- end -}}
{{- end -}}

{{/* The Lease name the controller elects its leader with (Argo's). */}}
{{- define "rollgate.leaseName" -}}
{{- if .Values.controller.instanceId -}}
argo-rollouts-controller-lock-{{ .Values.controller.instanceId }}
{{- else -}}
argo-rollouts-controller-lock
{{- end -}}
{{- end -}}

{{- define "rollgate.image" -}}
{{- $tag := default .root.Chart.AppVersion .image.tag -}}
{{- if .root.Values.image.registry -}}
{{- printf "%s/%s:%s" .root.Values.image.registry .image.repository $tag -}}
{{- else -}}
{{- printf "%s:%s" .image.repository $tag -}}
{{- end -}}
{{- end -}}

{{/* The Lease the webhook replicas elect their leader with, in the release namespace. */}}
{{- define "rollgate.webhook.leaseName" -}}
{{- printf "%s-leader" (include "rollgate.webhook.name" .) -}}
{{- end -}}
