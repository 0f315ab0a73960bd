// The settings every random oracle reads, one convention for all of them: KCTL_ORACLE_SEED picks
// the seed, KCTL_ORACLE_COUNT how many worlds, KCTL_ORACLE_FIRST the number of the first one (a
// replay builds only the world it names), KCTL_ORACLE_BATCH how many worlds share one start of the
// controller. Each file gives its own defaults: the count is what `npm test` runs.

export interface OracleSettings {
  seed: number
  count: number
  first: number
  batch: number
}

export function oracleSettings(defaults: {seed: number; count: number; batch?: number}, env: NodeJS.ProcessEnv = process.env): OracleSettings {
  const read = (name: string, fallback: number) => {
    const text = env[`KCTL_ORACLE_${name}`]
    return text === undefined || text === '' ? fallback : Number(text)
  }
  return {
    seed: read('SEED', defaults.seed),
    count: read('COUNT', defaults.count),
    first: read('FIRST', 0),
    batch: Math.max(1, read('BATCH', defaults.batch ?? defaults.count)),
  }
}
