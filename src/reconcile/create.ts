// What the API server makes of generateName (apiserver/pkg/storage/names/generate.go), for every
// controller that creates objects by generateName. The ReplicaSet controller's pod creation is in
// src/controllers/replicaset/create.ts.

/** simpleNameGenerator: the base is cut to 63 − 5 characters, then 5 random characters follow. */
export const GENERATED_BASE_LENGTH = 58
export const GENERATED_SUFFIX_LENGTH = 5
