// Kubernetes primitives: int-or-percent values, resource quantities, label selectors and their
// string form, label requirements, node affinity and taints, name syntax, deterministic names and
// hashes, and time as Kubernetes writes it. The explicit list of what @kruise-ts/core exports from here.
export {
  canVolumeClaimTemplatesUpdateInPlace,
  computeHash,
  fnv32,
  fnv32a,
  getVolumeClaimTemplatesHash,
  hashVolumeClaimTemplates,
  SAFE_ALPHABET,
  safeEncodeString,
} from './hash';
export {
  calculatePartitionReplicas,
  getIntOrPercentValueSafely,
  kruiseScaledValueFromIntOrPercent,
  legacyValueFromIntOrPercent,
  parseGoFloat,
  parseGoInt,
  parseIntOrString,
  parsePercentageAsFloat64,
  scaledValueFromIntOrPercent,
  tryCalculatePartitionReplicas,
} from './intstr';
export {
  type LabelRequirement,
  type Labels,
  newRequirement,
  requirementMatches,
  type SelectorOperator,
  sortRequirementsByKey,
} from './labelRequirements';
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
} from './nameValidation';
export {
  createRng,
  deterministicUid,
  generateName,
  MAX_GENERATED_NAME_PREFIX_LENGTH,
  mix32,
  type Rng,
  randomSuffix,
} from './naming';
export {
  findMatchingUntoleratedTaint,
  matchesRequiredNodeAffinity,
  matchNodeSelector,
  matchNodeSelectorTerms,
  type NodeMatchInput,
  tolerationsTolerateTaint,
  tolerationToleratesTaint,
} from './nodeAffinity';
export {
  addQuantities,
  canonicalQuantity,
  compareQuantities,
  isValidQuantity,
  parseQuantity,
  type QuantityValue,
  quantityEquals,
  quantityToMilli,
  quantityToNumber,
  tryParseQuantity,
} from './quantity';
export {
  matchesSelectorString,
  parseSelectorString,
} from './selectorString';
export {
  labelSelectorAsRequirements,
  labelSelectorAsString,
  matchesLabelSelector,
  requirementsToString,
  requirementToString,
  validateLabelSelector,
} from './selectors';
export {
  type Now,
  parseTime,
  secondsBetween,
  timeOf,
  toRFC3339,
} from './time';
