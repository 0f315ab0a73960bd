// The `yaml` package (exact positions for messages, YAML 1.1 output for -o yaml) takes about 20 ms
// to load, and most runs never need it: it is loaded the first time it is asked for.
import {createRequire} from 'node:module'

type YamlPackage = typeof import('yaml')

let loaded: YamlPackage | undefined

export function yamlPackage(): YamlPackage {
  loaded ??= createRequire(import.meta.url)('yaml') as YamlPackage
  return loaded
}
