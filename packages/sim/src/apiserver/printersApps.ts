// Table printers of the apps/v1 kinds, as kube-apiserver prints them
// (pkg/printers/internalversion): `kubectl get deploy` → NAME READY UP-TO-DATE AVAILABLE AGE,
// `kubectl get rs` → NAME DESIRED CURRENT READY AGE (both + CONTAINERS IMAGES SELECTOR with
// -o wide), `kubectl get sts` → NAME READY AGE, `kubectl get controllerrevision` → NAME
// CONTROLLER REVISION AGE.
import {
  ageOf,
  c,
  images,
  n,
  nameCol,
  type Printer,
  templateWideCells,
  templateWideColumns,
} from './printers';

type J = Record<string, any>;

/** The apps/v1 printers by kind. */
export const APPS_PRINTERS: Record<string, Printer> = {
  Deployment: {
    columns: [
      nameCol(),
      c('Ready'),
      c('Up-to-date', 'integer'),
      c('Available', 'integer'),
      c('Age'),
      ...templateWideColumns(),
    ],
    row: (o, now) => {
      const s = (o.spec ?? {}) as J;
      const st = (o.status ?? {}) as J;
      return [
        o.metadata.name,
        `${n(st.readyReplicas)}/${s.replicas ?? 1}`,
        n(st.updatedReplicas),
        n(st.availableReplicas),
        ageOf(o, now),
        ...templateWideCells(s),
      ];
    },
  },
  ReplicaSet: {
    columns: [
      nameCol(),
      c('Desired', 'integer'),
      c('Current', 'integer'),
      c('Ready', 'integer'),
      c('Age'),
      ...templateWideColumns(),
    ],
    row: (o, now) => {
      const s = (o.spec ?? {}) as J;
      const st = (o.status ?? {}) as J;
      return [
        o.metadata.name,
        s.replicas ?? 1,
        n(st.replicas),
        n(st.readyReplicas),
        ageOf(o, now),
        ...templateWideCells(s),
      ];
    },
  },
  StatefulSet: {
    columns: [nameCol(), c('Ready'), c('Age'), c('Containers', 'string', 1), c('Images', 'string', 1)],
    row: (o, now) => {
      const s = (o.spec ?? {}) as J;
      return [
        o.metadata.name,
        `${n((o.status as J | undefined)?.readyReplicas)}/${s.replicas ?? 1}`,
        ageOf(o, now),
        ...images(s.template),
      ];
    },
  },
  ControllerRevision: {
    columns: [nameCol(), c('Controller'), c('Revision', 'integer'), c('Age')],
    row: (o, now) => {
      const owner = (o.metadata.ownerReferences ?? []).find((r) => r.controller);
      const ctl = owner
        ? `${owner.kind.toLowerCase()}.${owner.apiVersion.split('/')[0]}/${owner.name}`
        : '<none>';
      return [o.metadata.name, ctl, (o as J).revision ?? 0, ageOf(o, now)];
    },
  },
};
