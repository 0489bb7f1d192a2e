// Kubernetes' name syntax checks (qualified names, label values, DNS-1123 and DNS-1035 labels,
// DNS-1123 subdomains, port names). One implementation, in @kruise-ts/api, where the structural
// check needs them; the rules in core and the controllers import them from here.
export {
  DNS1123_LABEL_MAX_LENGTH,
  DNS1123_SUBDOMAIN_MAX_LENGTH,
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPortName,
  LABEL_VALUE_MAX_LENGTH,
} from '@kruise-ts/api';
