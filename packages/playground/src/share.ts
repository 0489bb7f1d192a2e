// Sharing a session by URL: the scenario, the workload and the changes go into the fragment
// (`#s=...`), which browsers never send to a server. The JSON is deflated with the browser's
// CompressionStream when there is one (prefix `z`), else kept as it is (prefix `j`); both are
// base64url.
import type { Edit, Session } from './protocol';

const toBase64Url = (bytes: Uint8Array): string => {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

const fromBase64Url = (text: string): Uint8Array => {
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
};

async function through(bytes: Uint8Array, stream: GenericTransformStream): Promise<Uint8Array> {
  const out = new Blob([bytes as BlobPart]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

/** The fragment (without `#`) that holds `session`. */
export async function encodeSession(session: Session): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(session));
  if (typeof CompressionStream === 'function')
    return `s=z${toBase64Url(await through(json, new CompressionStream('deflate-raw')))}`;
  return `s=j${toBase64Url(json)}`;
}

/** The session in a fragment (`#s=...`), or undefined when there is none or it does not read. */
export async function decodeSession(fragment: string): Promise<Session | undefined> {
  const m = /^#?s=([zj])([A-Za-z0-9_-]*)$/.exec(fragment);
  if (!m) return undefined;
  try {
    let bytes = fromBase64Url(m[2]);
    if (m[1] === 'z') bytes = await through(bytes, new DecompressionStream('deflate-raw'));
    const v = JSON.parse(new TextDecoder().decode(bytes)) as Partial<Session>;
    if (typeof v.scenario !== 'string') return undefined;
    return {
      scenario: v.scenario,
      workload: typeof v.workload === 'string' ? v.workload : '',
      edits: Array.isArray(v.edits) ? v.edits.filter(isEdit) : [],
    };
  } catch {
    return undefined;
  }
}

const FIELDS = new Set(['image', 'partition', 'maxUnavailable', 'maxSurge']);

/** A well-formed edit (a fragment is user input: anything else is dropped). */
function isEdit(e: unknown): e is Edit {
  const v = e as Edit;
  return (
    typeof v === 'object' &&
    v !== null &&
    Number.isFinite(v.atMs) &&
    Number.isInteger(v.keepSteps) &&
    typeof v.change === 'object' &&
    v.change !== null &&
    FIELDS.has(v.change.field) &&
    typeof v.change.target === 'string' &&
    (typeof v.change.value === 'string' || typeof v.change.value === 'number')
  );
}
