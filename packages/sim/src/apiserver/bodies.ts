// The body of a create (POST) or update (PUT): the media types it may come in and how it is
// decoded. kube-apiserver accepts JSON and YAML (protobuf too, which this server does not
// decode); a missing Content-Type means JSON, as in kube-apiserver's negotiation. Anything
// else, such as the `text/plain` a browser form sends, is a 415 before the body is looked at.
import type { KubeObject } from '@kruise-ts/api';
import { readYamlDocuments } from '@kruise-ts/api';
import { badRequest, type StatusObject, unsupportedMediaType } from './status';

/** The media types a create or update body may have, as a 415 lists them. */
export const OBJECT_MEDIA_TYPES = 'application/json, application/yaml';

/** How a body is decoded. */
export type BodyFormat = 'json' | 'yaml';

/**
 * The format of a create/update body from its Content-Type, or undefined when the server does
 * not accept it. Parameters and case are ignored: `application/json; charset=utf-8` → `json`,
 * `application/yaml` → `yaml`, none → `json`, `text/plain` → undefined.
 */
export function objectBodyFormat(contentType: string | undefined): BodyFormat | undefined {
  if (contentType === undefined || contentType.trim() === '') return 'json';
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  if (mediaType === 'application/json') return 'json';
  if (mediaType === 'application/yaml') return 'yaml';
  return undefined;
}

/**
 * Decodes a create/update body into an object whose `metadata` is an object (filled with `{}`
 * when absent), or answers with a Status: 415 for a Content-Type the server does not accept,
 * 400 for a body that does not decode or is not an object.
 */
/**
 * The value of a one-document YAML body, through the same reader as manifests and scenarios
 * (`readYamlDocuments`: unique keys, at most 100 alias expansions, at most 128 levels of nesting,
 * no alias inside its own anchor), so a body like `- - - … x` nested 1,500 levels deep or
 * `&a [*a]` is a 400, not a stack overflow or a value that contains itself. Throws an Error whose
 * message says what is wrong, for the caller's 400.
 */
export function parseYamlBody(text: string): unknown {
  const stream = readYamlDocuments(text);
  if (stream.problem) throw new Error(stream.problem.message);
  if (stream.documents.length !== 1)
    throw new Error(`expected one YAML document, got ${stream.documents.length}`);
  const [doc] = stream.documents;
  if (doc.problems.length > 0)
    throw new Error(doc.problems.map((p) => `line ${p.line}: ${p.message}`).join('; '));
  return doc.value;
}

export function decodeObjectBody(contentType: string | undefined, text: string): KubeObject | StatusObject {
  const format = objectBodyFormat(contentType);
  if (!format) return unsupportedMediaType(OBJECT_MEDIA_TYPES);
  let v: unknown;
  try {
    v = format === 'json' ? JSON.parse(text) : parseYamlBody(text);
  } catch (e) {
    return badRequest(`the body of the request could not be decoded: ${(e as Error).message}`);
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    return badRequest(`the body of the request must be a ${format === 'json' ? 'JSON' : 'YAML'} object`);
  const o = v as KubeObject;
  if (o.metadata === undefined) return { ...o, metadata: {} };
  if (o.metadata === null || typeof o.metadata !== 'object' || Array.isArray(o.metadata))
    return badRequest('metadata must be an object');
  return o;
}
