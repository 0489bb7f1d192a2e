// Kubernetes primitives: int-or-percent values, resource quantities, label selectors and their
// string form, label requirements, node affinity and taints, name syntax, deterministic names and
// hashes, and time as Kubernetes writes it. The explicit list of what @kruise-ts/core exports from here.
export {
  computeHash,
  fnv32,
  fnv32a,
  hashVolumeClaimTemplates,
  safeEncodeString,
} from './hash';
export {
  calculatePartitionReplicas,
  kruiseScaledValueFromIntOrPercent,
  legacyValueFromIntOrPercent,
  parseGoInt,
  parsePercentageAsFloat64,
  scaledValueFromIntOrPercent,
  tryCalculatePartitionReplicas,
} from './intstr';
export {
  type LabelRequirement,
  type Labels,
  requirementMatches,
  type SelectorOperator,
} from './labelRequirements';
export {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
} from './nameValidation';
export {
  createRng,
  deterministicUid,
  generateName,
  mix32,
  type Rng,
  randomSuffix,
} from './naming';
export {
  findMatchingUntoleratedTaint,
  matchesRequiredNodeAffinity,
  matchNodeSelectorTerms,
  type NodeMatchInput,
  tolerationToleratesTaint,
} from './nodeAffinity';
export {
  canonicalQuantity,
  quantityToNumber,
  tryParseQuantity,
} from './quantity';
export {
  type LabelSelectorMatcher,
  type LabelSelectorOptions,
  labelSelectorMatcher,
  matchesLabelSelector,
} from './selectorMatcher';
export {
  matchesSelectorString,
  parseSelectorString,
} from './selectorString';
export {
  labelSelectorAsRequirements,
  labelSelectorAsString,
  validateLabelSelector,
} from './selectors';
export {
  epochMsToRFC3339,
  type Now,
  parseTime,
  secondsBetween,
  timeOf,
  toRFC3339,
} from './time';
