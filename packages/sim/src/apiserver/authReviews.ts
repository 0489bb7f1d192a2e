// Who-am-I and what-may-I-do answers (`kubectl auth can-i`, `kubectl auth can-i --list`,
// `kubectl auth whoami`): SelfSubjectAccessReview and SelfSubjectRulesReview
// (authorization.k8s.io/v1) and SelfSubjectReview (authentication.k8s.io/v1). The server has one
// identity — whoever holds the kubeconfig's token (or anyone, with --insecure-no-auth) may do
// everything, like a cluster admin — so every access review is allowed and the rules review lists
// `*` for everything; the answers say so in their `reason`.
import type { Reply } from './objects';
import { badRequest, methodNotAllowed } from './status';

/** The user the server reports for its single identity. */
export const SERVE_USER = {
  username: 'kruise-ts-admin',
  groups: ['system:masters', 'system:authenticated'],
};

const REASON = 'kruise-ts serve has one identity (the kubeconfig token holder), which may do everything';

/** The review paths this module answers. */
const REVIEWS: Record<string, { apiVersion: string; kind: string }> = {
  '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews': {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
  },
  '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews': {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectRulesReview',
  },
  '/apis/authentication.k8s.io/v1/selfsubjectreviews': {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'SelfSubjectReview',
  },
};

/**
 * The answer to a POST of a review at `path`, or undefined when `path` is not a review path.
 *
 * Example: POST `/apis/authorization.k8s.io/v1/selfsubjectaccessreviews` with
 * `{spec: {resourceAttributes: {verb: 'delete', resource: 'pods'}}}` → 201 with the review and
 * `status: {allowed: true, reason: …}` (kubectl auth can-i prints `yes`).
 */
export function reviewReply(path: string, method: string, body: string): Reply | undefined {
  const r = REVIEWS[path];
  if (!r) return undefined;
  if (method !== 'POST') return { code: 405, body: methodNotAllowed() };
  let req: { spec?: unknown; metadata?: unknown } = {};
  // kubectl sends these reviews as protobuf (`k8s\0…`); the answer does not depend on what is
  // asked, so such a body is not decoded and the spec is not echoed (the reply is JSON, which
  // kubectl accepts too)
  if (body.trim() !== '' && !body.startsWith('k8s\u0000')) {
    try {
      const v = JSON.parse(body);
      if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object');
      req = v;
    } catch (e) {
      return {
        code: 400,
        body: badRequest(`the body of the request could not be decoded: ${(e as Error).message}`),
      };
    }
  }
  const base = { kind: r.kind, apiVersion: r.apiVersion, metadata: { creationTimestamp: null } };
  switch (r.kind) {
    case 'SelfSubjectAccessReview':
      return {
        code: 201,
        body: { ...base, spec: req.spec ?? {}, status: { allowed: true, reason: REASON } },
      };
    case 'SelfSubjectRulesReview':
      return {
        code: 201,
        body: {
          ...base,
          spec: req.spec ?? {},
          status: {
            resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
            nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
            incomplete: false,
          },
        },
      };
    default:
      return { code: 201, body: { ...base, status: { userInfo: SERVE_USER } } };
  }
}
