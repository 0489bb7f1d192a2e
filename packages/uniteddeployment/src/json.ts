// Canonical JSON text as Go's encoding/json writes a generic map: object keys sorted byte-wise,
// no spaces, `<`, `>`, `&`, U+2028 and U+2029 escaped. Used for revision data bytes (§9) and for
// the raw subset patch text written to the `apps.kruise.io/subset-patch` annotation (§7.4 step 10).
// The encoder is core's `goJsonStringify`; this package keeps its public name for it.
import { goJsonStringify } from '@kruise-ts/core';

/** `{"b":1,"a":"<x>"}` → `{"a":"\u003cx\u003e","b":1}`; `undefined` members are dropped. */
export const canonicalJson: (value: unknown) => string = goJsonStringify;
