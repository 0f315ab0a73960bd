// Property tests run from a fixed seed, so a run is reproducible and CI is deterministic;
// FC_SEED=<n> explores other inputs (a failure prints the seed and path to replay it).
import fc from 'fast-check'

fc.configureGlobal({seed: Number(process.env.FC_SEED ?? 20261124)})
