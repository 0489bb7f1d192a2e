// DNS-1035 labels (Kubernetes' Service names): what `isDNS1035Label` accepts and the messages it
// gives, next to the DNS-1123 label it differs from only in the first character.

import { isDNS1035Label, isDNS1123Label } from '@kruise-ts/core';
import { describe, expect, it } from 'vitest';

const DNS1035_REGEX_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

describe('isDNS1035Label', () => {
  it('accepts lower-case names that start with a letter', () => {
    for (const v of ['a', 'web', 'my-svc-2', `a${'b'.repeat(62)}`]) expect(isDNS1035Label(v), v).toEqual([]);
  });

  it('refuses a leading digit that a DNS-1123 label allows, with Kubernetes message', () => {
    expect(isDNS1123Label('2web')).toEqual([]);
    expect(isDNS1035Label('2web')).toEqual([DNS1035_REGEX_MSG]);
  });

  it('refuses upper case, dots, a trailing dash and the empty string', () => {
    for (const v of ['Web', 'a.b', 'web-', '']) expect(isDNS1035Label(v), v).toEqual([DNS1035_REGEX_MSG]);
  });

  it('refuses more than 63 characters with the length message first', () => {
    expect(isDNS1035Label(`a${'b'.repeat(63)}`)).toEqual(['must be no more than 63 characters']);
    expect(isDNS1035Label(`1${'b'.repeat(63)}`)).toEqual([
      'must be no more than 63 characters',
      DNS1035_REGEX_MSG,
    ]);
  });
});
