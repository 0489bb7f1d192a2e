// The size of an object's annotations as kube-apiserver measures it (apimachinery's
// ValidateAnnotationsSize): the UTF-8 bytes of every key plus every value. The structural check
// (./structure) and @kruise-ts/core's validateAnnotationsSize both measure with it.

/** UTF-8 length of a string without building its bytes (`é` is 2, `€` 3, `😀` 4). */
function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4; // a surrogate pair is one code point of 4 bytes
        i++;
      } else n += 3;
    } else n += 3; // a lone surrogate is written as U+FFFD, 3 bytes
  }
  return n;
}

/** A value's JSON text; '' for one JSON cannot write (a BigInt, a cycle), left to type checks. */
function jsonText(v: unknown): string {
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return '';
  }
}

/**
 * The bytes `annotations` occupy: keys plus values in UTF-8. A value that is not a string (which
 * a typed API server would not decode) counts as its JSON text; anything but a plain object is 0.
 *
 * Example: `annotationsSize({a: 'xyz', 'é': ''})` → 6.
 */
export function annotationsSize(annotations: unknown): number {
  if (annotations === null || typeof annotations !== 'object' || Array.isArray(annotations)) return 0;
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) {
    size += utf8Length(k);
    if (typeof v === 'string') size += utf8Length(v);
    else if (v !== undefined) size += utf8Length(jsonText(v));
  }
  return size;
}
