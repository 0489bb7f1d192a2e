// Kubernetes' name syntax checks (k8s.io/apimachinery/pkg/util/validation): qualified
// names (label keys), label values, DNS-1123 labels and subdomains, DNS-1035 labels (Service
// names), IANA port names. Each returns the list of messages Kubernetes would give (empty =
// valid). They live here, in the lowest package, because the structural check (./structure)
// needs them; @kruise-ts/core re-exports them for the rules.

/** `validation.MaxLenError`. */
function maxLenError(n: number): string {
  return `must be no more than ${n} characters`;
}

/** `validation.RegexError`: message, examples and the regex used. */
function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

const QNAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QNAME_RE = new RegExp(`^${QNAME_FMT}$`);
const QNAME_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT = `(${QNAME_FMT})?`;
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE_FMT}$`);
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL_RE = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const DNS1123_LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_RE = new RegExp(`^${DNS1035_LABEL_FMT}$`);
const DNS1035_LABEL_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

/** Maximum length of a label value and of the name part of a qualified name. */
export const LABEL_VALUE_MAX_LENGTH = 63;
/** Maximum length of a DNS-1123 label. */
export const DNS1123_LABEL_MAX_LENGTH = 63;
/** Maximum length of a DNS-1123 subdomain. */
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;

/** `IsDNS1123Label`: `my-name`, at most 63 characters. */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1123_LABEL_MAX_LENGTH));
  if (!DNS1123_LABEL_RE.test(value))
    errs.push(regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  return errs;
}

/**
 * `IsDNS1035Label`: a DNS-1123 label that starts with a letter, at most 63 characters. Kubernetes
 * names Services this way, so `web` and `my-svc-2` are valid and `2web` is not.
 */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1123_LABEL_MAX_LENGTH));
  if (!DNS1035_LABEL_RE.test(value))
    errs.push(regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  return errs;
}

/** `IsDNS1123Subdomain`: `example.com`, at most 253 characters. */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!DNS1123_SUBDOMAIN_RE.test(value)) {
    errs.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  }
  return errs;
}

/**
 * `IsQualifiedName` (label and annotation keys): an optional DNS-1123 subdomain prefix and
 * `/`, then a name of at most 63 alphanumerics, `-`, `_`, `.` starting and ending alphanumeric.
 * Example: `app.kubernetes.io/name` is valid; `-a`, `a/b/c` and `/a` are not.
 */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0];
  } else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else for (const m of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${m}`);
  } else {
    return [
      `a qualified name ${regexError(QNAME_MSG, QNAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > LABEL_VALUE_MAX_LENGTH)
    errs.push(`name part ${maxLenError(LABEL_VALUE_MAX_LENGTH)}`);
  if (!QNAME_RE.test(name))
    errs.push(`name part ${regexError(QNAME_MSG, QNAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

/** `IsValidLabelValue`: empty, or a qualified-name-like string of at most 63 characters. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (value.length > LABEL_VALUE_MAX_LENGTH) errs.push(maxLenError(LABEL_VALUE_MAX_LENGTH));
  if (!LABEL_VALUE_RE.test(value))
    errs.push(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errs;
}

/**
 * `IsValidPortName` (IANA_SVC_NAME): at most 15 characters, lower-case alphanumerics and `-`,
 * at least one letter, no leading/trailing or doubled `-`. Example: `http`, `metrics-2`.
 */
export function isValidPortName(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(value))
    errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(value)) errs.push('must contain at least one letter (a-z)');
  if (value.includes('--')) errs.push('must not contain consecutive hyphens');
  if (value.startsWith('-') || value.endsWith('-')) errs.push('must not begin or end with a hyphen');
  return errs;
}
