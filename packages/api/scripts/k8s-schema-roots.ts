// The Kubernetes types whose structural schemas scripts/gen-k8s-schemas.ts generates: what the
// Kruise kinds embed (pod templates, PVC templates, selectors, tolerations, the subset templates of
// a UnitedDeployment, a cron job's Job template) and the objects a controller observes (Pod, Node,
// Namespace, ControllerRevision). Each export is one root; its closure comes along.
// Types only: this file is read by ts-json-schema-generator, never run.

import type { IControllerRevision } from 'kubernetes-models/apps/v1/ControllerRevision';
import type { IDeploymentSpec } from 'kubernetes-models/apps/v1/DeploymentSpec';
import type { IStatefulSetSpec } from 'kubernetes-models/apps/v1/StatefulSetSpec';
import type { IJobTemplateSpec } from 'kubernetes-models/batch/v1/JobTemplateSpec';
import type { INamespace } from 'kubernetes-models/v1/Namespace';
import type { INode } from 'kubernetes-models/v1/Node';
import type { IPersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import type { IPod } from 'kubernetes-models/v1/Pod';
import type { IPodTemplateSpec } from 'kubernetes-models/v1/PodTemplateSpec';

export interface ControllerRevision extends IControllerRevision {}
export interface DeploymentSpec extends IDeploymentSpec {}
export interface StatefulSetSpec extends IStatefulSetSpec {}
export interface JobTemplateSpec extends IJobTemplateSpec {}
export interface Namespace extends INamespace {}
export interface Node extends INode {}
export interface PersistentVolumeClaim extends IPersistentVolumeClaim {}
export interface Pod extends IPod {}
export interface PodTemplateSpec extends IPodTemplateSpec {}
